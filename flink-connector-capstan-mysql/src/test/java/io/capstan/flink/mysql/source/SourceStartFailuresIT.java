package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.preflight.PreflightException;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.FailOnWrite;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.SerializedThrowable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The enumerator refuses to start, before anything is read, when no table matches and when the
 * preflight finds the server unsafe for this account; the job fails with the named reason.
 */
class SourceStartFailuresIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    private static Throwable run(CapstanMySqlSource<String> source) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .sinkTo(FailOnWrite.sink());
        return catchThrowable(() -> env.execute("start-failure"));
    }

    @Test
    void noMatchingTableFailsTheJobWithNoTablesMatched() {
        DB.execute(
                Workload.createTable("present"),
                "CREATE VIEW present_view AS SELECT * FROM present");
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .tableList(DB.name() + "\\.(absent|present_view)") // a view never matches
                        .serverId(4242)
                        .startupOptions(StartupOptions.latest())
                        .deserializer(new ChangeLineDeserializer())
                        .build();
        Throwable failure = run(source);
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.NO_TABLES_MATCHED);
        assertThat(halt.get().getMessage())
                .contains("tableList")
                .doesNotContain(DB.server().connectorAccount().password());
    }

    @Test
    void anAccountWithoutReplicationPrivilegesIsRefusedByThePreflight() {
        DB.execute(Workload.createTable("orders"));
        String user = "capstan_noreplication";
        String password = "Pw-not-in-messages-9";
        DB.server()
                .executeAsRoot(
                        "DROP USER IF EXISTS '" + user + "'@'%'",
                        "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
                        "GRANT SELECT, LOCK TABLES ON *.* TO '" + user + "'@'%'");
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(user)
                        .password(password)
                        .databaseList(DB.name())
                        .serverId(4243)
                        .startupOptions(StartupOptions.latest())
                        .deserializer(new ChangeLineDeserializer())
                        .build();
        Throwable failure = run(source);
        // The job fails with the PreflightException. It reaches the client as itself, or as
        // Flink's SerializedThrowable standing in for it when it cannot be Java-serialized.
        Optional<Throwable> preflight =
                ExceptionUtils.findThrowable(
                        failure,
                        t ->
                                t instanceof PreflightException
                                        || t instanceof SerializedThrowable
                                                && PreflightException.class
                                                        .getName()
                                                        .equals(
                                                                ((SerializedThrowable) t)
                                                                        .getOriginalErrorClassName()));
        assertThat(preflight)
                .as("failure cause chain: %s", ExceptionUtils.stringifyException(failure))
                .isPresent();
        assertThat(preflight.get().getMessage())
                .contains("missing_privilege")
                .contains("REPLICATION SLAVE")
                .doesNotContain(password);
    }
}

package io.capstan.flink.mysql.source.it;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * The pipeline the source ITs run: source → fail-at-counts map → two-phase file sink, parallelism
 * 1.
 */
public final class SourceJobs {
    private SourceJobs() {}

    public static <T> CapstanMySqlSource<T> source(
            MySqlTestDatabase db, StartupOptions start, CapstanDeserializer<T> deserializer) {
        return builder(db, start, deserializer).build();
    }

    /** The builder of {@link #source}, for a test that sets more (a narrower table list, say). */
    public static <T> CapstanMySqlSourceBuilder<T> builder(
            MySqlTestDatabase db, StartupOptions start, CapstanDeserializer<T> deserializer) {
        return CapstanMySqlSource.<T>builder()
                .hostname(db.server().host())
                .port(db.server().port())
                .username(db.server().connectorAccount().username())
                .password(db.server().connectorAccount().password())
                .databaseList(db.name())
                .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                .startupOptions(start)
                .deserializer(deserializer)
                .heartbeatInterval(Duration.ofSeconds(1));
    }

    /**
     * Starts where the server's binary log ends now, as a binlog file and position: on a server
     * with GTIDs the job turns it into the GTID set before it; without GTIDs it runs on positions
     * (so the same test runs on both kinds of server). A MariaDB in {@code gtid_strict_mode}
     * refuses a start by file and position: there it is the binlog state
     * ({@code @@gtid_binlog_pos}).
     */
    public static StartupOptions fromBinlogEnd(MySqlTestDatabase db) {
        if (db.server().isMariaDb()
                && "1".equals(db.server().queryStringAsRoot("SELECT @@global.gtid_strict_mode"))) {
            return StartupOptions.gtidSet(
                    db.server().queryStringAsRoot("SELECT @@global.gtid_binlog_pos"));
        }
        try (Connection c = db.server().openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            return StartupOptions.specificOffset(rs.getString(1), rs.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException("could not read SHOW MASTER STATUS", e);
        }
    }

    public static StreamExecutionEnvironment env(long checkpointMillis, String savepointToRestore) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 50);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        if (savepointToRestore != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepointToRestore);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(checkpointMillis);
        return env;
    }

    public static void pipeline(
            StreamExecutionEnvironment env, CapstanMySqlSource<String> source, Path sinkDir) {
        pipeline(env, source, sinkDir, 1);
    }

    /**
     * As above with {@code sourceParallelism} reader subtasks (the rest stays at parallelism 1).
     */
    public static void pipeline(
            StreamExecutionEnvironment env,
            CapstanMySqlSource<String> source,
            Path sinkDir,
            int sourceParallelism) {
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .setParallelism(sourceParallelism)
                .uid("capstan-source")
                .map(new FailAtCounts())
                .uid("fail-at-counts")
                .sinkTo(new TwoPhaseFileSink(sinkDir))
                .uid("two-phase-sink");
    }

    /** Waits until the condition holds, failing after the timeout. */
    /** The MiniCluster of a source IT: one TaskManager with {@code slots} slots. */
    public static MiniClusterExtension miniCluster(int slots) {
        return miniCluster(slots, new Configuration());
    }

    /** One TaskManager of {@code slots} slots whose metrics {@code reporter} keeps. */
    public static MiniClusterExtension miniCluster(int slots, InMemoryReporter reporter) {
        return miniCluster(slots, reporter.addToConfiguration(new Configuration()));
    }

    private static MiniClusterExtension miniCluster(int slots, Configuration conf) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(conf)
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .build());
    }

    public static void await(String what, Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    public static int committedCount(Path sinkDir) {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir).size();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static List<String> committed(Path sinkDir) throws java.io.IOException {
        return TwoPhaseFileSink.committedLines(sinkDir);
    }
}

package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task cancelled while its chunk reader waits for the table lock (a transaction is writing the
 * table, so LOCK TABLES ... READ waits, and the lock wait budget keeps retrying for minutes) is
 * cancelled within Flink's grace period: closing the reader fails the wait instead of waiting for
 * it.
 */
class CancelWhileWaitingForTheLockIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    private static final Duration CANCEL_WITHIN = Duration.ofSeconds(30);

    @Test
    void aJobWhoseReaderWaitsForTheTableLockIsCancelledWithinThirtySeconds() throws Exception {
        DB.execute("CREATE TABLE held (id BIGINT PRIMARY KEY, v INT NOT NULL)");
        DB.execute("INSERT INTO held VALUES (1, 1), (2, 2), (3, 3)");
        CapstanMySqlSource<String> source =
                SnapshotJobs.source(DB, StartupOptions.snapshot())
                        .deserializer(new ValueLineDeserializer())
                        .tableList(DB.name() + ".held")
                        .lockWaitTimeout(Duration.ofSeconds(1))
                        .lockWaitBudget(Duration.ofMinutes(10))
                        .build();
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "held")
                .sinkTo(new DiscardingSink<>());

        try (Connection writer = DB.openRootConnection();
                Statement st = writer.createStatement()) {
            // An open writing transaction holds the table's metadata lock: LOCK TABLES waits.
            st.execute("START TRANSACTION");
            st.execute("UPDATE held SET v = v + 1 WHERE id = 1");
            JobClient job = env.executeAsync("cancel-while-locked");
            try {
                SourceJobs.await(
                        "the reader waiting for its table lock",
                        Duration.ofMinutes(2),
                        CancelWhileWaitingForTheLockIT::readerWaitsForTheLock);
                Thread.sleep(3_000); // into the backoff: a few attempts have failed

                long start = System.nanoTime();
                job.cancel().get(CANCEL_WITHIN.toSeconds(), TimeUnit.SECONDS);
                JobStatus status = JobStatus.RUNNING;
                while (System.nanoTime() - start < CANCEL_WITHIN.toNanos() * 2) {
                    status = job.getJobStatus().get(10, TimeUnit.SECONDS);
                    if (status.isGloballyTerminalState()) {
                        break;
                    }
                    Thread.sleep(50);
                }
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                System.out.println("Cancelled in " + took.toMillis() + " ms, status " + status);
                assertThat(status).isEqualTo(JobStatus.CANCELED);
                assertThat(took).isLessThan(CANCEL_WITHIN);
                // The aborted socket ends the server's wait at its next check (lock_wait_timeout
                // is 1 s here), not at once: a wait still listed right after the cancel is fine.
                SourceJobs.await(
                        "the wait ended on the server",
                        Duration.ofSeconds(15),
                        () -> !readerWaitsForTheLock());
            } finally {
                st.execute("ROLLBACK"); // lets a hung reader finish, if the test failed
            }
        }
    }

    /** Whether a connector session is waiting for its LOCK TABLES on the table. */
    private static boolean readerWaitsForTheLock() {
        try (Connection c = DB.openRootConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                                        + " WHERE USER = ? AND INFO LIKE 'LOCK TABLES%held%'")) {
            ps.setString(1, DB.server().connectorAccount().username());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;
import io.capstan.flink.mysql.testing.ReplicationSetup;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The snapshot read on a GTID replica ({@code scan.snapshot.hostname}) while the binlog and the
 * handoff stay on the primary: writers on the primary throughout, parallelism 2, one failure
 * injected during the snapshot and one during the stream; the output is exactly once and equals the
 * primary, and the primary's general log shows no {@code LOCK TABLES} and no chunk {@code SELECT}
 * of the connector (the replica, super_read_only, shows both). A transaction written on the replica
 * directly halts the job with {@code snapshot_server_diverged}: mid-snapshot at the next chunk, and
 * before anything is read for a new job.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnapshotFromReplicaIT {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotFromReplicaIT.class);

    private static final int ROWS = 30_000;
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static MySqlServer primary;
    private static MySqlServer replica;

    /** Both servers, started once for the class; the database is created on the primary. */
    private static synchronized MySqlServer primary() {
        if (primary == null) {
            primary = MySqlServer.startEmbedded(ServerOptions.defaults());
            replica = MySqlServer.startEmbedded(ServerOptions.defaults());
            ReplicationSetup.start(primary, replica);
            // as a replica should run: the brief lock is a read lock, which super_read_only allows
            replica.executeAsRoot("SET GLOBAL super_read_only = ON");
        }
        return primary;
    }

    /**
     * Created and dropped here, not as an extension: its drop must come before the servers stop.
     */
    static final MySqlTestDatabase DB = new MySqlTestDatabase(SnapshotFromReplicaIT::primary);

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    @TempDir Path sinkDir;

    @BeforeAll
    static void createDatabase() {
        DB.beforeAll(null);
    }

    @AfterAll
    static void stopServers() {
        if (primary != null) {
            DB.afterAll(null);
        }
        if (replica != null) {
            replica.close();
        }
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    @Order(1)
    void chunksReadOnTheReplicaAreExactlyOnceAndTheirLocksNeverReachThePrimary() throws Exception {
        long started = System.nanoTime();
        DB.execute(VersionedWriters.createTable("vt"));
        VersionedWriters.fill(DB, "vt", ROWS);
        ReplicationSetup.awaitCaughtUp(primary, replica, WAIT);
        // (the general log is empty until now; a TRUNCATE of it would be a GTID transaction of
        // the replica's own, which the preflight refuses)
        for (MySqlServer s : List.of(primary, replica)) {
            s.executeAsRoot("SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = ON");
        }

        long seed = System.nanoTime();
        Random random = new Random(seed);
        long readPoint = 3_000L + random.nextInt(20_000);
        long changePoint = 200L + random.nextInt(800);
        LOG.info(
                "Failure points: snapshot read {}, binlog change {} (seed {})",
                readPoint,
                changePoint,
                seed);
        FailInPhases.arm(Set.of(readPoint), Set.of(changePoint));
        VersionedWriters writers = new VersionedWriters(DB, "vt", 2, ROWS, 1);
        writers.start(seed);

        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(DB, StartupOptions.initial())
                        .chunkSize(1_000)
                        .snapshotServer(replica.host(), replica.port())
                        .build(),
                sinkDir,
                2);
        JobClient job = env.executeAsync("snapshot-from-replica");
        try {
            SourceJobs.await(
                    "a failure in the snapshot and one in the stream",
                    WAIT,
                    () ->
                            FailInPhases.firedInSnapshot() == 1
                                    && FailInPhases.firedInStream() == 1
                                    && FailInPhases.distinctChanges() > 1_500);
            writers.stop();
            Map<Long, long[]> table = VersionedWriters.read(DB, "vt");
            SourceJobs.await(
                    "the output to equal the primary's table",
                    WAIT,
                    () ->
                            SnapshotHandoffExactlyOnceIT.sameRows(
                                    ChangelogCheck.apply(committed()), table));
            Thread.sleep(1_500); // more checkpoints: a duplicate arriving late would show
        } finally {
            job.cancel().get();
        }
        Map<Long, long[]> table = VersionedWriters.read(DB, "vt");
        ChangelogCheck check = ChangelogCheck.apply(committed());
        LOG.info(
                "Output: {} snapshot reads, {} binlog changes; took {} s",
                check.reads(),
                check.changes(),
                (System.nanoTime() - started) / 1_000_000_000);
        assertThat(check.violations()).as("violations").isEmpty();
        assertThat(SnapshotHandoffExactlyOnceIT.sameRows(check, table))
                .as("applied output equals the primary's table")
                .isTrue();
        assertThat(FailInPhases.readsAfterAChange()).as("reads after a change").isZero();
        assertThat(check.reads()).isGreaterThan(ROWS / 2);

        String chunkSelect = "SELECT %FROM `" + DB.name() + "`.`vt`%";
        assertThat(connectorStatements(primary, "%LOCK TABLES%"))
                .as("LOCK TABLES of the connector on the primary")
                .isZero();
        assertThat(connectorStatements(primary, chunkSelect))
                .as("chunk SELECTs of the connector on the primary")
                .isZero();
        assertThat(connectorStatements(replica, "%LOCK TABLES%"))
                .as("the brief locks, on the replica")
                .isPositive();
        assertThat(connectorStatements(replica, chunkSelect))
                .as("the chunk reads, on the replica")
                .isPositive();
        for (MySqlServer s : List.of(primary, replica)) {
            s.executeAsRoot("SET GLOBAL general_log = OFF");
        }
    }

    @Test
    @Order(2)
    void aTransactionWrittenOnTheReplicaHaltsTheJobByName() throws Exception {
        DB.execute(VersionedWriters.createTable("dv"));
        VersionedWriters.fill(DB, "dv", 20_000);
        ReplicationSetup.awaitCaughtUp(primary, replica, WAIT);
        FailInPhases.arm(Set.of(), Set.of());

        // slow enough that most chunks are read after the replica diverged
        JobClient job = startThrottledJob("dv");
        SourceJobs.await("the first chunks", WAIT, () -> FailInPhases.distinctReads() >= 500);
        replica.executeAsRoot(
                "SET GLOBAL super_read_only = OFF", "CREATE DATABASE errant_on_replica");
        assertHalts(job, "[snapshot_server_diverged]", "chunk ", replica.serverUuid() + ":1");
        assertThat(FailInPhases.distinctReads()).as("reads before the halt").isLessThan(20_000);

        // a new job is refused before anything is read
        FailInPhases.arm(Set.of(), Set.of());
        assertHalts(
                startThrottledJob("dv"),
                "[snapshot_server_diverged]",
                "is not safe to capture from",
                replica.serverUuid() + ":1");
        assertThat(FailInPhases.distinctReads()).isZero();
    }

    private JobClient startThrottledJob(String table) throws Exception {
        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(DB, StartupOptions.snapshot())
                        .tableList(DB.name() + "\\." + table)
                        .chunkSize(500)
                        .snapshotMaxRowsPerSecond(3_000)
                        .snapshotServer(replica.host(), replica.port())
                        .build(),
                sinkDir,
                2);
        return env.executeAsync("snapshot-from-diverged-replica");
    }

    private static void assertHalts(JobClient job, String code, String... details) {
        assertThatThrownBy(
                        () -> job.getJobExecutionResult().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .satisfies(
                        failure ->
                                assertThat(
                                                ExceptionUtils.findThrowable(
                                                        failure,
                                                        t ->
                                                                String.valueOf(t.getMessage())
                                                                        .contains(code)))
                                        .hasValueSatisfying(
                                                halt ->
                                                        assertThat(halt.getMessage())
                                                                .contains(details)));
    }

    /** Statements of the connector's account in the server's general log matching {@code like}. */
    private static long connectorStatements(MySqlServer server, String like) throws SQLException {
        try (Connection c = server.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT COUNT(*) FROM mysql.general_log WHERE user_host LIKE"
                                        + " 'capstan%' AND CONVERT(argument USING utf8mb4) LIKE '"
                                        + like.replace("'", "''")
                                        + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<String> committed() {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

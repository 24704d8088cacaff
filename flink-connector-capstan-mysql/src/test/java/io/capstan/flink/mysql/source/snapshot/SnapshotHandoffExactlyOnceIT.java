package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.testing.BinlogRotations;
import io.capstan.flink.mysql.testing.FlinkLines;
import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * THE handoff test: a table of 200,000 rows under concurrent inserts, updates, key-changing updates
 * and deletes during the snapshot and after it; start mode {@code initial} at parallelism 2,
 * checkpoints every 300 ms, the job failed on purpose 3 times during the snapshot and 2 times
 * during the stream. The output goes through the two-phase sink (what completed checkpoints cover,
 * nothing else); applied by key, strictly, it must equal the table at the end, and each row's
 * versions after its snapshot read must follow one another with no repeat and no gap ({@link
 * ChangelogCheck}). A wrong gate or an early handoff shows as a duplicate, a stale before image or
 * a version gap.
 *
 * <p>Two cases, each a dimension of its own: a string key on a server with GTIDs, and an integer
 * key on a server without GTIDs ({@code gtid_mode = OFF}: positions are binlog files and offsets,
 * docs/adr/0012), with the binary log rotated every 2 s throughout, so chunks, the handoff and
 * restores meet rotations. (An integer key on GTIDs adds nothing the two do not drive: the same
 * reader, enumerator, gate and checkpoint path.) A third case runs the integer key on a real
 * MariaDB (Debian's {@code mariadbd}, on positions too, with rotations): its read view, brief lock
 * and binlog events are MariaDB's own.
 */
class SnapshotHandoffExactlyOnceIT {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotHandoffExactlyOnceIT.class);

    private static final int ROWS = 200_000;

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    /** A server of its own with gtid_mode OFF, started for the position-mode case. */
    @RegisterExtension
    static final MySqlTestDatabase WITHOUT_GTIDS =
            MySqlTestDatabase.onServerOfItsOwn(
                    () ->
                            MySqlServer.startEmbedded(
                                    ServerOptions.defaults()
                                            .withFlag(
                                                    "--gtid-mode=OFF"
                                                            + " --enforce-gtid-consistency=OFF")));

    /** A MariaDB with gtid_strict_mode: the job runs on MariaDB's GTIDs (docs/adr/0013). */
    @RegisterExtension
    static final MySqlTestDatabase ON_MARIADB =
            MySqlTestDatabase.onServerOfItsOwn(
                    () -> MariaDbServer.startForCapture(21, "--gtid-strict-mode=ON"));

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    @TempDir Path sinkDir;

    /**
     * The string key runs on every Flink line; the integer key without GTIDs runs on the 2.x line
     * only (docs/testing.md, "Which tests run on which line").
     */
    @Test
    @Tag(FlinkLines.EVERY_LINE)
    void stringKeySnapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures() throws Exception {
        snapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures(DB, true, false);
    }

    @Test
    void integerKeyWithoutGtidsSnapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures()
            throws Exception {
        snapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures(WITHOUT_GTIDS, false, true);
    }

    @Test
    void integerKeyOnMariaDbGtidsSnapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures()
            throws Exception {
        snapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures(ON_MARIADB, false, true);
    }

    /**
     * @param positions whether the server runs on binlog positions: the binary log is then rotated
     *     every 2 s
     */
    private void snapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures(
            MySqlTestDatabase db, boolean stringKey, boolean positions) throws Exception {
        long started = System.nanoTime();
        db.execute(
                "DROP TABLE IF EXISTS vt",
                stringKey
                        ? VersionedWriters.createTableWithStringKey("vt")
                        : VersionedWriters.createTable("vt"));
        VersionedWriters.fill(db, "vt", ROWS);
        LOG.info("Filled {} rows in {} ms", ROWS, (System.nanoTime() - started) / 1_000_000);

        long seed = System.nanoTime();
        Random random = new Random(seed);
        TreeSet<Long> readPoints = new TreeSet<>();
        while (readPoints.size() < 3) {
            readPoints.add(10_000L + random.nextInt(170_000));
        }
        TreeSet<Long> changePoints = new TreeSet<>();
        while (changePoints.size() < 2) {
            changePoints.add(500L + random.nextInt(4_000));
        }
        LOG.info(
                "Failure points: snapshot reads {}, binlog changes {} (seed {})",
                readPoints,
                changePoints,
                seed);
        FailInPhases.arm(readPoints, changePoints);

        VersionedWriters writers = new VersionedWriters(db, "vt", 2, ROWS, 1);
        writers.start(seed);
        BinlogRotations rotations = positions ? BinlogRotations.every(db, 2_000) : null;

        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(db, StartupOptions.initial()).chunkSize(2_000).build(),
                sinkDir,
                2);
        JobClient job = env.executeAsync("snapshot-handoff-exactly-once");
        try {
            SourceJobs.await(
                    "3 failures in the snapshot and 2 in the stream",
                    Duration.ofMinutes(4),
                    () ->
                            FailInPhases.firedInSnapshot() == 3
                                    && FailInPhases.firedInStream() == 2
                                    && FailInPhases.distinctChanges() > 6_000);
            writers.stop();
            if (rotations != null) {
                rotations.close();
            }
            LOG.info(
                    "Writers stopped after {} transactions ({} key moves)",
                    writers.transactions(),
                    writers.keyMoves());
            Map<Long, long[]> table = VersionedWriters.read(db, "vt");

            SourceJobs.await(
                    "the output to equal the table",
                    Duration.ofMinutes(2),
                    () -> sameRows(ChangelogCheck.apply(committed()), table));
            Thread.sleep(1_500); // more checkpoints: a duplicate arriving late would show
        } finally {
            if (rotations != null) {
                rotations.close();
            }
            job.cancel().get();
        }
        Map<Long, long[]> table = VersionedWriters.read(db, "vt");
        ChangelogCheck check = ChangelogCheck.apply(committed());
        LOG.info(
                "Output: {} snapshot reads, {} binlog changes; took {} s",
                check.reads(),
                check.changes(),
                (System.nanoTime() - started) / 1_000_000_000);
        assertThat(check.violations())
                .as("violations (first of %s)", check.violations().size())
                .isEmpty();
        assertThat(sameRows(check, table)).as("applied output equals the table").isTrue();
        assertThat(FailInPhases.readsAfterAChange())
                .as("snapshot reads after a binlog change")
                .isZero();
        assertThat(check.reads()).isGreaterThan(ROWS / 2);
        assertThat(writers.keyMoves()).isPositive();
        if (rotations != null) {
            assertThat(rotations.count()).as("binlog rotations").isGreaterThan(3);
        }
    }

    private List<String> committed() {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static boolean sameRows(ChangelogCheck check, Map<Long, long[]> table) {
        return sameRows(check, "vt", table);
    }

    /** Whether the output of table {@code name}, applied by key, equals {@code table}'s rows. */
    static boolean sameRows(ChangelogCheck check, String name, Map<Long, long[]> table) {
        Map<Long, ChangelogCheck.Row> out = check.rows(name);
        if (out.size() != table.size()) {
            return false;
        }
        Map<Long, ChangelogCheck.Row> expected = new HashMap<>();
        table.forEach((id, v) -> expected.put(id, new ChangelogCheck.Row(v[0], (int) v[1])));
        return expected.equals(new HashMap<>(out));
    }
}

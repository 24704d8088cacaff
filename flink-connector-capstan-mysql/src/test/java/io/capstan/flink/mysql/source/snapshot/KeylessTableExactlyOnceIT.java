package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table without any key ({@code zl (a, b, n)}, no primary key, no unique index, half its rows in
 * identical pairs) beside a keyed table ({@code vt}), start mode {@code initial} at parallelism 2,
 * writers on both tables throughout the snapshot and the stream (on {@code zl}: inserts of rows
 * that often duplicate others, {@code DELETE ... LIMIT 1} of one of two identical rows, {@code
 * UPDATE ... LIMIT 1} of one of them), 3 failures injected in the snapshot and 2 in the stream. The
 * keyless table is one chunk read at its own G while the keyed table's chunks are read at others,
 * so the binlog starts before that G and the gate must drop exactly the keyless changes the chunk
 * holds. The applied two-phase output of {@code zl}, as a multiset of whole rows, must equal the
 * table (a delete or update of a row the output does not hold is a violation); {@code vt} as in
 * {@link SnapshotHandoffExactlyOnceIT}.
 *
 * <p>A third table, {@code mv}, has a primary key and a configured chunk key column beside it
 * ({@code no}, UNIQUE NOT NULL), which a writer keeps moving to values above all others during the
 * snapshot. Chunked by {@code no}, a moved row would be in a chunk read before the move and in one
 * read after it, shown twice under one primary key; so the table is chunked by its primary key, and
 * its output applied by {@code id} must be exact too.
 */
class KeylessTableExactlyOnceIT {
    private static final Logger LOG = LoggerFactory.getLogger(KeylessTableExactlyOnceIT.class);

    private static final int KEYED_ROWS = 20_000;
    private static final int PAIRS = 2_500;
    private static final int MOVED_ROWS = 5_000;

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    @TempDir Path sinkDir;

    @Test
    void keylessTableSnapshottedAndStreamedExactlyOnceBesideAKeyedOne() throws Exception {
        long started = System.nanoTime();
        DB.execute(
                "DROP TABLE IF EXISTS vt",
                "DROP TABLE IF EXISTS zl",
                "DROP TABLE IF EXISTS mv",
                VersionedWriters.createTable("vt"),
                "CREATE TABLE mv (id BIGINT PRIMARY KEY, seq BIGINT NOT NULL, ver INT NOT NULL,"
                        + " payload VARCHAR(64), no BIGINT NOT NULL, UNIQUE INDEX (no))",
                // 'zl' sorts after 'vt': its one chunk is planned last, read after the binlog's
                // start (the first chunk's G), so the gate filters its changes in between.
                "CREATE TABLE zl (a INT NOT NULL, b VARCHAR(16) NOT NULL, n INT, INDEX (a))");
        VersionedWriters.fill(DB, "vt", KEYED_ROWS);
        DB.execute(
                "INSERT INTO mv SELECT id, seq, ver, payload, id FROM vt WHERE seq <= "
                        + MOVED_ROWS);
        fillPairs();

        long seed = System.nanoTime();
        Random random = new Random(seed);
        TreeSet<Long> readPoints = new TreeSet<>();
        while (readPoints.size() < 3) {
            readPoints.add(1_000L + random.nextInt(KEYED_ROWS));
        }
        TreeSet<Long> changePoints = new TreeSet<>();
        while (changePoints.size() < 2) {
            changePoints.add(300L + random.nextInt(1_500));
        }
        LOG.info(
                "Failure points: snapshot reads {}, binlog changes {} (seed {})",
                readPoints,
                changePoints,
                seed);
        FailInPhases.arm(readPoints, changePoints);

        VersionedWriters writers = new VersionedWriters(DB, "vt", 1, KEYED_ROWS, 1);
        writers.start(seed);
        KeylessWriter keyless = new KeylessWriter(seed);
        keyless.start();
        ChunkKeyMover mover = new ChunkKeyMover(seed);
        mover.start();

        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(DB, StartupOptions.initial())
                        .deserializer(new KeylessLineDeserializer())
                        .chunkSize(1_000)
                        .chunkKeyColumn(DB.name() + ".mv", "no")
                        .build(),
                sinkDir,
                2);
        JobClient job = env.executeAsync("keyless-table-exactly-once");
        try {
            SourceJobs.await(
                    "3 failures in the snapshot and 2 in the stream",
                    Duration.ofMinutes(3),
                    () ->
                            FailInPhases.firedInSnapshot() == 3
                                    && FailInPhases.firedInStream() == 2
                                    && FailInPhases.distinctChanges() > 3_000);
            writers.stop();
            keyless.stop();
            mover.stop();
            LOG.info(
                    "Writers stopped: {} keyed transactions, {} keyless ({} deletes of one of two"
                            + " identical rows)",
                    writers.transactions(),
                    keyless.transactions.get(),
                    keyless.twinDeletes.get());
            Map<Long, long[]> vt = VersionedWriters.read(DB, "vt");
            Map<Long, long[]> mv = VersionedWriters.read(DB, "mv");
            Map<String, Integer> zl = keylessRows();
            try {
                SourceJobs.await(
                        "the output to equal the tables",
                        Duration.ofMinutes(1),
                        () -> {
                            List<String> lines = committed();
                            return SnapshotHandoffExactlyOnceIT.sameRows(
                                            ChangelogCheck.apply(linesOf("vt", lines)), vt)
                                    && SnapshotHandoffExactlyOnceIT.sameRows(
                                            ChangelogCheck.apply(linesOf("mv", lines)), "mv", mv)
                                    && Multiset.apply(lines).rows.equals(zl);
                        });
            } catch (AssertionError timedOut) {
                LOG.warn("The output never equalled the tables; the checks below say why");
            }
            Thread.sleep(1_500); // more checkpoints: a duplicate arriving late would show
        } finally {
            job.cancel().get();
        }
        List<String> lines = committed();
        ChangelogCheck check = ChangelogCheck.apply(linesOf("vt", lines));
        ChangelogCheck moved = ChangelogCheck.apply(linesOf("mv", lines));
        Multiset out = Multiset.apply(lines);
        Map<String, Integer> zl = keylessRows();
        LOG.info(
                "Output: vt {} reads, {} changes; zl {} reads, {} changes, {} rows; took {} s",
                check.reads(),
                check.changes(),
                out.reads,
                out.changes,
                zl.values().stream().mapToInt(Integer::intValue).sum(),
                (System.nanoTime() - started) / 1_000_000_000);
        assertThat(check.violations()).as("vt violations").isEmpty();
        assertThat(SnapshotHandoffExactlyOnceIT.sameRows(check, VersionedWriters.read(DB, "vt")))
                .as("vt: applied output equals the table")
                .isTrue();
        assertThat(moved.violations()).as("mv violations").isEmpty();
        assertThat(
                        SnapshotHandoffExactlyOnceIT.sameRows(
                                moved, "mv", VersionedWriters.read(DB, "mv")))
                .as("mv: applied output equals the table")
                .isTrue();
        assertThat(mover.moves.get()).as("chunk key values moved").isPositive();
        assertThat(out.violations).as("zl violations").isEmpty();
        assertThat(out.rows)
                .as("zl: the output's multiset of rows equals the table's")
                .isEqualTo(zl);
        assertThat(out.reads).as("zl read in the snapshot").isGreaterThanOrEqualTo(PAIRS);
        assertThat(out.changes).as("zl changes streamed").isPositive();
        assertThat(keyless.twinDeletes.get())
                .as("deletes of one of two identical rows")
                .isPositive();
        assertThat(FailInPhases.readsAfterAChange()).isZero();
    }

    /** {@code PAIRS} pairs of identical rows {@code (a, 'twin', 0)}. */
    private static void fillPairs() throws Exception {
        try (Connection c = DB.openRootConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO zl VALUES (?, 'twin', 0)")) {
            c.setAutoCommit(false);
            for (int a = 0; a < PAIRS; a++) {
                ps.setInt(1, a);
                ps.addBatch();
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        }
    }

    /** The table's rows as a multiset of {@code a,b,n} texts. */
    private static Map<String, Integer> keylessRows() throws Exception {
        Map<String, Integer> rows = new TreeMap<>();
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT a, b, n FROM zl")) {
            while (rs.next()) {
                int n = rs.getInt(3);
                String row =
                        rs.getInt(1) + "," + rs.getString(2) + "," + (rs.wasNull() ? "null" : n);
                rows.merge(row, 1, Integer::sum);
            }
        }
        return rows;
    }

    private List<String> committed() {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> linesOf(String table, List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith(table + "|")) {
                out.add(l);
            }
        }
        return out;
    }

    /** The keyless table's lines applied as a multiset of whole rows, strictly. */
    static final class Multiset {
        final Map<String, Integer> rows = new TreeMap<>();
        final List<String> violations = new ArrayList<>();
        long reads;
        long changes;

        static Multiset apply(List<String> lines) {
            Multiset m = new Multiset();
            for (String line : lines) {
                if (!line.startsWith("zl|")) {
                    continue;
                }
                String[] f = line.split("\\|");
                switch (f[1]) {
                    case "r":
                        m.reads++;
                        m.rows.merge(f[2], 1, Integer::sum);
                        break;
                    case "c":
                        m.changes++;
                        m.rows.merge(f[2], 1, Integer::sum);
                        break;
                    case "d":
                        m.changes++;
                        m.remove(f[2], line);
                        break;
                    case "u":
                        m.changes++;
                        m.remove(f[2], line);
                        m.rows.merge(f[3], 1, Integer::sum);
                        break;
                    default:
                        m.violations.add("unknown line " + line);
                }
            }
            return m;
        }

        private void remove(String row, String line) {
            Integer count = rows.get(row);
            if (count == null) {
                violations.add("the output holds no such row: " + line);
            } else if (count == 1) {
                rows.remove(row);
            } else {
                rows.put(row, count - 1);
            }
        }
    }

    /**
     * One writer on {@code zl}, each statement its own transaction: inserts of rows that often
     * equal others, a delete of one of two identical twin rows, an update of one row of an {@code
     * a} (of a twin pair: the pair becomes two different rows), a delete of one row of an {@code
     * a}.
     */
    private static final class KeylessWriter {
        private final Random random;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicLong transactions = new AtomicLong();
        final AtomicLong twinDeletes = new AtomicLong();
        private Thread thread;

        KeylessWriter(long seed) {
            this.random = new Random(seed ^ 0x5eed);
        }

        void start() {
            thread = new Thread(this::run, "keyless-writer");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws Exception {
            stop.set(true);
            thread.join(30_000);
            if (failure.get() != null) {
                throw new AssertionError("keyless writer failed", failure.get());
            }
        }

        private void run() {
            try (Connection c = DB.openRootConnection();
                    PreparedStatement insert =
                            c.prepareStatement("INSERT INTO zl VALUES (?, ?, ?)");
                    PreparedStatement twinDelete =
                            c.prepareStatement(
                                    "DELETE FROM zl WHERE a = ? AND b = 'twin' AND n = 0 LIMIT 1");
                    PreparedStatement update =
                            c.prepareStatement("UPDATE zl SET n = n + 1 WHERE a = ? LIMIT 1");
                    PreparedStatement delete =
                            c.prepareStatement("DELETE FROM zl WHERE a = ? LIMIT 1")) {
                c.setAutoCommit(true);
                while (!stop.get()) {
                    int a = random.nextInt(PAIRS + 500);
                    int op = random.nextInt(10);
                    if (op < 4) {
                        insert.setInt(1, a);
                        insert.setString(2, random.nextBoolean() ? "twin" : "w");
                        insert.setInt(3, random.nextInt(2));
                        insert.executeUpdate();
                    } else if (op < 6) {
                        twinDelete.setInt(1, a);
                        if (twinDelete.executeUpdate() > 0) {
                            twinDeletes.incrementAndGet();
                        }
                    } else if (op < 9) {
                        update.setInt(1, a);
                        update.executeUpdate();
                    } else {
                        delete.setInt(1, a);
                        delete.executeUpdate();
                    }
                    transactions.incrementAndGet();
                    Thread.sleep(1);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }
    }

    /**
     * One writer on {@code mv}: each transaction moves a random row's chunk key column {@code no}
     * above every value so far (and bumps its version), the row's primary key unchanged.
     */
    private static final class ChunkKeyMover {
        private final Random random;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicLong moves = new AtomicLong();
        private Thread thread;

        ChunkKeyMover(long seed) {
            this.random = new Random(seed ^ 0x6d76);
        }

        void start() {
            thread = new Thread(this::run, "chunk-key-mover");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws Exception {
            stop.set(true);
            thread.join(30_000);
            if (failure.get() != null) {
                throw new AssertionError("chunk key mover failed", failure.get());
            }
        }

        private void run() {
            long next = 10L * MOVED_ROWS;
            try (Connection c = DB.openRootConnection();
                    PreparedStatement move =
                            c.prepareStatement(
                                    "UPDATE mv SET no = ?, ver = ver + 1 WHERE id = ?")) {
                c.setAutoCommit(true);
                while (!stop.get()) {
                    move.setLong(1, ++next);
                    move.setLong(2, 2L * (1 + random.nextInt(MOVED_ROWS)));
                    moves.addAndGet(move.executeUpdate());
                    Thread.sleep(2);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }
    }
}

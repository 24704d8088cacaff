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
 *
 * <p>A fourth table, {@code zv}, has the keyless table's shape and no primary key, chunked by
 * ranges of the values of its non-unique NOT NULL column {@code a} (half its rows in pairs of one
 * value, one value in more rows than a chunk): its writer also moves rows between values of {@code
 * a}. Its output, as a multiset of whole rows, must equal the table.
 */
class KeylessTableExactlyOnceIT {
    private static final Logger LOG = LoggerFactory.getLogger(KeylessTableExactlyOnceIT.class);

    private static final int KEYED_ROWS = 20_000;
    private static final int PAIRS = 2_500;
    private static final int MOVED_ROWS = 5_000;
    private static final int CHUNK_SIZE = 1_000;

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
                "DROP TABLE IF EXISTS zv",
                VersionedWriters.createTable("vt"),
                "CREATE TABLE mv (id BIGINT PRIMARY KEY, seq BIGINT NOT NULL, ver INT NOT NULL,"
                        + " payload VARCHAR(64), no BIGINT NOT NULL, UNIQUE INDEX (no))",
                // 'zl' sorts after 'vt': its one chunk is planned last, read after the binlog's
                // start (the first chunk's G), so the gate filters its changes in between.
                "CREATE TABLE zl (a INT NOT NULL, b VARCHAR(16) NOT NULL, n INT, INDEX (a))",
                "CREATE TABLE zv LIKE zl");
        VersionedWriters.fill(DB, "vt", KEYED_ROWS);
        DB.execute(
                "INSERT INTO mv SELECT id, seq, ver, payload, id FROM vt WHERE seq <= "
                        + MOVED_ROWS);
        fillPairs("zl");
        fillPairs("zv");
        // One value with more rows than a chunk: its rows are one chunk, which planning must pass.
        DB.execute("INSERT INTO zv SELECT -1, 'many', 0 FROM zl LIMIT " + (CHUNK_SIZE * 3 / 2));

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
        KeylessWriter keyless = new KeylessWriter("zl", seed);
        keyless.start();
        KeylessWriter valueRanges = new KeylessWriter("zv", seed + 1);
        valueRanges.start();
        ChunkKeyMover mover = new ChunkKeyMover(seed);
        mover.start();

        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(DB, StartupOptions.initial())
                        .deserializer(new KeylessLineDeserializer())
                        .chunkSize(CHUNK_SIZE)
                        .chunkKeyColumn(DB.name() + ".mv", "no")
                        .chunkKeyColumn(DB.name() + ".zv", "a")
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
            valueRanges.stop();
            mover.stop();
            LOG.info(
                    "Writers stopped: {} keyed transactions, {} keyless ({} deletes of one of two"
                            + " identical rows)",
                    writers.transactions(),
                    keyless.transactions.get(),
                    keyless.twinDeletes.get());
            Map<Long, long[]> vt = VersionedWriters.read(DB, "vt");
            Map<Long, long[]> mv = VersionedWriters.read(DB, "mv");
            Map<String, Integer> zl = keylessRows("zl");
            Map<String, Integer> zv = keylessRows("zv");
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
                                    && Multiset.apply("zl", lines).rows.equals(zl)
                                    && Multiset.apply("zv", lines).rows.equals(zv);
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
        Multiset out = Multiset.apply("zl", lines);
        Multiset ranged = Multiset.apply("zv", lines);
        Map<String, Integer> zl = keylessRows("zl");
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
        assertThat(ranged.violations).as("zv violations").isEmpty();
        assertThat(ranged.rows)
                .as("zv: the output's multiset of rows equals the table's")
                .isEqualTo(keylessRows("zv"));
        assertThat(ranged.reads).as("zv read in the snapshot").isGreaterThanOrEqualTo(PAIRS);
        assertThat(valueRanges.moves.get()).as("zv rows moved between values").isPositive();
        assertThat(out.changes).as("zl changes streamed").isPositive();
        assertThat(keyless.twinDeletes.get())
                .as("deletes of one of two identical rows")
                .isPositive();
        assertThat(FailInPhases.readsAfterAChange()).isZero();
    }

    /** {@code PAIRS} pairs of identical rows {@code (a, 'twin', 0)}. */
    private static void fillPairs(String table) throws Exception {
        try (Connection c = DB.openRootConnection();
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO " + table + " VALUES (?, 'twin', 0)")) {
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
    private static Map<String, Integer> keylessRows(String table) throws Exception {
        Map<String, Integer> rows = new TreeMap<>();
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT a, b, n FROM " + table)) {
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

        static Multiset apply(String table, List<String> lines) {
            Multiset m = new Multiset();
            for (String line : lines) {
                if (!line.startsWith(table + "|")) {
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
     * a}, and a move of one row to another {@code a} (on {@code zv}, chunked by ranges of {@code
     * a}, often to a chunk read at another position).
     */
    private static final class KeylessWriter extends Writer {
        private final String table;
        private final Random random;
        final AtomicLong transactions = new AtomicLong();
        final AtomicLong twinDeletes = new AtomicLong();
        final AtomicLong moves = new AtomicLong();

        KeylessWriter(String table, long seed) {
            super("keyless-writer-" + table);
            this.table = table;
            this.random = new Random(seed ^ 0x5eed);
        }

        @Override
        void write(Connection c) throws Exception {
            try (PreparedStatement insert =
                            c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)");
                    PreparedStatement twinDelete =
                            c.prepareStatement(
                                    "DELETE FROM "
                                            + table
                                            + " WHERE a = ? AND b = 'twin' AND n = 0 LIMIT 1");
                    PreparedStatement update =
                            c.prepareStatement(
                                    "UPDATE " + table + " SET n = n + 1 WHERE a = ? LIMIT 1");
                    PreparedStatement move =
                            c.prepareStatement(
                                    "UPDATE " + table + " SET a = ? WHERE a = ? LIMIT 1");
                    PreparedStatement delete =
                            c.prepareStatement("DELETE FROM " + table + " WHERE a = ? LIMIT 1")) {
                while (running()) {
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
                    } else if (op < 8) {
                        update.setInt(1, a);
                        update.executeUpdate();
                    } else if (op < 9) {
                        move.setInt(1, random.nextInt(PAIRS + 500));
                        move.setInt(2, a);
                        moves.addAndGet(move.executeUpdate());
                    } else {
                        delete.setInt(1, a);
                        delete.executeUpdate();
                    }
                    transactions.incrementAndGet();
                    Thread.sleep(1);
                }
            }
        }
    }

    /**
     * One writer on {@code mv}: each transaction moves a random row's chunk key column {@code no}
     * above every value so far (and bumps its version), the row's primary key unchanged.
     */
    private static final class ChunkKeyMover extends Writer {
        private final Random random;
        final AtomicLong moves = new AtomicLong();

        ChunkKeyMover(long seed) {
            super("chunk-key-mover");
            this.random = new Random(seed ^ 0x6d76);
        }

        @Override
        void write(Connection c) throws Exception {
            long next = 10L * MOVED_ROWS;
            try (PreparedStatement move =
                    c.prepareStatement("UPDATE mv SET no = ?, ver = ver + 1 WHERE id = ?")) {
                while (running()) {
                    move.setLong(1, ++next);
                    move.setLong(2, 2L * (1 + random.nextInt(MOVED_ROWS)));
                    moves.addAndGet(move.executeUpdate());
                    Thread.sleep(2);
                }
            }
        }
    }

    /** A writer thread on its own autocommit connection; {@link #stop} reports its failure. */
    private abstract static class Writer {
        private final String name;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;

        Writer(String name) {
            this.name = name;
        }

        /** Writes until {@link #running()} turns false. */
        abstract void write(Connection c) throws Exception;

        boolean running() {
            return !stop.get();
        }

        void start() {
            thread =
                    new Thread(
                            () -> {
                                try (Connection c = DB.openRootConnection()) {
                                    c.setAutoCommit(true);
                                    write(c);
                                } catch (Throwable t) {
                                    failure.set(t);
                                }
                            },
                            name);
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws Exception {
            stop.set(true);
            thread.join(30_000);
            if (failure.get() != null) {
                throw new AssertionError(name + " failed", failure.get());
            }
        }
    }
}

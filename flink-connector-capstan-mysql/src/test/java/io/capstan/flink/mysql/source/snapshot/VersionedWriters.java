package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A versioned table {@code (id BIGINT PRIMARY KEY, seq BIGINT, ver INT, payload)} and writer
 * threads that insert, update (bumping {@code ver}), move keys (new id, bumping {@code ver}) and
 * delete rows all over the key space, in small transactions, until stopped. Initial rows have even
 * ids ({@code id = 2 * seq}); writer {@code w} of {@code n} creates odd ids whose {@code (id - 1) /
 * 2 % n == w}, so writers never touch each other's rows and keys move both forward and backward
 * across chunks.
 *
 * <p>With {@link #pairedKeys}, for a table whose key makes ids {@code 2s} and {@code 2s + 1} two
 * spellings of one key under its collation (e.g. {@code 'abc'} and {@code 'ABC'}), the writers also
 * turn a row into its twin ({@code id ^ 1}): half the time by an UPDATE of the id (same key,
 * different bytes), half by a DELETE and an INSERT of a new row in the same transaction. Their
 * fresh ids then lie above the initial range, so a fresh row never meets an existing row's twin.
 */
public final class VersionedWriters {

    public static String createTable(String table) {
        return "CREATE TABLE "
                + table
                + " (id BIGINT PRIMARY KEY, seq BIGINT NOT NULL,"
                + " ver INT NOT NULL, payload VARCHAR(64))";
    }

    /**
     * The same rows with a string primary key (utf8mb4_bin) made from the id: its digits reversed,
     * then a space or a tab, then a non-ASCII letter. So the snapshot chunks by a string key whose
     * order has nothing to do with the ids, and an id change (a key move) moves the row in it.
     */
    public static String createTableWithStringKey(String table) {
        return "CREATE TABLE "
                + table
                + " (id BIGINT NOT NULL UNIQUE, seq BIGINT NOT NULL,"
                + " ver INT NOT NULL, payload VARCHAR(64), k VARCHAR(40) CHARACTER SET utf8mb4"
                + " COLLATE utf8mb4_bin AS (CONCAT(REVERSE(CAST(id AS CHAR)), IF(id % 2 = 0, ' ', '\\t'),"
                + " 'é')) STORED NOT NULL PRIMARY KEY)";
    }

    private static final String COLUMNS = " (id, seq, ver, payload)";

    /** Inserts rows seq = 1..count (id = 2 * seq, ver = 1) in transactions of 5,000. */
    public static void fill(MySqlTestDatabase db, String table, int count) throws SQLException {
        fill(db, table, count, 2);
    }

    /** Inserts rows seq = 1..count (id = stride * seq, ver = 1) in transactions of 5,000. */
    public static void fill(MySqlTestDatabase db, String table, int count, int stride)
            throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement s = c.createStatement()) {
            for (int lo = 1; lo <= count; lo += 5_000) {
                StringBuilder sql =
                        new StringBuilder("INSERT INTO " + table + COLUMNS + " VALUES ");
                for (int i = lo; i < lo + 5_000 && i <= count; i++) {
                    sql.append(i == lo ? "" : ",")
                            .append('(')
                            .append((long) stride * i)
                            .append(',')
                            .append(i)
                            .append(",1,'payload-")
                            .append(i)
                            .append("')");
                }
                s.executeUpdate(sql.toString());
            }
            s.execute("ANALYZE TABLE " + table);
        }
    }

    /** id → {seq, ver} of the table now. */
    public static Map<Long, long[]> read(MySqlTestDatabase db, String table) throws SQLException {
        Map<Long, long[]> rows = new HashMap<>();
        try (Connection c = db.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, seq, ver FROM " + table)) {
            while (rs.next()) {
                rows.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getInt(3)});
            }
        }
        return rows;
    }

    private final MySqlTestDatabase db;
    private final String table;
    private final int writers;
    private final int initialRows;
    private final long pauseMillis;
    private boolean updatesOnly;
    private int stride = 2;
    private BooleanSupplier twinWindow; // non-null: paired keys, twin moves counted in it
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong keyMoves = new AtomicLong();
    private final AtomicLong twinMoves = new AtomicLong();
    private final AtomicLong twinMovesInWindow = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    public VersionedWriters(
            MySqlTestDatabase db, String table, int writers, int initialRows, long pauseMillis) {
        this.db = db;
        this.table = table;
        this.writers = writers;
        this.initialRows = initialRows;
        this.pauseMillis = pauseMillis;
    }

    /** Only version bumps of the initial rows (id = stride * seq): the key set never changes. */
    public VersionedWriters updatesOnly(int idStride) {
        this.updatesOnly = true;
        this.stride = idStride;
        return this;
    }

    /**
     * Paired keys (see the class comment): adds twin moves, and fresh ids above the initial range.
     * A transaction's twin moves also count in {@link #twinMovesInWindow()} when {@code window}
     * held both before the transaction began and after it committed.
     */
    public VersionedWriters pairedKeys(BooleanSupplier window) {
        this.twinWindow = window;
        return this;
    }

    public void start(long seed) {
        for (int w = 0; w < writers; w++) {
            int id = w;
            Thread t = new Thread(() -> run(id, new Random(seed + id)), "versioned-writer-" + w);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    public long transactions() {
        return transactions.get();
    }

    public long keyMoves() {
        return keyMoves.get();
    }

    /** Rows turned into their twin spelling (UPDATE of the id, or DELETE plus INSERT). */
    public long twinMoves() {
        return twinMoves.get();
    }

    public long twinMovesInWindow() {
        return twinMovesInWindow.get();
    }

    /** Stops the writers and rethrows the first writer failure. */
    public void stop() throws Exception {
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
        }
        if (failure.get() != null) {
            throw new AssertionError("writer failed", failure.get());
        }
    }

    private void run(int w, Random random) {
        // This writer's rows: the initial rows with seq % writers == w, then its own.
        List<long[]> mine = new ArrayList<>(); // {id, seq, ver}
        for (long seq = 1; seq <= initialRows; seq++) {
            if (seq % writers == w) {
                mine.add(new long[] {(long) stride * seq, seq, 1});
            }
        }
        java.util.Set<Long> usedIds = new java.util.HashSet<>();
        long nextSeq = 10_000_000L * (w + 1);
        try (Connection c = db.openRootConnection()) {
            c.setAutoCommit(false);
            PreparedStatement insert =
                    c.prepareStatement("INSERT INTO " + table + COLUMNS + " VALUES (?, ?, 1, 'w')");
            PreparedStatement update =
                    c.prepareStatement(
                            "UPDATE " + table + " SET ver = ver + 1, payload = 'u' WHERE id = ?");
            PreparedStatement move =
                    c.prepareStatement(
                            "UPDATE " + table + " SET id = ?, ver = ver + 1 WHERE id = ?");
            PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE id = ?");
            while (!stop.get()) {
                boolean inWindowBefore = twinWindow != null && twinWindow.getAsBoolean();
                int twins = 0;
                int ops = 1 + random.nextInt(3);
                for (int i = 0; i < ops; i++) {
                    int dice = updatesOnly ? 4 : random.nextInt(twinWindow != null ? 13 : 10);
                    if (mine.isEmpty() || dice < 2) {
                        long id = freshId(w, random, usedIds);
                        insert.setLong(1, id);
                        insert.setLong(2, nextSeq);
                        insert.executeUpdate();
                        mine.add(new long[] {id, nextSeq++, 1});
                    } else if (dice >= 10) { // only with paired keys
                        int index = random.nextInt(mine.size());
                        long[] r = mine.get(index);
                        long twin = r[0] ^ 1;
                        if (random.nextBoolean()) {
                            move.setLong(1, twin);
                            move.setLong(2, r[0]);
                            move.executeUpdate();
                            r[0] = twin;
                            r[2]++;
                        } else {
                            delete.setLong(1, r[0]);
                            delete.executeUpdate();
                            insert.setLong(1, twin);
                            insert.setLong(2, nextSeq);
                            insert.executeUpdate();
                            mine.set(index, new long[] {twin, nextSeq++, 1});
                        }
                        twins++;
                    } else if (dice < 6) {
                        long[] r = mine.get(random.nextInt(mine.size()));
                        update.setLong(1, r[0]);
                        update.executeUpdate();
                        r[2]++;
                    } else if (dice < 8) {
                        long[] r = mine.get(random.nextInt(mine.size()));
                        long id = freshId(w, random, usedIds);
                        move.setLong(1, id);
                        move.setLong(2, r[0]);
                        move.executeUpdate();
                        r[0] = id;
                        r[2]++;
                        keyMoves.incrementAndGet();
                    } else {
                        int index = random.nextInt(mine.size());
                        long[] r = mine.get(index);
                        delete.setLong(1, r[0]);
                        delete.executeUpdate();
                        mine.set(index, mine.get(mine.size() - 1));
                        mine.remove(mine.size() - 1);
                    }
                }
                c.commit();
                transactions.incrementAndGet();
                if (twins > 0) {
                    twinMoves.addAndGet(twins);
                    if (inWindowBefore && twinWindow.getAsBoolean()) {
                        twinMovesInWindow.addAndGet(twins);
                    }
                }
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    /**
     * An odd id of this writer, anywhere in the initial key space or just above it, unused; with
     * paired keys above the initial pairs {@code (2s, 2s + 1)}, s = 1..initialRows.
     */
    private long freshId(int w, Random random, java.util.Set<Long> used) {
        long base = twinWindow != null ? initialRows + 1 : 0;
        while (true) {
            long k = base + (long) random.nextInt(initialRows + initialRows / 10) * writers + w;
            long id = 2 * k + 1;
            if (used.add(id)) {
                return id;
            }
        }
    }
}

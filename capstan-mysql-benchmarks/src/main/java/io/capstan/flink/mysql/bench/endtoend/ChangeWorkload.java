package io.capstan.flink.mysql.bench.endtoend;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The row changes every binlog reader decodes: transactions of exactly 100 row changes (40 inserts
 * of new keys above the loaded range, 40 updates of consecutive existing keys in the lower half, 20
 * deletes of keys taken from the top of the loaded range), committed over parallel connections.
 * Each statement's affected-row count is checked, so the expected totals are exact.
 */
final class ChangeWorkload {

    static final int ROWS_PER_TRANSACTION = 100;
    static final int INSERTS = 40;
    static final int UPDATES = 40;
    static final int DELETES = 20;

    /** What was committed. */
    static final class Totals {
        final long inserts;
        final long updates;
        final long deletes;
        final long nanos;

        Totals(long inserts, long updates, long deletes, long nanos) {
            this.inserts = inserts;
            this.updates = updates;
            this.deletes = deletes;
            this.nanos = nanos;
        }

        long rowChanges() {
            return inserts + updates + deletes;
        }

        /** Records a RowData deserializer emits: an update is UPDATE_BEFORE + UPDATE_AFTER. */
        long rowDataRecords() {
            return inserts + 2 * updates + deletes;
        }
    }

    private ChangeWorkload() {}

    static Totals run(
            BenchServer server, BenchTable table, long loadedRows, long changes, int writers)
            throws Exception {
        long transactions = changes / ROWS_PER_TRANSACTION;
        AtomicLong nextTx = new AtomicLong();
        AtomicLong nextInsert = new AtomicLong(loadedRows + 1);
        AtomicLong nextDeleteTop = new AtomicLong(loadedRows);
        long updateSpan = loadedRows / 2 - UPDATES;
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                final int seed = w;
                done.add(
                        pool.submit(
                                () -> {
                                    SplittableRandom random = new SplittableRandom(seed);
                                    try (Connection c = server.openAdmin();
                                            Statement st = c.createStatement()) {
                                        c.setAutoCommit(false);
                                        while (nextTx.getAndIncrement() < transactions) {
                                            long insertFrom = nextInsert.getAndAdd(INSERTS);
                                            long deleteTop = nextDeleteTop.getAndAdd(-DELETES);
                                            long updateFrom = 1 + random.nextLong(updateSpan);
                                            commitWithRetry(
                                                    c,
                                                    st,
                                                    table,
                                                    insertFrom,
                                                    updateFrom,
                                                    deleteTop);
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long nanos = System.nanoTime() - start;
        return new Totals(
                transactions * INSERTS, transactions * UPDATES, transactions * DELETES, nanos);
    }

    private static void commitWithRetry(
            Connection c,
            Statement st,
            BenchTable table,
            long insertFrom,
            long updateFrom,
            long deleteTop)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                StringBuilder insert = new StringBuilder(INSERTS * 450);
                insert.append("INSERT INTO ")
                        .append(table.qualified())
                        .append(" (")
                        .append(BenchTable.COLUMN_LIST)
                        .append(") VALUES ");
                for (int i = 0; i < INSERTS; i++) {
                    if (i > 0) {
                        insert.append(',');
                    }
                    table.appendRow(insert, insertFrom + i);
                }
                expect(st.executeUpdate(insert.toString()), INSERTS, "insert");
                expect(
                        st.executeUpdate(
                                "UPDATE "
                                        + table.qualified()
                                        + " SET qty = qty + 1, amount = amount + 0.01, updated_at = NOW(3), score = score * 1.01"
                                        + " WHERE "
                                        + table.rowsBetween(updateFrom, updateFrom + UPDATES - 1)),
                        UPDATES,
                        "update");
                expect(
                        st.executeUpdate(
                                "DELETE FROM "
                                        + table.qualified()
                                        + " WHERE "
                                        + table.rowsBetween(deleteTop - DELETES + 1, deleteTop)),
                        DELETES,
                        "delete");
                c.commit();
                return;
            } catch (SQLException e) {
                c.rollback();
                // 1213 deadlock, 1205 lock wait timeout: the transaction is rolled back, run it
                // again.
                if ((e.getErrorCode() != 1213 && e.getErrorCode() != 1205) || attempt >= 10) {
                    throw e;
                }
            }
        }
    }

    private static void expect(int actual, int expected, String what) {
        if (actual != expected) {
            throw new IllegalStateException(
                    "a change transaction's "
                            + what
                            + " changed "
                            + actual
                            + " rows instead of "
                            + expected
                            + ": the key ranges overlap");
        }
    }
}

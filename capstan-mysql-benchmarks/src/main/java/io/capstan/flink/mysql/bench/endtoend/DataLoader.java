package io.capstan.flink.mysql.bench.endtoend;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fills the table with rows 1..rows (or a range of row numbers): multi-row INSERTs of 1,000 rows
 * over a few parallel connections.
 */
final class DataLoader {

    private static final int ROWS_PER_INSERT = 1000;

    private DataLoader() {}

    /** Returns the load's duration in nanoseconds. */
    static long load(BenchServer server, BenchTable table, long rows, int writers)
            throws Exception {
        return load(server, table, 1, rows, writers);
    }

    /** Inserts rows {@code first..last}; returns the load's duration in nanoseconds. */
    static long load(BenchServer server, BenchTable table, long first, long last, int writers)
            throws Exception {
        AtomicLong nextBatch = new AtomicLong();
        long rows = last - first + 1;
        long batches = (rows + ROWS_PER_INSERT - 1) / ROWS_PER_INSERT;
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                done.add(
                        pool.submit(
                                () -> {
                                    try (Connection c = server.openAdmin();
                                            Statement st = c.createStatement()) {
                                        StringBuilder sql =
                                                new StringBuilder(ROWS_PER_INSERT * 450);
                                        long b;
                                        while ((b = nextBatch.getAndIncrement()) < batches) {
                                            sql.setLength(0);
                                            sql.append("INSERT INTO ")
                                                    .append(table.qualified())
                                                    .append(" (")
                                                    .append(BenchTable.COLUMN_LIST)
                                                    .append(") VALUES ");
                                            long from = first + b * ROWS_PER_INSERT;
                                            long to = Math.min(last, from + ROWS_PER_INSERT - 1);
                                            for (long id = from; id <= to; id++) {
                                                if (id > from) {
                                                    sql.append(',');
                                                }
                                                table.appendRow(sql, id);
                                            }
                                            st.executeUpdate(sql.toString());
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
        return System.nanoTime() - start;
    }

    static void checkCount(BenchServer server, BenchTable table, long expected) {
        long actual = Long.parseLong(server.query("SELECT COUNT(*) FROM " + table.qualified()));
        if (actual != expected) {
            throw new IllegalStateException(
                    "the table holds " + actual + " rows, expected " + expected);
        }
    }
}

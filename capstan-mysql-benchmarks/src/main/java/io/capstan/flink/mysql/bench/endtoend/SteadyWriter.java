package io.capstan.flink.mysql.bench.endtoend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A writer committing one-row UPDATE transactions on the table at a steady rate, on its own thread,
 * recording each transaction's latency (statement + COMMIT) into the current window. The benchmark
 * opens a baseline window (no snapshot running) and then a window during the snapshot; the
 * difference of their p99 is the extra latency the snapshot's brief locks cost writers. It updates
 * keys of the lower half of the loaded range, which the change workload never deletes, so the
 * table's row count does not change.
 */
final class SteadyWriter implements AutoCloseable {

    private final Thread thread;
    private final Connection connection;
    private final long keySpan;
    private final long intervalNanos;
    private volatile boolean stopped;
    private volatile Window window;

    /** Latencies recorded while this window was open. */
    static final class Window {
        private long[] micros = new long[1024];
        private int n;

        synchronized void add(long v) {
            if (n == micros.length) {
                micros = Arrays.copyOf(micros, n * 2);
            }
            micros[n++] = v;
        }

        synchronized long[] sorted() {
            long[] s = Arrays.copyOf(micros, n);
            Arrays.sort(s);
            return s;
        }
    }

    SteadyWriter(BenchServer server, BenchTable table, long loadedRows, int transactionsPerSecond)
            throws Exception {
        this.connection = server.openAdmin();
        this.keySpan = loadedRows / 2;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / transactionsPerSecond;
        connection.setAutoCommit(false);
        PreparedStatement update =
                connection.prepareStatement(
                        "UPDATE " + table.qualified() + " SET qty = qty + 1 WHERE id = ?");
        thread = new Thread(() -> loop(update), "bench-steady-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts recording into a fresh window and returns it. */
    Window open() {
        Window w = new Window();
        window = w;
        return w;
    }

    private void loop(PreparedStatement update) {
        SplittableRandom random = new SplittableRandom(42);
        long next = System.nanoTime();
        try {
            while (!stopped) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                next += intervalNanos;
                long start = System.nanoTime();
                update.setLong(1, 1 + random.nextLong(keySpan));
                update.executeUpdate();
                connection.commit();
                Window w = window;
                if (w != null) {
                    w.add((System.nanoTime() - start) / 1000);
                }
                if (System.nanoTime() - next > TimeUnit.SECONDS.toNanos(1)) {
                    next = System.nanoTime(); // blocked for long: do not burst to catch up
                }
            }
        } catch (InterruptedException e) {
            // stopping
        } catch (Exception e) {
            if (!stopped) {
                EndToEndBenchmark.log(
                        "steady writer failed: "
                                + e.getClass().getSimpleName()
                                + " "
                                + e.getMessage());
            }
        }
    }

    @Override
    public void close() throws Exception {
        stopped = true;
        thread.interrupt();
        thread.join(10_000);
        connection.close();
    }
}

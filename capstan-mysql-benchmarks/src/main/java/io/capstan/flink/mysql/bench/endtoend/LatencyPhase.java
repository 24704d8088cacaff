package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.JobID;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Commit-to-emit latency under a steady write load: the source job streams from {@code latest}; a
 * writer commits transactions of {@link #ROWS_PER_TRANSACTION} inserts into the probe table at the
 * configured rate, noting the time just before each COMMIT; the sink notes when each probe row
 * arrives. Latency = arrival − COMMIT call, so it includes the commit itself. Writer, MySQL and the
 * MiniCluster share the machine (and the writer and Flink share this JVM).
 */
final class LatencyPhase {

    static final int ROWS_PER_TRANSACTION = 10;
    private static final long PROBE_BASE = 1_000_000_000_000L;

    /** Percentiles in microseconds over the probe rows; {@code missing} rows never arrived. */
    static final class Result {
        final long p50Micros;
        final long p99Micros;
        final long maxMicros;
        final long rows;
        final long missing;
        final double achievedRate;
        final long heapAfterGcMax;
        final long heapPeak;
        final long commitP99Micros;

        Result(
                long commitP99Micros,
                long p50Micros,
                long p99Micros,
                long maxMicros,
                long rows,
                long missing,
                double achievedRate,
                long heapAfterGcMax,
                long heapPeak) {
            this.heapPeak = heapPeak;
            this.commitP99Micros = commitP99Micros;
            this.p50Micros = p50Micros;
            this.p99Micros = p99Micros;
            this.maxMicros = maxMicros;
            this.rows = rows;
            this.missing = missing;
            this.achievedRate = achievedRate;
            this.heapAfterGcMax = heapAfterGcMax;
        }
    }

    private static long nextProbeRound;

    private LatencyPhase() {}

    static Result run(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable probe,
            TableSchema schema,
            int rate,
            int seconds)
            throws Exception {
        int transactions = Math.max(1, rate * seconds / ROWS_PER_TRANSACTION);
        int rows = transactions * ROWS_PER_TRANSACTION;
        long base = PROBE_BASE + (nextProbeRound++) * 100_000_000L;
        long[] commitNanos = new long[transactions];
        long[] commitMicros = new long[transactions];
        ProbeSink.reset();
        ProbeSink.expectProbes(base, rows);
        try (HeapWatch heap = HeapWatch.start();
                Connection c = server.openAdmin();
                Statement st = c.createStatement()) {
            JobID job = jobs.submit(server.reader(), probe, schema, StartupOptions.latest(), 1);
            try {
                // Warm-up: until a row written now arrives, the source may not be streaming yet.
                long warm = base - 1;
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (ProbeSink.RECORDS.get() == 0) {
                    jobs.requireRunning(job);
                    st.executeUpdate(insert(probe, warm--, 1));
                    Thread.sleep(200);
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "no warm-up row reached the sink within 2 minutes");
                    }
                }
                c.setAutoCommit(false);
                long intervalNanos = TimeUnit.SECONDS.toNanos(1) * ROWS_PER_TRANSACTION / rate;
                long start = System.nanoTime();
                for (int t = 0; t < transactions; t++) {
                    long due = start + t * intervalNanos;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    st.executeUpdate(
                            insert(
                                    probe,
                                    base + (long) t * ROWS_PER_TRANSACTION,
                                    ROWS_PER_TRANSACTION));
                    commitNanos[t] = System.nanoTime();
                    c.commit();
                    commitMicros[t] = (System.nanoTime() - commitNanos[t]) / 1000;
                }
                double achieved = rows * 1e9 / (System.nanoTime() - start);
                long[] arrivals = ProbeSink.probeArrivalNanos;
                long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!allArrived(arrivals) && System.nanoTime() < waitUntil) {
                    Thread.sleep(20); // rows still missing after this are reported as missing
                }
                long[] latencies = new long[rows];
                long missing = 0;
                int n = 0;
                for (int i = 0; i < rows; i++) {
                    if (arrivals[i] == 0) {
                        missing++;
                    } else {
                        latencies[n++] =
                                (arrivals[i] - commitNanos[i / ROWS_PER_TRANSACTION]) / 1000;
                    }
                }
                long[] sorted = Arrays.copyOf(latencies, n);
                Arrays.sort(sorted);
                Arrays.sort(commitMicros);
                return new Result(
                        percentile(commitMicros, 0.99),
                        percentile(sorted, 0.50),
                        percentile(sorted, 0.99),
                        n == 0 ? 0 : sorted[n - 1],
                        rows,
                        missing,
                        achieved,
                        heap.maxUsedAfterGc(),
                        HeapWatch.peakUsed());
            } finally {
                jobs.cancel(job);
            }
        }
    }

    private static boolean allArrived(long[] arrivals) {
        for (long a : arrivals) {
            if (a == 0) {
                return false;
            }
        }
        return true;
    }

    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static String insert(BenchTable table, long firstId, int count) {
        StringBuilder sql = new StringBuilder(count * 450);
        sql.append("INSERT INTO ")
                .append(table.qualified())
                .append(" (")
                .append(BenchTable.COLUMN_LIST)
                .append(") VALUES ");
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                sql.append(',');
            }
            table.appendRow(sql, firstId + i);
        }
        return sql.toString();
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;

import java.util.concurrent.TimeUnit;

/**
 * The snapshot through the whole Flink source: a bounded MiniCluster job ({@code
 * StartupOptions.snapshot()}) at parallelism 1 or 2 reads every row of the table into the
 * discarding {@link ProbeSink}, without a row rate limit or with {@code
 * scan.snapshot.max-rows-per-second} set for the whole job. Timed from the job running (so table
 * discovery, preflight and chunk planning are included) to the last row at the sink.
 */
final class FlinkSnapshotPhase {

    private static final long TIMEOUT_MINUTES = 30;

    private FlinkSnapshotPhase() {}

    static PhaseResult run(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            long expectedRows,
            int parallelism)
            throws Exception {
        return run(jobs, server, table, schema, expectedRows, parallelism, 0);
    }

    /**
     * The same with {@code scan.snapshot.max-rows-per-second} = {@code maxRowsPerSecond} (0: none).
     */
    static PhaseResult run(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            long expectedRows,
            int parallelism,
            long maxRowsPerSecond)
            throws Exception {
        ProbeSink.reset();
        try (HeapWatch heap = HeapWatch.start()) {
            JobID job =
                    jobs.submit(
                            server.reader(),
                            table,
                            schema,
                            StartupOptions.snapshot(),
                            parallelism,
                            maxRowsPerSecond);
            long start = System.nanoTime();
            try {
                long deadline = start + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
                while (ProbeSink.RECORDS.get() < expectedRows) {
                    if (jobs.status(job) != JobStatus.FINISHED) {
                        jobs.requireRunning(job);
                    } else if (ProbeSink.RECORDS.get() < expectedRows) {
                        throw new IllegalStateException(
                                "the snapshot job finished after "
                                        + ProbeSink.RECORDS.get()
                                        + " of "
                                        + expectedRows
                                        + " rows");
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the snapshot delivered "
                                        + ProbeSink.RECORDS.get()
                                        + " of "
                                        + expectedRows
                                        + " rows within "
                                        + TIMEOUT_MINUTES
                                        + " minutes");
                    }
                    Thread.sleep(5);
                }
                long nanos = ProbeSink.lastNanos - start;
                EndToEndBenchmark.log(
                        String.format(
                                java.util.Locale.ROOT,
                                "  p%d%s: first row %.0f ms after the job ran, rows then at %,.0f rows/s",
                                parallelism,
                                maxRowsPerSecond > 0
                                        ? String.format(
                                                java.util.Locale.ROOT,
                                                " limited to %,d rows/s",
                                                maxRowsPerSecond)
                                        : "",
                                (ProbeSink.firstNanos - start) / 1e6,
                                (expectedRows - 1)
                                        * 1e9
                                        / Math.max(1, ProbeSink.lastNanos - ProbeSink.firstNanos)));
                return new PhaseResult(
                        expectedRows, nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
            } finally {
                if (!jobs.status(job).isGloballyTerminalState()) {
                    jobs.cancel(job);
                }
            }
        }
    }
}

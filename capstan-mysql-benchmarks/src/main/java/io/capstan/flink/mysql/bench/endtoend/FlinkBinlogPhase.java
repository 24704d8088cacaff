package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.JobID;

import java.util.concurrent.TimeUnit;

/**
 * The binlog through the whole Flink source: a MiniCluster job (parallelism 1, checkpoints every 2
 * s) streams the change workload from the binlog file and position before it ({@link BinlogStart}:
 * on a server with GTIDs the source translates it into the GTID set before it), with the RowData
 * deserializer, into the discarding {@link ProbeSink}. Timed from the first to the last record at
 * the sink; the rate is reported in row changes per second (an UPDATE is one change, two RowData
 * records).
 */
final class FlinkBinlogPhase {

    private static final long TIMEOUT_MINUTES = 30;

    /** The throughput and the size of the checkpoint taken after the last record. */
    static final class Result {
        final PhaseResult throughput;
        final FlinkJobs.CheckpointSize checkpoint;

        Result(PhaseResult throughput, FlinkJobs.CheckpointSize checkpoint) {
            this.throughput = throughput;
            this.checkpoint = checkpoint;
        }
    }

    private FlinkBinlogPhase() {}

    static Result run(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            BinlogStart before,
            ChangeWorkload.Totals totals)
            throws Exception {
        return run(
                jobs,
                server,
                table,
                schema,
                before,
                totals.rowDataRecords(),
                totals.rowChanges(),
                true);
    }

    /**
     * Streams {@code changes} row changes ({@code records} RowData records) from {@code before}.
     */
    static PhaseResult stream(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            BinlogStart before,
            long records,
            long changes)
            throws Exception {
        return run(jobs, server, table, schema, before, records, changes, false).throughput;
    }

    private static Result run(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            BinlogStart before,
            long expected,
            long changes,
            boolean checkpointSize)
            throws Exception {
        ProbeSink.reset();
        try (HeapWatch heap = HeapWatch.start()) {
            JobID job = jobs.submit(server.reader(), table, schema, before.startupOptions(), 1);
            try {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
                while (ProbeSink.RECORDS.get() < expected) {
                    jobs.requireRunning(job);
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the source delivered "
                                        + ProbeSink.RECORDS.get()
                                        + " of "
                                        + expected
                                        + " records within "
                                        + TIMEOUT_MINUTES
                                        + " minutes");
                    }
                    Thread.sleep(5);
                }
                long nanos = ProbeSink.lastNanos - ProbeSink.firstNanos;
                PhaseResult throughput =
                        new PhaseResult(
                                changes, nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
                FlinkJobs.CheckpointSize checkpoint =
                        checkpointSize ? jobs.nextCheckpointSize(job) : null;
                // More may arrive: the snapshot phase's steady writer commits after the changes.
                return new Result(throughput, checkpoint);
            } finally {
                jobs.cancel(job);
            }
        }
    }
}

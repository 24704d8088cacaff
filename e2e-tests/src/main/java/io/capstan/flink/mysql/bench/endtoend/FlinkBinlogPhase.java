package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.schema.TableSchema;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;

/**
 * The binlog through the whole Flink source: a MiniCluster job (parallelism 1, checkpoints every
 * 2 s) streams the change workload from the GTID set before it, with the RowData deserializer, into
 * the discarding {@link ProbeSink}. Timed from the first to the last record at the sink; the rate
 * is reported in row changes per second (an UPDATE is one change, two RowData records).
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

    static Result run(FlinkJobs jobs, BenchServer server, BenchTable table, TableSchema schema, String gtidBefore,
            ChangeWorkload.Totals totals) throws Exception {
        ProbeSink.reset();
        long expected = totals.rowDataRecords();
        try (HeapWatch heap = HeapWatch.start()) {
            JobID job = jobs.submit(server.reader(), table, schema, StartupOptions.gtidSet(gtidBefore), 1);
            try {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
                while (ProbeSink.RECORDS.get() < expected) {
                    jobs.requireRunning(job);
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the source delivered " + ProbeSink.RECORDS.get() + " of "
                                + expected + " records within " + TIMEOUT_MINUTES + " minutes");
                    }
                    Thread.sleep(5);
                }
                long nanos = ProbeSink.lastNanos - ProbeSink.firstNanos;
                PhaseResult throughput = new PhaseResult(
                        totals.rowChanges(), nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
                FlinkJobs.CheckpointSize checkpoint = jobs.nextCheckpointSize(job);
                // More may arrive: the snapshot phase's steady writer commits after the changes.
                return new Result(throughput, checkpoint);
            } finally {
                jobs.cancel(job);
            }
        }
    }
}

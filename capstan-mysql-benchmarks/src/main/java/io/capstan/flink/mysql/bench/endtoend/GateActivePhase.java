package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.JobID;
import org.apache.flink.table.data.StringData;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The binary log through the whole Flink source while the table's cursor gate is active: an {@code
 * initial()} job (parallelism 1) is held at the sink a few chunks before the snapshot's end, the
 * change workload is committed meanwhile, and the snapshot is released. The first chunks were read
 * before the changes and the last ones after, so the binary log starts before every change and the
 * gate stays active over all of them: each change is weighed by the server (for a collated string
 * key) and gated, then forwarded or suppressed. Timed from the first to the last update or delete
 * at the sink (only the binary log emits those); a marker row committed after the stream began
 * tells when it has all arrived.
 */
final class GateActivePhase {

    private static final long TIMEOUT_MINUTES = 30;

    /**
     * The rate over every change the gate handled, what the round committed, and how many of its
     * RowData records the gate forwarded.
     */
    static final class Result {
        final PhaseResult throughput;
        final ChangeWorkload.Totals totals;
        final BinlogStart before;
        final long forwarded;

        Result(
                PhaseResult throughput,
                ChangeWorkload.Totals totals,
                BinlogStart before,
                long forwarded) {
            this.throughput = throughput;
            this.totals = totals;
            this.before = before;
            this.forwarded = forwarded;
        }
    }

    private GateActivePhase() {}

    /**
     * Commits {@code changes} row changes to {@code table} (rows 1..{@code tableRows}) under an
     * active gate and inserts row {@code markerRow} after them; the caller undoes both.
     */
    static Result run(
            FlinkJobs jobs,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            long tableRows,
            BenchOptions o,
            long markerRow)
            throws Exception {
        ProbeSink.reset();
        // The reader holds at most two chunks: stopping here leaves the last one or two chunks to
        // be read after the changes, so those changes' keys are mostly in chunks read before.
        long holdAt = Math.max(0, tableRows - 3L * o.chunkSize);
        ProbeSink.holdAt(holdAt);
        try (HeapWatch heap = HeapWatch.start()) {
            BinlogStart before = BinlogStart.read(server);
            JobID job = jobs.submit(server.reader(), table, schema, StartupOptions.initial(), 1);
            try {
                await(jobs, job, () -> ProbeSink.holding.getCount() == 0, "the held snapshot");
                ChangeWorkload.Totals totals =
                        ChangeWorkload.run(server, table, tableRows, o.changes, o.writers);
                ProbeSink.release();
                await(jobs, job, () -> ProbeSink.NON_INSERTS.get() > 0, "the binary log");
                ProbeSink.markerKey = StringData.fromString(BenchTable.uuid(markerRow));
                StringBuilder marker =
                        new StringBuilder("INSERT INTO ")
                                .append(table.qualified())
                                .append(" (")
                                .append(BenchTable.COLUMN_LIST)
                                .append(") VALUES ");
                table.appendRow(marker, markerRow);
                server.execute(marker.toString());
                await(jobs, job, () -> ProbeSink.markerNanos != 0, "the marker row");
                long nanos = ProbeSink.lastNonInsertNanos - ProbeSink.firstNonInsertNanos;
                long forwarded = ProbeSink.recordsAtMarker - ProbeSink.recordsAtFirstNonInsert;
                EndToEndBenchmark.log(
                        String.format(
                                Locale.ROOT,
                                "  gate active: snapshot held at row %,d; %,d of %,d RowData records"
                                        + " of the changes forwarded (the rest suppressed by the"
                                        + " gate: already in chunks read after them)",
                                holdAt,
                                forwarded,
                                totals.rowDataRecords()));
                return new Result(
                        new PhaseResult(
                                totals.rowChanges(),
                                nanos,
                                heap.maxUsedAfterGc(),
                                HeapWatch.peakUsed()),
                        totals,
                        before,
                        forwarded);
            } finally {
                ProbeSink.release(); // never leave the task thread held
                jobs.cancel(job);
            }
        }
    }

    private static void await(FlinkJobs jobs, JobID job, BooleanSupplier done, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        while (!done.getAsBoolean()) {
            jobs.requireRunning(job);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "waited " + TIMEOUT_MINUTES + " minutes for " + what);
            }
            Thread.sleep(2);
        }
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.TableSchema;

import java.util.Locale;

import static io.capstan.flink.mysql.bench.endtoend.EndToEndBenchmark.log;
import static io.capstan.flink.mysql.bench.endtoend.EndToEndBenchmark.record;

/**
 * The snapshot lines of one round: chunk reading at 1 and 2 threads and the Flink source's snapshot
 * at parallelism 1 and 2, while a steady writer updates the same table; the writer's commit latency
 * before (baseline), during a lock-free scan (control) and during the reading gives the stall
 * lines, and a replica of the chunk reader's locked statements gives the lock-window lines.
 */
final class SnapshotStallPhase {

    private SnapshotStallPhase() {}

    static void run(
            BenchOptions o,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            long tableRows,
            ResultTable results,
            FlinkJobs jobs)
            throws Exception {
        try (SteadyWriter writer = new SteadyWriter(server, table, o.rows, o.writerRate)) {
            SteadyWriter.Window baseline = writer.open();
            Thread.sleep(3000);
            // Control: the same writer during a lock-free scan of the table, which loads the
            // machine like the chunk reading does but takes no table lock.
            SteadyWriter.Window control = writer.open();
            JdbcScans.plainScan(server, table, tableRows);
            SteadyWriter.Window during = writer.open();
            record(
                    results,
                    "snapshot-p1",
                    SnapshotChunkPhase.run(server.reader(), table, tableRows, o.chunkSize, 1),
                    "rows/s");
            record(
                    results,
                    "snapshot-p2",
                    SnapshotChunkPhase.run(server.reader(), table, tableRows, o.chunkSize, 2),
                    "rows/s");
            SteadyWriter.Window duringSource = writer.open();
            record(
                    results,
                    "source-snapshot-p1",
                    FlinkSnapshotPhase.run(jobs, server, table, schema, tableRows, 1),
                    "rows/s");
            record(
                    results,
                    "source-snapshot-p2",
                    FlinkSnapshotPhase.run(jobs, server, table, schema, tableRows, 2),
                    "rows/s");
            writer.open(); // closes the window
            long[] source = duringSource.sorted();
            double sourceP99 = LatencyPhase.percentile(source, 0.99) / 1000.0;
            results.add(
                    "stall-source-vs-control-p99",
                    sourceP99 - LatencyPhase.percentile(control.sorted(), 0.99) / 1000.0,
                    0,
                    0);
            log(
                    String.format(
                            Locale.ROOT,
                            "  writer commit latency during the Flink snapshots: p99 %.1f ms, max %.1f ms"
                                    + " (%d commits)",
                            sourceP99,
                            source.length == 0 ? 0 : source[source.length - 1] / 1000.0,
                            source.length));
            LockWindowProbe.Windows lock = LockWindowProbe.run(server.reader(), table, 100);
            results.add(
                    "lock-held-p99", LatencyPhase.percentile(lock.heldMicros, 0.99) / 1000.0, 0, 0);
            results.add(
                    "lock-acquire-p99",
                    LatencyPhase.percentile(lock.acquireMicros, 0.99) / 1000.0,
                    0,
                    0);
            log(
                    String.format(
                            Locale.ROOT,
                            "  lock window (replica of the chunk reader's statements, writer running):"
                                    + " acquire p50 %.1f / p99 %.1f ms, held p50 %.1f / p99 %.1f / max %.1f ms",
                            LatencyPhase.percentile(lock.acquireMicros, 0.5) / 1000.0,
                            LatencyPhase.percentile(lock.acquireMicros, 0.99) / 1000.0,
                            LatencyPhase.percentile(lock.heldMicros, 0.5) / 1000.0,
                            LatencyPhase.percentile(lock.heldMicros, 0.99) / 1000.0,
                            lock.heldMicros[lock.heldMicros.length - 1] / 1000.0));
            long[] base = baseline.sorted();
            long[] snap = during.sorted();
            double baseP99 = LatencyPhase.percentile(base, 0.99) / 1000.0;
            double snapP99 = LatencyPhase.percentile(snap, 0.99) / 1000.0;
            double snapMax = snap.length == 0 ? 0 : snap[snap.length - 1] / 1000.0;
            double baseMax = base.length == 0 ? 0 : base[base.length - 1] / 1000.0;
            results.add("stall-p99", snapP99 - baseP99, 0, 0);
            results.add("stall-max", snapMax, 0, 0);
            long[] ctrl = control.sorted();
            double ctrlP99 = LatencyPhase.percentile(ctrl, 0.99) / 1000.0;
            results.add("stall-base-p99", baseP99, 0, 0);
            results.add("stall-control-p99", ctrlP99, 0, 0);
            results.add("stall-vs-control-p99", snapP99 - ctrlP99, 0, 0);
            log(
                    String.format(
                            Locale.ROOT,
                            "  writer commit latency: baseline p99 %.1f ms (max %.1f, %d commits);"
                                    + " during a lock-free scan p99 %.1f ms (%d commits);"
                                    + " during the chunk reading p99 %.1f ms, max %.1f ms (%d commits)",
                            baseP99,
                            baseMax,
                            base.length,
                            ctrlP99,
                            ctrl.length,
                            snapP99,
                            snapMax,
                            snap.length));
        }
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import java.util.Locale;

/**
 * The lines of the benchmark's result table: for each measurement its key, its description in
 * docs/performance.md, its unit, the limit it is compared with and the goal. Kept apart from the
 * run so that the table's wording is in one place.
 */
final class ResultLines {

    private ResultLines() {}

    /** An empty table with every line defined; some descriptions quote the run's options. */
    static ResultTable define(BenchOptions o) {
        ResultTable t = new ResultTable();
        t.define("scan", "JDBC streaming scan, typed getters (**limit**)", "rows/s", null, "—", 0);
        t.define(
                "binary-scan",
                "JDBC streaming scan over the binary protocol (server-side prepared statement, as the"
                        + " chunk reader reads), typed getters (for reference)",
                "rows/s",
                "scan",
                "—",
                0);
        t.define(
                "block",
                "snapshot building block: `JdbcSchemaReader` + `RowConverter.fromJdbc` over the"
                        + " binary-protocol scan (the chunk reader's row loop alone)",
                "rows/s",
                "scan",
                "—",
                0);
        t.define(
                "snapshot-p1",
                "snapshot chunk reading, 1 reader: `SnapshotPlanner` + `ChunkReader` (brief lock per"
                        + " chunk of "
                        + o.chunkSize
                        + " rows), no Flink",
                "rows/s",
                "scan",
                "≥ 0.8",
                0.8);
        t.define(
                "snapshot-p2",
                "snapshot chunk reading, 2 readers (as at parallelism 2), no Flink",
                "rows/s",
                "scan",
                "> 1 reader",
                0);
        t.define(
                "source-snapshot-p1",
                "`CapstanMySqlSource` snapshot (`StartupOptions.snapshot()`), MiniCluster"
                        + " parallelism 1, RowData → discarding sink; job running to last row",
                "rows/s",
                "scan",
                "≥ 0.8",
                0.8);
        t.define(
                "source-snapshot-p2",
                "`CapstanMySqlSource` snapshot, parallelism 2",
                "rows/s",
                "scan",
                "> parallelism 1",
                0);
        t.define(
                "plain",
                "plain `BinaryLogClient`, default deserializer (**limit**)",
                "changes/s",
                null,
                "—",
                0);
        t.define(
                "streamer",
                "`BinlogStreamer` (converted `RowChange` records)",
                "changes/s",
                "plain",
                "≥ 0.7",
                0.7);
        t.define(
                "flink",
                "`CapstanMySqlSource` binlog, MiniCluster p1, RowData → discarding sink",
                "changes/s",
                "plain",
                "≥ 0.7",
                0.7);
        t.define(
                "latency-p50",
                "commit → emit latency p50 (" + o.latencyRate + " changes/s steady load)",
                "ms",
                null,
                "—",
                0);
        t.define("latency-p99", "commit → emit latency p99", "ms", null, "—", 0);
        t.define("latency-max", "commit → emit latency max", "ms", null, "—", 0);
        t.define("latency-commit-p99", "of which the COMMIT call itself, p99", "ms", null, "—", 0);
        t.define(
                "stall-p99",
                "writer's extra commit latency during the chunk reading, p99 (during − baseline; "
                        + o.writerRate
                        + " one-row transactions/s)",
                "ms",
                null,
                "< 5 ms",
                0);
        t.define(
                "stall-max",
                "writer's commit latency during the chunk reading, max",
                "ms",
                null,
                "—",
                0);
        t.define(
                "stall-base-p99",
                "writer's commit latency without a snapshot, p99 (baseline)",
                "ms",
                null,
                "—",
                0);
        t.define(
                "stall-control-p99",
                "writer's commit latency during a lock-free scan of the table, p99 (control:"
                        + " machine load without locks)",
                "ms",
                null,
                "—",
                0);
        t.define(
                "stall-vs-control-p99",
                "writer's extra commit latency during the chunk reading vs the control, p99",
                "ms",
                null,
                "< 5 ms",
                0);
        t.define(
                "stall-source-vs-control-p99",
                "writer's extra commit latency during the Flink snapshots vs the" + " control, p99",
                "ms",
                null,
                "< 5 ms",
                0);
        t.define(
                "lock-acquire-p99",
                "`LOCK TABLES … READ` wait, p99 (replica of the chunk reader's locked statements,"
                        + " writer running)",
                "ms",
                null,
                "—",
                0);
        t.define(
                "lock-held-p99",
                "table locked (lock → snapshot → G → unlock), p99",
                "ms",
                null,
                "—",
                0);
        t.define(
                "big-transaction",
                "`BinlogStreamer` on one transaction of "
                        + String.format(Locale.ROOT, "%,d", o.bigTransactionRows)
                        + " inserts (see the heap column: the transaction is not buffered)",
                "changes/s",
                null,
                "—",
                0);
        t.define(
                "big-transaction-source",
                "`CapstanMySqlSource` (MiniCluster p1, RowData → discarding sink) on the"
                        + " same transaction",
                "changes/s",
                null,
                "—",
                0);
        if (o.bigTransactionRows == 0) {
            t.notMeasured("big-transaction", "not run (--big-transaction-rows)");
            t.notMeasured("big-transaction-source", "not run (--big-transaction-rows)");
        }
        t.define(
                "checkpoint",
                "checkpointed state after the binlog run (latest completed checkpoint)",
                "bytes",
                null,
                "—",
                0);
        return t;
    }
}

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
        String limit = String.format(Locale.ROOT, "%,d", o.snapshotMaxRowsPerSecond);
        t.define(
                "source-snapshot-p2-throttled",
                "`CapstanMySqlSource` snapshot, parallelism 2, with `scan.snapshot.max-rows-per-second`"
                        + " = "
                        + limit
                        + " (the whole job's limit, half of it per reader; no steady writer); job"
                        + " running to last row",
                "rows/s",
                "scan",
                "—",
                0);
        t.defineRatio(
                "throttled-vs-limit",
                "throttled snapshot p2 ÷ its limit (" + limit + " rows/s)",
                "≈ 1",
                0);
        t.defineRatio(
                "unthrottled-vs-limit",
                "snapshot p2 without the limit ÷ the same limit (same round)",
                "> 1",
                0);
        if (!o.runs("throttle")) {
            for (String key :
                    new String[] {
                        "source-snapshot-p2-throttled", "throttled-vs-limit", "unthrottled-vs-limit"
                    }) {
                t.notMeasured(key, "not run (--skip throttle)");
            }
        } else if (!o.runs("snapshot")) {
            t.notMeasured("unthrottled-vs-limit", "not run (--skip snapshot)");
        }
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
        defineUuidKeyed(t, o);
        return t;
    }

    /** The UUID-keyed table's lines ({@link UuidKeyRound}), after the integer-keyed ones. */
    private static void defineUuidKeyed(ResultTable t, BenchOptions o) {
        t.define(
                "uuid-scan",
                "UUID-keyed table (`CHAR(36)` key in `utf8mb4_0900_ai_ci`, same columns and row"
                        + " count): JDBC streaming scan, typed getters (**limit** of the UUID"
                        + " snapshot); ratio to the integer-keyed table's scan",
                "rows/s",
                "scan",
                "—",
                0);
        t.define(
                "uuid-snapshot-p1",
                "UUID-keyed table: snapshot chunk reading, 1 reader, no Flink (boundaries with"
                        + " their weights)",
                "rows/s",
                "uuid-scan",
                "—",
                0);
        t.define(
                "uuid-source-snapshot-p1",
                "UUID-keyed table: `CapstanMySqlSource` snapshot, MiniCluster parallelism 1, RowData"
                        + " → discarding sink; job running to last row",
                "rows/s",
                "uuid-scan",
                "≥ 0.8",
                0.8);
        t.defineRatio(
                "uuid-vs-int-snapshot-p1",
                "UUID-keyed snapshot p1 ÷ integer-keyed snapshot p1 (`CapstanMySqlSource`, same"
                        + " round)",
                "≥ 0.9",
                0.9);
        t.define(
                "uuid-plain",
                "UUID-keyed table: plain `BinaryLogClient` on one round's "
                        + String.format(Locale.ROOT, "%,d", o.changes)
                        + " row changes (**limit** of the UUID binlog lines)",
                "changes/s",
                null,
                "—",
                0);
        t.define(
                "uuid-gate-active",
                "UUID-keyed table: `CapstanMySqlSource` binlog while the table's gate is active"
                        + " (`initial()`, p1; changes committed while the snapshot is held before"
                        + " its last chunks: every change weighed by the server and gated, those"
                        + " in the later chunks suppressed)",
                "changes/s",
                "uuid-plain",
                "—",
                0);
        t.define(
                "uuid-flink",
                "UUID-keyed table: `CapstanMySqlSource` binlog without a gate (started at the"
                        + " binlog position before the same changes: no weight lookups, as after the gate"
                        + " retired)",
                "changes/s",
                "uuid-plain",
                "—",
                0);
        if (!o.runs("uuid")) {
            for (String key :
                    new String[] {
                        "uuid-scan",
                        "uuid-snapshot-p1",
                        "uuid-source-snapshot-p1",
                        "uuid-vs-int-snapshot-p1",
                        "uuid-plain",
                        "uuid-gate-active",
                        "uuid-flink"
                    }) {
                t.notMeasured(key, "not run (--skip uuid)");
            }
        }
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableSchema;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The end-to-end benchmark: against one MySQL server and the same data in one run, our readers
 * beside the physical limits (a plain streaming JDBC scan, a plain BinaryLogClient), repeated in
 * rounds, printed as one table and appended to docs/performance.md. A benchmark, not a test: it
 * asserts nothing about speed. How to run it: docs/performance.md, "End-to-end benchmark".
 */
public final class EndToEndBenchmark {

    private EndToEndBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        String loadBefore = MachineInfo.loadAverage();
        log(
                "size "
                        + options.sizeLabel()
                        + ", "
                        + options.repeat
                        + " rounds, load average "
                        + loadBefore);
        int status = 0;
        try (BenchServer server = BenchServer.start(options)) {
            run(options, server, loadBefore);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(
                status); // the embedded server's and Flink's non-daemon threads must not keep the
        // JVM
    }

    private static void run(BenchOptions o, BenchServer server, String loadBefore)
            throws Exception {
        String mysqlVersion = server.query("SELECT VERSION()");
        log("server: " + server.description());
        BenchTable table = new BenchTable(o.database, BenchTable.MAIN, o.jsonNull);
        BenchTable probe = new BenchTable(o.database, BenchTable.LATENCY_PROBE, o.jsonNull);
        server.execute(
                "DROP DATABASE IF EXISTS `" + o.database + "`",
                "CREATE DATABASE `" + o.database + "`",
                table.ddl(),
                probe.ddl());

        long loadNanos = DataLoader.load(server, table, o.rows, o.writers);
        DataLoader.checkCount(server, table, o.rows);
        log(
                String.format(
                        Locale.ROOT,
                        "loaded %,d rows in %.1f s (%,.0f rows/s, %d connections)",
                        o.rows,
                        loadNanos / 1e9,
                        o.rows * 1e9 / loadNanos,
                        o.writers));
        // The changes start in a fresh binlog file, so every reader's dump begins right at them.
        server.execute("FLUSH BINARY LOGS");
        String gtidBefore = server.query("SELECT @@global.gtid_executed");
        ChangeWorkload.Totals totals =
                ChangeWorkload.run(server, table, o.rows, o.changes, o.writers);
        long tableRows = o.rows + totals.inserts - totals.deletes;
        DataLoader.checkCount(server, table, tableRows);
        log(
                String.format(
                        Locale.ROOT,
                        "committed %,d row changes (%,d inserts, %,d updates, %,d deletes) in"
                                + " transactions of %d in %.1f s (%,.0f changes/s)",
                        totals.rowChanges(),
                        totals.inserts,
                        totals.updates,
                        totals.deletes,
                        ChangeWorkload.ROWS_PER_TRANSACTION,
                        totals.nanos / 1e9,
                        totals.rowChanges() * 1e9 / totals.nanos));

        TableSchema schema;
        TableSchema probeSchema;
        try (Connection c = server.openReader()) {
            schema = JdbcSchemaReader.read(c, table.id());
            probeSchema = JdbcSchemaReader.read(c, probe.id());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the benchmark tables' schema", e);
        }

        ResultTable results = defineLines(o);
        FlinkJobs jobs =
                o.runs("flink") || o.runs("latency") || o.runs("snapshot")
                        ? FlinkJobs.start()
                        : null;
        try {
            for (int round = 1 - o.warmup; round <= o.repeat; round++) {
                if (round == 1 && o.warmup > 0) {
                    results.clear(); // warm-up rounds are not counted
                }
                log(
                        (round <= 0 ? "warm-up round" : "round " + round + " of " + o.repeat)
                                + " (load average "
                                + MachineInfo.loadAverage()
                                + ")");
                if (o.runs("scan")) {
                    record(
                            results,
                            "scan",
                            JdbcScans.plainScan(server, table, tableRows),
                            "rows/s");
                }
                if (o.runs("binary-scan")) {
                    record(
                            results,
                            "binary-scan",
                            JdbcScans.plainBinaryScan(server, table, tableRows),
                            "rows/s");
                }
                if (o.runs("block")) {
                    record(
                            results,
                            "block",
                            JdbcScans.converterScan(server, table, tableRows),
                            "rows/s");
                }
                if (o.runs("snapshot")) {
                    snapshotPhases(o, server, table, schema, tableRows, results, jobs);
                }
                if (o.runs("plain")) {
                    record(
                            results,
                            "plain",
                            BinlogReads.plainClient(
                                    server.reader(), gtidBefore, totals.rowChanges()),
                            "changes/s");
                }
                if (o.runs("streamer")) {
                    record(
                            results,
                            "streamer",
                            BinlogReads.streamer(
                                    server.reader(), table, gtidBefore, totals.rowChanges()),
                            "changes/s");
                }
                if (o.runs("flink")) {
                    FlinkBinlogPhase.Result r =
                            FlinkBinlogPhase.run(jobs, server, table, schema, gtidBefore, totals);
                    record(results, "flink", r.throughput, "changes/s");
                    results.add(
                            "checkpoint",
                            r.checkpoint.stateBytes,
                            r.throughput.heapAfterGcMax,
                            r.throughput.heapPeak);
                    log(
                            String.format(
                                    Locale.ROOT,
                                    "  checkpoint after the last record: %,d bytes of state",
                                    r.checkpoint.stateBytes));
                }
                if (o.runs("latency")) {
                    LatencyPhase.Result r =
                            LatencyPhase.run(
                                    jobs,
                                    server,
                                    probe,
                                    probeSchema,
                                    o.latencyRate,
                                    o.latencySeconds);
                    results.add("latency-p50", r.p50Micros / 1000.0, r.heapAfterGcMax, r.heapPeak);
                    results.add("latency-p99", r.p99Micros / 1000.0, r.heapAfterGcMax, r.heapPeak);
                    results.add("latency-max", r.maxMicros / 1000.0, r.heapAfterGcMax, r.heapPeak);
                    results.add("latency-commit-p99", r.commitP99Micros / 1000.0, 0, 0);
                    log(
                            String.format(
                                    Locale.ROOT,
                                    "  latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %,d rows"
                                            + " at %,.0f rows/s (%d missing); the COMMIT calls alone: p99 %.1f ms",
                                    r.p50Micros / 1000.0,
                                    r.p99Micros / 1000.0,
                                    r.maxMicros / 1000.0,
                                    r.rows,
                                    r.achievedRate,
                                    r.missing,
                                    r.commitP99Micros / 1000.0));
                    if (r.missing > 0) {
                        results.footnote(
                                "Latency round "
                                        + round
                                        + ": "
                                        + r.missing
                                        + " probe rows never reached the sink within 60 s.");
                    }
                }
            }
            if (o.bigTransactionRows > 0) {
                log("one big transaction");
                BigTransactionPhase.Result big =
                        BigTransactionPhase.run(
                                server,
                                new BenchTable(o.database, BenchTable.BIG_TRANSACTION, o.jsonNull),
                                o.bigTransactionRows,
                                o.runs("flink") ? jobs : null);
                record(results, "big-transaction", big.streamer, "changes/s");
                if (big.source != null) {
                    record(results, "big-transaction-source", big.source, "changes/s");
                }
            }
        } finally {
            if (jobs != null) {
                jobs.close();
            }
        }

        String loadAfter = MachineInfo.loadAverage();
        String entry =
                entry(o, server, mysqlVersion, loadBefore, loadAfter, loadNanos, totals, results);
        System.out.println();
        System.out.println(entry);
        if (o.appendDoc) {
            Files.writeString(
                    o.doc,
                    "\n" + entry,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            log("appended to " + o.doc);
        }
    }

    private static ResultTable defineLines(BenchOptions o) {
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

    /** Snapshot chunk reading at 1 and 2 threads while a steady writer updates the same table. */
    private static void snapshotPhases(
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

    private static void record(ResultTable results, String key, PhaseResult r, String unit) {
        results.add(key, r.perSecond(), r.heapAfterGcMax, r.heapPeak);
        log(
                String.format(
                        Locale.ROOT,
                        "  %-9s %,12.0f %s (%,d in %.2f s; heap after GC max %,d MB, peak %,d MB)",
                        key,
                        r.perSecond(),
                        unit,
                        r.count,
                        r.nanos / 1e9,
                        r.heapAfterGcMax >> 20,
                        r.heapPeak >> 20));
    }

    private static String entry(
            BenchOptions o,
            BenchServer server,
            String mysqlVersion,
            String loadBefore,
            String loadAfter,
            long loadNanos,
            ChangeWorkload.Totals totals,
            ResultTable results) {
        StringBuilder e = new StringBuilder();
        e.append("#### ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")))
                .append(" — ")
                .append(o.sizeLabel())
                .append(", ")
                .append(o.repeat)
                .append(o.repeat == 1 ? " round" : " rounds")
                .append("\n\n");
        e.append("Machine: ")
                .append(MachineInfo.describe(mysqlVersion))
                .append(". Load average ")
                .append(loadBefore)
                .append(" before, ")
                .append(loadAfter)
                .append(
                        " after (the machine is shared:"
                                + " other builds ran at the same time, so absolute rates are noisy; ratios within one round"
                                + " are what count). Server: ")
                .append(server.isEmbedded() ? "embedded" : "external")
                .append(", TLS mode ")
                .append(o.sslMode)
                .append(o.jsonNull ? ". **Experiment: the JSON column is NULL in every row**" : "")
                .append(". Data: ")
                .append(
                        String.format(
                                Locale.ROOT,
                                "%,d rows loaded in %.1f s; %,d row changes (%,d inserts, %,d"
                                        + " updates, %,d deletes) in transactions of %d.",
                                o.rows,
                                loadNanos / 1e9,
                                totals.rowChanges(),
                                totals.inserts,
                                totals.updates,
                                totals.deletes,
                                ChangeWorkload.ROWS_PER_TRANSACTION))
                .append("\n\n");
        e.append(results.markdown());
        return e.toString();
    }

    static void log(String message) {
        System.out.println("[bench " + java.time.LocalTime.now().withNano(0) + "] " + message);
    }
}

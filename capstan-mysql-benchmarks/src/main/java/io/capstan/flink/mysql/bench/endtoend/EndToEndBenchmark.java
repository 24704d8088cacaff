package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The end-to-end benchmark: against one MySQL server and the same data in one run, our readers
 * beside the physical limits (a plain streaming JDBC scan, a plain BinaryLogClient), repeated in
 * rounds, printed as one table and appended to docs/performance.md. A benchmark, not a test: it
 * asserts nothing about speed. How to run it: docs/performance.md, "End-to-end benchmark".
 *
 * <p>This class prepares the data and runs the rounds; the phases measure ({@code *Phase}, {@link
 * JdbcScans}, {@link BinlogReads}), {@link ResultLines} names the table's lines and {@link
 * PerformanceEntry} writes the page's entry.
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
        BinlogStart before = BinlogStart.read(server);
        log("binlog readers start at " + before);
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

        UuidKeyRound uuidKeyed = o.runs("uuid") ? UuidKeyRound.prepare(o, server, tableRows) : null;
        ResultTable results = ResultLines.define(o);
        FlinkJobs jobs =
                o.runs("flink") || o.runs("latency") || o.runs("snapshot") || o.runs("throttle")
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
                    SnapshotStallPhase.run(o, server, table, schema, tableRows, results, jobs);
                }
                if (o.runs("throttle")) {
                    ThrottledSnapshotPhase.run(
                            o, server, table, schema, tableRows, results, jobs, round);
                }
                if (o.runs("plain")) {
                    record(
                            results,
                            "plain",
                            BinlogReads.plainClient(server.reader(), before, totals.rowChanges()),
                            "changes/s");
                }
                if (o.runs("streamer")) {
                    record(
                            results,
                            "streamer",
                            BinlogReads.streamer(
                                    server.reader(), table, before, totals.rowChanges()),
                            "changes/s");
                }
                if (o.runs("flink")) {
                    FlinkBinlogPhase.Result r =
                            FlinkBinlogPhase.run(jobs, server, table, schema, before, totals);
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
                if (uuidKeyed != null) {
                    uuidKeyed.run(results, jobs);
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
                PerformanceEntry.markdown(
                        o, server, mysqlVersion, loadBefore, loadAfter, loadNanos, totals, results);
        System.out.println();
        System.out.println(entry);
        if (o.appendDoc) {
            PerformanceEntry.appendTo(o.doc, entry);
            log("appended to " + o.doc);
        }
    }

    /** Adds one phase's rate to the table and prints it with the heap it needed. */
    static void record(ResultTable results, String key, PhaseResult r, String unit) {
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

    /** The benchmark's console line, with the time of day; every phase reports through it. */
    static void log(String message) {
        System.out.println("[bench " + java.time.LocalTime.now().withNano(0) + "] " + message);
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

import static io.capstan.flink.mysql.bench.endtoend.EndToEndBenchmark.log;
import static io.capstan.flink.mysql.bench.endtoend.EndToEndBenchmark.record;

/**
 * The UUID-keyed table's lines of one round (a {@code CHAR(36)} key in the server's default
 * collation, chunked and gated by server-computed weights): its plain scan, its chunk reading and
 * the Flink snapshot at parallelism 1 beside the integer-keyed snapshot of the same round; then one
 * round of changes streamed while the gate is active, by the plain client, and by the source
 * without a gate. The table holds as many rows as the integer-keyed one; each round's changes are
 * undone after it, so every round reads the same number of rows and streams the same changes.
 */
final class UuidKeyRound {

    private final BenchOptions o;
    private final BenchServer server;
    private final BenchTable table;
    private final TableSchema schema;
    private final long rows;
    private long rounds;

    private UuidKeyRound(
            BenchOptions o, BenchServer server, BenchTable table, TableSchema schema, long rows) {
        this.o = o;
        this.server = server;
        this.table = table;
        this.schema = schema;
        this.rows = rows;
    }

    /** Creates and loads the table with rows 1..{@code rows} (the integer-keyed table's count). */
    static UuidKeyRound prepare(BenchOptions o, BenchServer server, long rows) throws Exception {
        BenchTable table = new BenchTable(o.database, BenchTable.UUID_KEYED, o.jsonNull, true);
        server.execute(table.ddl());
        long nanos = DataLoader.load(server, table, rows, o.writers);
        DataLoader.checkCount(server, table, rows);
        log(
                String.format(
                        Locale.ROOT,
                        "loaded %,d rows into the UUID-keyed table in %.1f s",
                        rows,
                        nanos / 1e9));
        try (Connection c = server.openReader()) {
            return new UuidKeyRound(o, server, table, JdbcSchemaReader.read(c, table.id()), rows);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the UUID-keyed table's schema", e);
        }
    }

    void run(ResultTable results, FlinkJobs jobs) throws Exception {
        rounds++;
        if (o.runs("scan")) {
            record(results, "uuid-scan", JdbcScans.plainScan(server, table, rows), "rows/s");
        }
        if (o.runs("snapshot")) {
            record(
                    results,
                    "uuid-snapshot-p1",
                    SnapshotChunkPhase.run(server.reader(), table, rows, o.chunkSize, 1),
                    "rows/s");
            PhaseResult snapshot = FlinkSnapshotPhase.run(jobs, server, table, schema, rows, 1);
            record(results, "uuid-source-snapshot-p1", snapshot, "rows/s");
            double integerKeyed = results.last("source-snapshot-p1");
            if (!Double.isNaN(integerKeyed)) {
                results.add("uuid-vs-int-snapshot-p1", snapshot.perSecond() / integerKeyed, 0, 0);
            }
        }
        if (o.runs("flink")) {
            long markerRow = -rounds; // outside the rows and the workload's inserts
            GateActivePhase.Result gated =
                    GateActivePhase.run(jobs, server, table, schema, rows, o, markerRow);
            ChangeWorkload.Totals totals = gated.totals;
            // the limit first: a ratio is taken against the limit's figure of the same round
            record(
                    results,
                    "uuid-plain",
                    BinlogReads.plainClient(server.reader(), gated.before, totals.rowChanges()),
                    "changes/s");
            record(results, "uuid-gate-active", gated.throughput, "changes/s");
            if (gated.forwarded >= totals.rowDataRecords()) {
                results.footnote(
                        "UUID round "
                                + rounds
                                + ": the gate suppressed nothing, so it may have retired before"
                                + " the changes; that round's gate-active figure is not one.");
            }
            record(
                    results,
                    "uuid-flink",
                    FlinkBinlogPhase.stream(
                            jobs,
                            server,
                            table,
                            schema,
                            gated.before,
                            totals.rowDataRecords(),
                            totals.rowChanges()),
                    "changes/s");
            undo(totals, markerRow);
        }
    }

    /**
     * Deletes the round's inserts and the marker and inserts the deleted rows again (they were
     * never updated: updates touch the lower half), so the next round starts from the same rows.
     */
    private void undo(ChangeWorkload.Totals totals, long markerRow) throws Exception {
        server.execute(
                "DELETE FROM "
                        + table.qualified()
                        + " WHERE "
                        + table.rowsBetween(rows + 1, rows + totals.inserts),
                "DELETE FROM " + table.qualified() + " WHERE id = " + table.key(markerRow));
        DataLoader.load(server, table, rows - totals.deletes + 1, rows, o.writers);
        DataLoader.checkCount(server, table, rows);
    }
}

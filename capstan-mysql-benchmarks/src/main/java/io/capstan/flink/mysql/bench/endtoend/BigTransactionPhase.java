package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;

import java.sql.Connection;
import java.sql.Statement;

/**
 * Heap while streaming one huge transaction: {@code rows} inserts committed as a single transaction
 * into a table of their own, then streamed from the position before it by {@link BinlogStreamer}
 * alone and by the whole Flink source (a MiniCluster job into the discarding sink). If either
 * buffered a transaction, the heap after GC would grow with it (about 1 KB a row); bounded by the
 * queues, it stays at the level of the ordinary runs.
 */
final class BigTransactionPhase {

    /** The streamer's figures and, if Flink phases run, the source's. */
    static final class Result {
        final PhaseResult streamer;
        final PhaseResult source;

        Result(PhaseResult streamer, PhaseResult source) {
            this.streamer = streamer;
            this.source = source;
        }
    }

    private BigTransactionPhase() {}

    static Result run(BenchServer server, BenchTable table, long rows, FlinkJobs jobs)
            throws Exception {
        server.execute(table.ddl());
        BinlogStart before = BinlogStart.read(server);
        try (Connection c = server.openAdmin();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            StringBuilder sql = new StringBuilder(1000 * 450);
            for (long first = 1; first <= rows; first += 1000) {
                sql.setLength(0);
                sql.append("INSERT INTO ")
                        .append(table.qualified())
                        .append(" (")
                        .append(BenchTable.COLUMN_LIST)
                        .append(") VALUES ");
                long last = Math.min(rows, first + 999);
                for (long id = first; id <= last; id++) {
                    if (id > first) {
                        sql.append(',');
                    }
                    table.appendRow(sql, id);
                }
                st.executeUpdate(sql.toString());
            }
            c.commit();
        }
        EndToEndBenchmark.log(
                String.format(
                        java.util.Locale.ROOT, "  committed one transaction of %,d rows", rows));
        PhaseResult streamer = streamer(server, table, rows, before);
        PhaseResult source = null;
        if (jobs != null) {
            TableSchema schema;
            try (Connection c = server.openReader()) {
                schema = JdbcSchemaReader.read(c, table.id());
            }
            System.gc();
            source = FlinkBinlogPhase.stream(jobs, server, table, schema, before, rows, rows);
        }
        return new Result(streamer, source);
    }

    private static PhaseResult streamer(
            BenchServer server, BenchTable table, long rows, BinlogStart before) throws Exception {
        System.gc(); // start from the live set, so the after-GC figures belong to the streaming
        return BinlogReads.streamer(server.reader(), table, before, rows);
    }
}

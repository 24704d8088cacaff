package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import org.apache.flink.table.data.GenericRowData;

/**
 * Full scans of the table over one streaming JDBC result set ({@code fetchSize = Integer.MIN_VALUE}):
 * the physical limit reads every column with the typed getters; the snapshot's building block
 * converts every row with the table's {@link RowConverter} (as the snapshot chunk reader does).
 * Both time from the query to the last row.
 */
final class JdbcScans {

    private static volatile long blackhole;

    private JdbcScans() {}

    /** The limit: every column of every row through the driver's typed getters, nothing else. */
    static PhaseResult plainScan(BenchServer server, BenchTable table, long expectedRows) throws SQLException {
        try (HeapWatch heap = HeapWatch.start(); Connection c = server.openReader();
                Statement st = streaming(c)) {
            long sink = 0;
            long rows = 0;
            long start = System.nanoTime();
            try (ResultSet rs = st.executeQuery(table.selectAll())) {
                while (rs.next()) {
                    sink += rs.getLong(1);
                    sink += rs.getInt(2);
                    sink += length(rs.getString(3));
                    sink += rs.getBigDecimal(4).scale();
                    sink += nano(rs.getObject(5, LocalDateTime.class));
                    sink += nano(rs.getObject(6, LocalDateTime.class));
                    sink += rs.getByte(7);
                    sink += (long) rs.getDouble(8);
                    sink += length(rs.getString(9));
                    sink += length(rs.getString(10));
                    rows++;
                }
            }
            long nanos = System.nanoTime() - start;
            check(rows, expectedRows, sink);
            return new PhaseResult(rows, nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
        }
    }

    /** The snapshot's building block: the table's schema from JDBC, then {@link RowConverter#fromJdbc} per row. */
    static PhaseResult converterScan(BenchServer server, BenchTable table, long expectedRows) throws SQLException {
        try (HeapWatch heap = HeapWatch.start(); Connection c = server.openReader()) {
            long start = System.nanoTime();
            TableSchema schema = JdbcSchemaReader.read(c, table.id());
            RowConverter converter = RowConverter.of(schema);
            long sink = 0;
            long rows = 0;
            try (Statement st = streaming(c); ResultSet rs = st.executeQuery(table.selectAll())) {
                while (rs.next()) {
                    GenericRowData row = converter.fromJdbc(rs);
                    sink += row.getArity();
                    rows++;
                }
            }
            long nanos = System.nanoTime() - start;
            check(rows, expectedRows, sink);
            return new PhaseResult(rows, nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
        }
    }

    private static Statement streaming(Connection c) throws SQLException {
        Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        st.setFetchSize(Integer.MIN_VALUE);
        return st;
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }

    private static int nano(LocalDateTime t) {
        return t == null ? 0 : t.getNano();
    }

    private static void check(long rows, long expected, long sink) {
        if (rows != expected) {
            throw new IllegalStateException("the scan read " + rows + " rows, expected " + expected);
        }
        blackhole = sink; // keeps the JIT from dropping the reads
    }
}

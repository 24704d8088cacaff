package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;

import org.apache.flink.table.data.GenericRowData;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;

/**
 * Full scans of the table over one streaming JDBC result set ({@code fetchSize =
 * Integer.MIN_VALUE}): the physical limit reads every column with the typed getters, over the text
 * protocol (a plain {@code Statement}) or, for reference, the binary protocol (a server-side
 * prepared statement, as the snapshot chunk reader uses); the snapshot's building block converts
 * every row with the table's {@link RowConverter} over the binary protocol, as the chunk reader
 * does. All time from the query to the last row.
 */
final class JdbcScans {

    private static volatile long blackhole;

    private JdbcScans() {}

    /** The limit: every column of every row through the driver's typed getters, nothing else. */
    static PhaseResult plainScan(BenchServer server, BenchTable table, long expectedRows)
            throws SQLException {
        return typedGetterScan(server.reader(), table, expectedRows, false);
    }

    /** The same over the binary protocol: a streamed server-side prepared statement. */
    static PhaseResult plainBinaryScan(BenchServer server, BenchTable table, long expectedRows)
            throws SQLException {
        return typedGetterScan(binaryProtocol(server), table, expectedRows, true);
    }

    private static MySqlConnectionConfig binaryProtocol(BenchServer server) {
        return server.reader().toBuilder().jdbcProperty("useServerPrepStmts", "true").build();
    }

    private static PhaseResult typedGetterScan(
            MySqlConnectionConfig config, BenchTable table, long expectedRows, boolean prepared)
            throws SQLException {
        try (HeapWatch heap = HeapWatch.start();
                Connection c = JdbcConnections.open(config);
                Statement st =
                        prepared
                                ? streaming(
                                        c.prepareStatement(
                                                table.selectAll(),
                                                ResultSet.TYPE_FORWARD_ONLY,
                                                ResultSet.CONCUR_READ_ONLY))
                                : streaming(
                                        c.createStatement(
                                                ResultSet.TYPE_FORWARD_ONLY,
                                                ResultSet.CONCUR_READ_ONLY))) {
            boolean textKey = table.uuidKey(); // CHAR(36): getString, as a reader of UUIDs does
            long sink = 0;
            long rows = 0;
            long start = System.nanoTime();
            try (ResultSet rs =
                    prepared
                            ? ((PreparedStatement) st).executeQuery()
                            : st.executeQuery(table.selectAll())) {
                while (rs.next()) {
                    sink += readRow(rs, textKey);
                    rows++;
                }
            }
            long nanos = System.nanoTime() - start;
            check(rows, expectedRows, sink);
            return new PhaseResult(rows, nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
        }
    }

    /**
     * The snapshot's building block: the table's schema from JDBC, then {@link
     * RowConverter#fromJdbc} per row.
     */
    static PhaseResult converterScan(BenchServer server, BenchTable table, long expectedRows)
            throws SQLException {
        try (HeapWatch heap = HeapWatch.start();
                Connection c = JdbcConnections.open(binaryProtocol(server))) {
            long start = System.nanoTime();
            TableSchema schema = JdbcSchemaReader.read(c, table.id());
            RowConverter converter = RowConverter.of(schema);
            long sink = 0;
            long rows = 0;
            try (PreparedStatement st =
                            streaming(
                                    c.prepareStatement(
                                            table.selectAll(),
                                            ResultSet.TYPE_FORWARD_ONLY,
                                            ResultSet.CONCUR_READ_ONLY));
                    ResultSet rs = st.executeQuery()) {
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

    /**
     * Reads every column of the current row of {@link BenchTable} with its typed getter, as the
     * limit does; returns a number made of the values, so that the JIT keeps the reads.
     */
    static long readRow(ResultSet rs, boolean textKey) throws SQLException {
        long sink = textKey ? length(rs.getString(1)) : rs.getLong(1);
        sink += rs.getInt(2);
        sink += length(rs.getString(3));
        sink += rs.getBigDecimal(4).scale();
        sink += nano(rs.getObject(5, LocalDateTime.class));
        sink += nano(rs.getObject(6, LocalDateTime.class));
        sink += rs.getByte(7);
        sink += (long) rs.getDouble(8);
        sink += length(rs.getString(9));
        sink += length(rs.getString(10));
        return sink;
    }

    private static <S extends Statement> S streaming(S st) throws SQLException {
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
            throw new IllegalStateException(
                    "the scan read " + rows + " rows, expected " + expected);
        }
        blackhole = sink; // keeps the JIT from dropping the reads
    }
}

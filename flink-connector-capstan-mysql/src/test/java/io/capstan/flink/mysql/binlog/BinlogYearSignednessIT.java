package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rows;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rowsAtLeast;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Numeric columns after a YEAR column decode with the right signedness. MySQL before 8.0.20 (the
 * embedded test server is 8.0.15) writes no signedness bit for YEAR in the table map, and the
 * binlog library assumes it does: without the server version from FORMAT_DESCRIPTION, every numeric
 * column after a YEAR takes its left neighbour's bit, so 200 in a TINYINT UNSIGNED reads as -56 and
 * -5 in a TINYINT as 251. The streamed rows and schema must equal a JDBC read.
 */
class BinlogYearSignednessIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @Test
    void numericColumnsAfterYearColumnsKeepTheirSignedness() throws Exception {
        DB.execute(
                "CREATE TABLE y (id INT PRIMARY KEY, y1 YEAR, u_tiny TINYINT UNSIGNED, s_tiny TINYINT,"
                        + " u_small SMALLINT UNSIGNED, s_med MEDIUMINT, u_int INT UNSIGNED, s_int INT, y2 YEAR,"
                        + " u_big BIGINT UNSIGNED, s_big BIGINT, u_med MEDIUMINT UNSIGNED, s_small SMALLINT,"
                        + " d DECIMAL(12,2), f FLOAT, u_int2 INT UNSIGNED)");
        TableId y = TableId.of(DB.name(), "y");
        try (BinlogStreamer s =
                new BinlogStreamer(
                        config(connectorConfig(DB), y).build(),
                        StartPositions.latest(connectorConfig(DB)))) {
            s.start();
            DB.execute(
                    // unsigned above the signed maximum, signed negative
                    "INSERT INTO y VALUES (1, 2020, 200, -5, 65000, -8388608, 4000000000, -2147483648, 1999,"
                            + " 18446744073709551615, -9223372036854775808, 16777215, -32768, -12.5, -1.5,"
                            + " 4294967295)",
                    // the other way round: small unsigned, positive signed, and the YEAR extremes
                    "INSERT INTO y VALUES (2, 1901, 1, 127, 2, 8388607, 3, 2147483647, 2155,"
                            + " 4, 9223372036854775807, 5, 32767, 12.5, 1.5, 6)",
                    "INSERT INTO y VALUES (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
                    "UPDATE y SET u_tiny = 255, s_tiny = -128 WHERE id = 2");
            List<RowChange> changes = rows(drain(s, rowsAtLeast(4), Duration.ofSeconds(30)));

            TableSchema schema;
            Map<Integer, GenericRowData> jdbc;
            try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
                schema = JdbcSchemaReader.read(c, y);
                jdbc = readAll(c, schema);
            }
            assertThat(changes.get(0).schema()).isEqualTo(schema);
            Map<Integer, RowData> streamed = new HashMap<>();
            for (RowChange change : changes) {
                streamed.put(change.after().getInt(0), change.after());
            }
            assertThat(streamed).hasSize(3);
            for (int id = 1; id <= 3; id++) {
                assertThat(streamed.get(id)).as("row %s", id).isEqualTo(jdbc.get(id));
            }
            // Spelled out for one row, so a shared mistake of both paths cannot pass.
            RowData first = streamed.get(1);
            assertThat(first.getShort(2)).isEqualTo((short) 200);
            assertThat(first.getByte(3)).isEqualTo((byte) -5);
            assertThat(first.getLong(6)).isEqualTo(4_000_000_000L);
            assertThat(first.getInt(7)).isEqualTo(Integer.MIN_VALUE);
            assertThat(first.getDecimal(9, 20, 0).toBigDecimal())
                    .isEqualByComparingTo("18446744073709551615");
            assertThat(first.getLong(10)).isEqualTo(Long.MIN_VALUE);
            assertThat(first.getLong(15)).isEqualTo(4_294_967_295L);
        }
    }

    /**
     * Eight numeric columns and a YEAR: the server writes one signedness byte, the library expects
     * two. Without padding the field, the table map fails to decode and no change of the table
     * arrives (the stream reconnects until its budget is spent).
     */
    @Test
    void tableMapWhoseSignednessFieldIsAByteShortOfTheLibrarysCountDecodes() throws Exception {
        DB.execute(
                "CREATE TABLE y8 (id INT PRIMARY KEY, u1 TINYINT UNSIGNED, s2 TINYINT,"
                        + " u3 SMALLINT UNSIGNED, s4 INT, u5 BIGINT UNSIGNED, s6 MEDIUMINT,"
                        + " u7 INT UNSIGNED, y YEAR, v VARCHAR(10))");
        TableId y8 = TableId.of(DB.name(), "y8");
        try (BinlogStreamer s =
                new BinlogStreamer(
                        config(connectorConfig(DB), y8).build(),
                        StartPositions.latest(connectorConfig(DB)))) {
            s.start();
            DB.execute(
                    "INSERT INTO y8 VALUES (1, 200, -5, 65000, -7, 18446744073709551615, -8, 4000000000,"
                            + " 2024, 'a')");
            List<RowChange> changes = rows(drain(s, rowsAtLeast(1), Duration.ofSeconds(30)));
            TableSchema schema;
            Map<Integer, GenericRowData> jdbc;
            try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
                schema = JdbcSchemaReader.read(c, y8);
                jdbc = readAll(c, schema);
            }
            assertThat(changes.get(0).schema()).isEqualTo(schema);
            assertThat(changes.get(0).after()).isEqualTo(jdbc.get(1));
            assertThat(changes.get(0).after().getShort(1)).isEqualTo((short) 200);
            assertThat(changes.get(0).after().getLong(7)).isEqualTo(4_000_000_000L);
        }
    }

    private static Map<Integer, GenericRowData> readAll(Connection c, TableSchema schema)
            throws Exception {
        Map<Integer, GenericRowData> rows = new HashMap<>();
        RowConverter converter = RowConverter.of(schema);
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < schema.columnCount(); i++) {
            sql.append(i == 0 ? "" : ", ").append('`').append(schema.column(i).name()).append('`');
        }
        sql.append(" FROM ").append(schema.tableId().quoted());
        try (PreparedStatement st = c.prepareStatement(sql.toString());
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                GenericRowData row = converter.fromJdbc(rs);
                rows.put(row.getInt(0), row);
            }
        }
        return rows;
    }
}

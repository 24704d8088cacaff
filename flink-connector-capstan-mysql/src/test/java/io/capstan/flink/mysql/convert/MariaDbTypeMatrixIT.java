package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.BinlogSchemaReader;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The type matrix of {@link TypeMatrixIT} on a real MariaDB (Debian's {@code mariadbd}), read from
 * binlog positions: snapshot values equal hand-written ones and binlog values equal snapshot ones.
 */
class MariaDbTypeMatrixIT {

    @RegisterExtension
    static final MySqlTestDatabase DB =
            MySqlTestDatabase.onServerOfItsOwn(() -> MariaDbServer.startForCapture(43));

    @Test
    void jdbcMatchesExpectedAndBinlogMatchesJdbc() throws Exception {
        new TypeMatrix(DB, true).run();
    }

    /**
     * UUID, INET4 and INET6 (MariaDB 10.7+) reach the binlog as plain BINARY(n), which the stream
     * cannot tell from a real BINARY column, while JDBC reads them as text: the schema read halts
     * by name before any row is read.
     */
    @Test
    void mariaDbOnlyTypesHaltByNameBeforeReading() throws Exception {
        String[][] cases = {
            {"uuid", "UUID", "'123e4567-e89b-12d3-a456-426655440000'", "CHAR(36)"},
            {"inet4", "INET4", "'192.0.2.1'", "VARCHAR(39)"},
            {"inet6", "INET6", "'2001:db8::1'", "VARCHAR(39)"},
        };
        String[] start;
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            assertThat(rs.next()).isTrue();
            start = new String[] {rs.getString(1), rs.getString(2)};
        }
        for (String[] k : cases) {
            DB.execute(
                    "CREATE TABLE only_" + k[0] + " (id INT PRIMARY KEY, c " + k[1] + ")",
                    "INSERT INTO only_" + k[0] + " VALUES (1, " + k[2] + ")");
        }
        try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
            for (String[] k : cases) {
                TableId id = TableId.of(DB.name(), "only_" + k[0]);
                assertThatThrownBy(() -> JdbcSchemaReader.read(c, id))
                        .isInstanceOfSatisfying(
                                CapstanHaltException.class,
                                e ->
                                        assertThat(e.reason())
                                                .isEqualTo(HaltReason.UNSUPPORTED_COLUMN_TYPE))
                        .hasMessageContaining("column c has the type " + k[0])
                        .hasMessageContaining("Remedy")
                        .hasMessageContaining(k[3]);
            }
        }
        BinlogCapture capture =
                BinlogCapture.capture(
                        connectorConfig(DB),
                        DB.name(),
                        start,
                        cap ->
                                cap.count("only_uuid", "insert")
                                                + cap.count("only_inet4", "insert")
                                                + cap.count("only_inet6", "insert")
                                        == 3);
        for (String[] k : cases) {
            TableId id = TableId.of(DB.name(), "only_" + k[0]);
            TableSchema fromBinlog =
                    BinlogSchemaReader.fromTableMap(id, capture.tableMaps.get(id), true, true);
            assertThat(fromBinlog.column(1).type()).as(k[0]).isEqualTo(MySqlType.BINARY);
        }
    }
}

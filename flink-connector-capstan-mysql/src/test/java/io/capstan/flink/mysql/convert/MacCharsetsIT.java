package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Columns in MySQL's {@code macroman} and {@code macce} are read on a real MySQL, in the snapshot
 * and the binlog alike, as the text MySQL Connector/J reads (Flink CDC's charset test values), and
 * every byte of them as MySQL itself converts it.
 */
class MacCharsetsIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @Test
    void macRomanAndCentralEuropeanDecodeInSnapshotAndBinlog() throws Exception {
        StringBuilder everyByte = new StringBuilder();
        for (int b = 0x20; b <= 0xFF; b++) {
            if (b != 0x7F) {
                everyByte.append(String.format("%02X", b));
            }
        }
        DB.execute(
                "CREATE TABLE mac (id INT NOT NULL PRIMARY KEY,"
                        + " r VARCHAR(300) CHARACTER SET macroman,"
                        + " c VARCHAR(300) CHARACTER SET macce)",
                "INSERT INTO mac VALUES (1, 'ÀÆÉ', 'ÓÔŐÖ'), (2, 'Üæû', 'ŮÚŰÜ')",
                "INSERT INTO mac VALUES (3, X'" + everyByte + "', X'" + everyByte + "')");
        TableId id = TableId.of(DB.name(), "mac");
        TableSchema schema;
        ChunkKey key;
        try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
            schema = JdbcSchemaReader.read(c, id);
            key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(c, id), Optional.empty());
        }
        Map<Integer, String> mysql = new TreeMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT id, CONVERT(r USING utf8mb4), CONVERT(c USING utf8mb4)"
                                        + " FROM mac")) {
            while (rs.next()) {
                mysql.put(rs.getInt(1), rs.getString(2) + "|" + rs.getString(3));
            }
        }
        assertThat(mysql).containsEntry(1, "ÀÆÉ|ÓÔŐÖ").containsEntry(2, "Üæû|ŮÚŰÜ");

        Map<Integer, String> snapshot = new TreeMap<>();
        try (ChunkReader reader =
                new ChunkReader(connectorConfig(DB), SnapshotReadOptions.defaults())) {
            ChunkResult result =
                    reader.read(
                            new SnapshotChunk(id, 0, ChunkRange.all()),
                            TableReadSpec.forSchema(key, schema));
            for (RowData row : result.rows()) {
                snapshot.put(row.getInt(0), row.getString(1) + "|" + row.getString(2));
            }
        }
        assertThat(snapshot.get(1)).isEqualTo(mysql.get(1));
        assertThat(snapshot.get(2)).isEqualTo(mysql.get(2));
        assertThat(hex(snapshot.get(3))).as("every byte").isEqualTo(hex(mysql.get(3)));

        String before = DB.server().gtidExecuted();
        DB.execute("UPDATE mac SET id = id + 10");
        BinlogCapture capture =
                BinlogCapture.capture(
                        connectorConfig(DB),
                        DB.name(),
                        before,
                        cap -> cap.count("mac", "update") == 3);
        RowConverter converter = RowConverter.of(schema);
        Map<Integer, String> binlog = new TreeMap<>();
        for (BinlogCapture.Change ch : capture.changes) {
            RowData row = converter.fromBinlog(ch.after);
            binlog.put(row.getInt(0) - 10, row.getString(1) + "|" + row.getString(2));
        }
        assertThat(binlog).isEqualTo(snapshot);
    }

    private static String hex(String s) {
        return HexFormat.of().formatHex(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

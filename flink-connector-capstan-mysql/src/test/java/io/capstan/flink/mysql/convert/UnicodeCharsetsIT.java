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

import java.nio.charset.StandardCharsets;
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
 * {@code utf16} and {@code utf32} values are big-endian without a byte-order mark: a value that
 * begins with U+FEFF keeps it, in the snapshot and the binlog alike, as MySQL converts it.
 */
class UnicodeCharsetsIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @Test
    void aLeadingByteOrderMarkCharacterIsKept() throws Exception {
        DB.execute(
                "CREATE TABLE u (id INT NOT NULL PRIMARY KEY,"
                        + " a VARCHAR(20) CHARACTER SET utf16,"
                        + " b VARCHAR(20) CHARACTER SET utf32)",
                // U+FEFF 'A' U+FFFD in each
                "INSERT INTO u VALUES (1, X'FEFF0041FFFD', X'0000FEFF000000410000FFFD')");
        TableId id = TableId.of(DB.name(), "u");
        TableSchema schema;
        ChunkKey key;
        try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
            schema = JdbcSchemaReader.read(c, id);
            key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(c, id), Optional.empty());
        }
        String mysql;
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT CONVERT(a USING utf8mb4), CONVERT(b USING utf8mb4)"
                                        + " FROM u")) {
            rs.next();
            mysql = hex(rs.getString(1) + "|" + rs.getString(2));
        }
        assertThat(mysql).isEqualTo(hex("\uFEFFA\uFFFD|\uFEFFA\uFFFD"));

        Map<Integer, String> snapshot = new TreeMap<>();
        try (ChunkReader reader =
                new ChunkReader(connectorConfig(DB), SnapshotReadOptions.defaults())) {
            ChunkResult result =
                    reader.read(
                            new SnapshotChunk(id, 0, ChunkRange.all()),
                            TableReadSpec.forSchema(key, schema));
            for (RowData row : result.rows()) {
                snapshot.put(row.getInt(0), hex(row.getString(1) + "|" + row.getString(2)));
            }
        }
        assertThat(snapshot.get(1)).as("snapshot").isEqualTo(mysql);

        String before = DB.server().gtidExecuted();
        DB.execute("UPDATE u SET id = id + 10");
        BinlogCapture capture =
                BinlogCapture.capture(
                        connectorConfig(DB),
                        DB.name(),
                        before,
                        cap -> cap.count("u", "update") == 1);
        RowData row = RowConverter.of(schema).fromBinlog(capture.changes.get(0).after);
        assertThat(hex(row.getString(1) + "|" + row.getString(2))).as("binlog").isEqualTo(mysql);
    }

    private static String hex(String s) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }
}

package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
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

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A FLOAT is the stored float on every path of a real MySQL: the snapshot over the binary protocol
 * (the default), over the text protocol (a user's {@code useServerPrepStmts=false}, where the
 * column itself would print only 6 digits), and the binlog, for values that need 9 significant
 * digits to round-trip.
 */
class FloatExactnessIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    /** f FLOAT, f3 FLOAT(10,3), fu FLOAT UNSIGNED per row id. */
    private static final String[] LITERALS = {
        "16777217, 1234.568, 3.4028234663852886e38",
        "0.100000009, -0.001, 1.4e-45",
        "3.1415927, 9999999.999, 0.1",
        "-0e0, 0.001, 16777215",
        "-1.17549435e-38, NULL, NULL"
    };

    /** The stored floats of {@link #LITERALS}, not MySQL's printed digits. */
    private static final Object[][] STORED = {
        {16777216f, 1234.568f, Float.MAX_VALUE},
        {Math.nextUp(0.1f), -0.001f, Float.MIN_VALUE},
        {3.1415927f, 1.0E7f, 0.1f},
        {-0.0f, 0.001f, 16777215f},
        {-Float.MIN_NORMAL, null, null}
    };

    @Test
    void snapshotOverBothProtocolsAndBinlogGiveTheStoredFloat() throws Exception {
        DB.execute(
                "CREATE TABLE floats (id INT NOT NULL PRIMARY KEY, f FLOAT, f3 FLOAT(10,3),"
                        + " fu FLOAT UNSIGNED)");
        for (int r = 0; r < LITERALS.length; r++) {
            DB.execute("INSERT INTO floats VALUES (" + (r + 1) + ", " + LITERALS[r] + ")");
        }
        DB.execute("INSERT INTO floats (id) VALUES (" + (LITERALS.length + 1) + ")");
        TableId id = TableId.of(DB.name(), "floats");
        TableSchema schema;
        ChunkKey key;
        try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
            schema = JdbcSchemaReader.read(c, id);
            key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(c, id), Optional.empty());
        }
        Map<Integer, List<Object>> expected = new TreeMap<>();
        for (int r = 0; r < STORED.length; r++) {
            expected.put(r + 1, Arrays.asList(STORED[r]));
        }
        expected.put(LITERALS.length + 1, Arrays.asList(null, null, null));

        Map<Integer, List<Object>> binary = snapshot(connectorConfig(DB), key, schema);
        Map<Integer, List<Object>> text =
                snapshot(
                        connectorConfig(DB).toBuilder()
                                .jdbcProperty("useServerPrepStmts", "false")
                                .build(),
                        key,
                        schema);
        assertThat(binary).as("snapshot, binary protocol").isEqualTo(expected);
        assertThat(text).as("snapshot, text protocol").isEqualTo(expected);
        assertThat(text.get(4).get(0)).as("-0 stays -0").isEqualTo(-0.0f);

        // The same values through the binlog: inserted under new ids, and set by an update.
        String before = DB.server().gtidExecuted();
        for (int r = 0; r < LITERALS.length; r++) {
            DB.execute("INSERT INTO floats VALUES (" + (r + 101) + ", " + LITERALS[r] + ")");
        }
        DB.execute(
                "UPDATE floats SET f = 0.100000009, f3 = 1234.568, fu = 1.4e-45 WHERE id = "
                        + (LITERALS.length + 1));
        BinlogCapture capture =
                BinlogCapture.capture(
                        connectorConfig(DB),
                        DB.name(),
                        before,
                        cap -> cap.count("floats", "update") == 1);
        RowConverter converter = RowConverter.of(schema);
        Map<Integer, List<Object>> binlog = new TreeMap<>();
        List<Object> updated = null;
        for (BinlogCapture.Change ch : capture.changes) {
            GenericRowData row = converter.fromBinlog(ch.after);
            if (ch.kind.equals("insert")) {
                binlog.put(row.getInt(0) - 100, floats(row));
            } else {
                assertThat(floats(converter.fromBinlog(ch.before)))
                        .isEqualTo(Arrays.asList(null, null, null));
                updated = floats(row);
            }
        }
        Map<Integer, List<Object>> snapshotWithValues = new TreeMap<>(binary);
        snapshotWithValues.remove(LITERALS.length + 1);
        assertThat(binlog).as("binlog inserts").isEqualTo(snapshotWithValues);
        assertThat(updated)
                .as("binlog update")
                .containsExactly(Math.nextUp(0.1f), 1234.568f, Float.MIN_VALUE);
    }

    private static Map<Integer, List<Object>> snapshot(
            MySqlConnectionConfig config, ChunkKey key, TableSchema schema) throws Exception {
        Map<Integer, List<Object>> rows = new TreeMap<>();
        try (ChunkReader reader = new ChunkReader(config, SnapshotReadOptions.defaults())) {
            ChunkResult result =
                    reader.read(
                            new SnapshotChunk(schema.tableId(), 0, ChunkRange.all()),
                            TableReadSpec.forSchema(key, schema));
            for (RowData row : result.rows()) {
                rows.put(row.getInt(0), floats((GenericRowData) row));
            }
        }
        return rows;
    }

    private static List<Object> floats(GenericRowData row) {
        List<Object> out = new ArrayList<>();
        for (int i = 1; i < row.getArity(); i++) {
            out.add(row.getField(i));
        }
        return out;
    }
}

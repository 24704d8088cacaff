package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.capstan.flink.mysql.table.SqlItSupport.awaitBinlogReader;
import static io.capstan.flink.mysql.table.SqlItSupport.binlogDumpThreads;
import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.initialOptions;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What is stored, not what MySQL prints, on a real MySQL: a FLOAT declared FLOAT, DOUBLE or DECIMAL
 * is the stored float (values that need 9 significant digits, where MySQL prints 6), and a spatial
 * value declared STRING carries its stored SRID as mysql-cdc's text does. Each job reads snapshot
 * rows, then the same values inserted and updated through the binlog.
 */
class StoredFloatAndSridIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private StreamTableEnvironment tEnv;

    @BeforeEach
    void setUp() {
        tEnv = SqlItSupport.tableEnv();
    }

    @Test
    void aFloatDeclaredFloatDoubleOrDecimalIsTheStoredFloatInSnapshotAndBinlog() throws Exception {
        // MySQL prints these as 1.67772e7, 0.1 and 3.14159.
        String[] literals = {"16777217", "0.100000009", "3.1415927"};
        float[] stored = {16777216f, Math.nextUp(0.1f), 3.1415927f};
        String[] decimals = {"16777216.0000000000", "0.1000000089", "3.1415927410"};
        DB.execute(
                "CREATE TABLE floats (id INT NOT NULL PRIMARY KEY, f FLOAT, fd FLOAT, fdec FLOAT)");
        for (int r = 0; r < literals.length; r++) {
            DB.execute(insert("floats", r + 1, literals[r], 3));
        }
        tEnv.executeSql(
                createTable(
                        "floats",
                        "id INT NOT NULL, f FLOAT, fd DOUBLE, fdec DECIMAL(20, 10),"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        initialOptions(DB, "floats")));
        Map<Integer, List<Object>> expected = new TreeMap<>();
        for (int r = 0; r < literals.length; r++) {
            expected.put(
                    r + 1,
                    Arrays.asList(stored[r], (double) stored[r], new BigDecimal(decimals[r])));
        }
        List<Row> rows =
                snapshotThenBinlog(
                        "floats",
                        literals.length,
                        insertsOf("floats", literals, 3),
                        "UPDATE floats SET f = 0.100000009, fd = 0.100000009, fdec = 0.100000009"
                                + " WHERE id = 11");
        assertSnapshotBinlogAndUpdate(rows, literals.length, expected, expected.get(2));
    }

    @Test
    void aSpatialValueDeclaredStringCarriesItsStoredSrid() throws Exception {
        String[] literals = {
            "ST_GeomFromText('POINT(1 2)', 4326)", "ST_GeomFromText('POINT(1 2)')",
        };
        DB.execute(
                "CREATE TABLE places (id INT NOT NULL PRIMARY KEY, p POINT SRID 4326 NULL,"
                        + " g GEOMETRY NULL, wkb POINT SRID 4326 NULL)",
                "INSERT INTO places VALUES (1, "
                        + literals[0]
                        + ", "
                        + literals[0]
                        + ", "
                        + literals[0]
                        + ")",
                "INSERT INTO places VALUES (2, NULL, " + literals[1] + ", NULL)");
        // A geographic SRID stores longitude first: the WKT's (lat 1, long 2) is x = 2, y = 1.
        String wgs84 = "{\"coordinates\":[2,1],\"type\":\"Point\",\"srid\":4326}";
        String plain = "{\"coordinates\":[1,2],\"type\":\"Point\",\"srid\":0}";
        byte[] stored = storedBytes("places", "wkb", 1);
        assertThat(Arrays.copyOfRange(stored, 0, 4)).containsExactly(0xE6, 0x10, 0, 0);
        byte[] wkb = Arrays.copyOfRange(stored, 4, stored.length);
        assertThat(ByteBuffer.wrap(wkb, 5, 16).order(ByteOrder.LITTLE_ENDIAN).getDouble())
                .isEqualTo(2.0);
        tEnv.executeSql(
                createTable(
                        "places",
                        "id INT NOT NULL, p STRING, g STRING, wkb BYTES,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        initialOptions(DB, "places")));
        Map<Integer, List<Object>> expected = new TreeMap<>();
        expected.put(1, Arrays.asList(wgs84, wgs84, wkb));
        expected.put(2, Arrays.asList(null, plain, null));
        List<Row> rows =
                snapshotThenBinlog(
                        "places",
                        2,
                        List.of(
                                "INSERT INTO places SELECT id + 10, p, g, wkb FROM places"
                                        + " WHERE id = 1",
                                "INSERT INTO places VALUES (12, NULL, " + literals[1] + ", NULL)"),
                        "UPDATE places SET g = " + literals[0] + " WHERE id = 12");
        assertSnapshotBinlogAndUpdate(rows, 2, expected, Arrays.asList(null, wgs84, null));
    }

    /**
     * Starts {@code SELECT * FROM table} (snapshot of {@code snapshotRows} rows), then runs {@code
     * inserts} (one row each, ids + 10) and {@code update} through the binlog; returns the rows.
     */
    private List<Row> snapshotThenBinlog(
            String table, int snapshotRows, List<String> inserts, String update) throws Exception {
        Set<Long> before = binlogDumpThreads(DB);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM " + table))) {
            awaitBinlogReader(DB, before, TIMEOUT);
            DB.execute(inserts.toArray(new String[0]));
            DB.execute(update);
            return changes.awaitCount(snapshotRows + inserts.size() + 2, TIMEOUT);
        }
    }

    private static void assertSnapshotBinlogAndUpdate(
            List<Row> rows, int n, Map<Integer, List<Object>> expected, List<Object> updated) {
        Map<Integer, List<Object>> snapshot = new TreeMap<>();
        Map<Integer, List<Object>> binlog = new TreeMap<>();
        for (Row r : rows.subList(0, 2 * n)) {
            assertThat(r.getKind()).isEqualTo(RowKind.INSERT);
            int id = (Integer) r.getField(0);
            (id < 10 ? snapshot : binlog).put(id % 10, values(r));
        }
        assertThat(snapshot).as("snapshot").usingRecursiveComparison().isEqualTo(expected);
        assertThat(binlog).as("binlog").usingRecursiveComparison().isEqualTo(expected);
        assertThat(rows.get(2 * n).getKind()).isEqualTo(RowKind.UPDATE_BEFORE);
        assertThat(values(rows.get(2 * n)))
                .usingRecursiveComparison()
                .isEqualTo(expected.get(rows.get(2 * n).getField(0).equals(11) ? 1 : 2));
        assertThat(rows.get(2 * n + 1).getKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(values(rows.get(2 * n + 1))).usingRecursiveComparison().isEqualTo(updated);
    }

    private static List<Object> values(Row r) {
        List<Object> out = new ArrayList<>();
        for (int i = 1; i < r.getArity(); i++) {
            out.add(r.getField(i));
        }
        return out;
    }

    private static String insert(String table, int id, String literal, int columns) {
        return "INSERT INTO " + table + " VALUES (" + id + (", " + literal).repeat(columns) + ")";
    }

    private static List<String> insertsOf(String table, String[] literals, int columns) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < literals.length; r++) {
            out.add(insert(table, r + 11, literals[r], columns));
        }
        return out;
    }

    private static byte[] storedBytes(String table, String column, int id) throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT " + column + " FROM " + table + " WHERE id = " + id)) {
            assertThat(rs.next()).isTrue();
            return rs.getBytes(1);
        }
    }
}

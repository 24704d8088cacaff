package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.capstan.flink.mysql.table.SqlItSupport.awaitBinlogReader;
import static io.capstan.flink.mysql.table.SqlItSupport.binlogDumpThreads;
import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.gtidExecuted;
import static io.capstan.flink.mysql.table.SqlItSupport.initialOptions;
import static io.capstan.flink.mysql.table.SqlItSupport.options;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The declared types mysql-cdc's type table documents, on a real MySQL: each job reads snapshot
 * rows, then the same values inserted and updated through the binlog, and compares them with what
 * MySQL shows for them (a session in the zone for TIMESTAMP, the stored float for FLOAT, the stored
 * double for DOUBLE, the SET's text in definition order).
 */
class MySqlCdcDeclaredTypesIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** Written in UTC; MySQL stores TIMESTAMP as the instant. */
    private static final String[] ROWS = {
        "'2024-02-29 23:00:00.123', 'blue,red', 1.0005, 1.005,"
                + " '{\"b\": [1, 2.5], \"a\": \"x, y: z\"}'",
        "'1970-01-01 00:00:01', '', 0.125, -0.125, '[]'",
        "NULL, NULL, NULL, NULL, NULL"
    };

    private StreamTableEnvironment tEnv;

    @BeforeEach
    void setUp() {
        tEnv = SqlItSupport.tableEnv();
    }

    @Test
    void timestampSetFloatDoubleJsonAndOpTsAsMySqlCdcDeclaresThemInSnapshotAndBinlog()
            throws Exception {
        DB.execute(
                "CREATE TABLE mixed (id INT NOT NULL PRIMARY KEY, ts TIMESTAMP(3) NULL,"
                        + " tags SET('red','green','blue','x y'), weight FLOAT, price DOUBLE,"
                        + " doc JSON)",
                "SET time_zone = '+00:00'",
                "INSERT INTO mixed VALUES (1, " + ROWS[0] + ")",
                "INSERT INTO mixed VALUES (2, " + ROWS[1] + ")",
                "INSERT INTO mixed VALUES (3, " + ROWS[2] + ")");
        Map<String, String> o = initialOptions(DB, "mixed");
        o.put("server-time-zone", "Asia/Kolkata"); // +05:30 all year
        tEnv.executeSql(
                createTable(
                        "mixed",
                        "id INT NOT NULL, ts TIMESTAMP(3), tags ARRAY<STRING>,"
                                + " weight DECIMAL(10, 3), price DECIMAL(10, 2), doc STRING,"
                                + " op_ts TIMESTAMP_LTZ(3) NOT NULL METADATA VIRTUAL,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        o));
        Set<Long> before = binlogDumpThreads(DB);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM mixed"))) {
            awaitBinlogReader(DB, before, TIMEOUT);
            Instant binlogStart = Instant.now().minusSeconds(5);
            DB.execute(
                    "SET time_zone = '+00:00'",
                    "INSERT INTO mixed VALUES (11, " + ROWS[0] + ")",
                    "INSERT INTO mixed VALUES (12, " + ROWS[1] + ")",
                    "INSERT INTO mixed VALUES (13, " + ROWS[2] + ")",
                    "UPDATE mixed SET tags = 'x y,green', price = 2.675, ts = '2024-06-30"
                            + " 18:30:00' WHERE id = 11");
            List<Row> rows = changes.awaitCount(8, TIMEOUT);
            Map<Integer, List<Object>> expected = mysqlMeaning("mixed", "+05:30");
            Map<Integer, List<Object>> snapshot = new TreeMap<>();
            Map<Integer, List<Object>> binlog = new TreeMap<>();
            for (Row r : rows.subList(0, 6)) {
                assertThat(r.getKind()).isEqualTo(RowKind.INSERT);
                int id = (Integer) r.getField(0);
                Instant opTs = (Instant) r.getField(6);
                if (id < 10) {
                    assertThat(opTs).as("op_ts of a snapshot row").isEqualTo(Instant.EPOCH);
                    snapshot.put(id, values(r));
                } else {
                    assertThat(opTs).as("op_ts of a binlog row").isAfter(binlogStart);
                    binlog.put(id - 10, values(r));
                }
            }
            Map<Integer, List<Object>> original = new TreeMap<>(expected);
            original.remove(11); // updated
            original.remove(12);
            original.remove(13);
            assertThat(snapshot).as("snapshot").isEqualTo(original);
            assertThat(binlog).as("binlog").isEqualTo(original);
            // The literal values, so that the comparison with MySQL cannot agree on a wrong form.
            assertThat(snapshot.get(1))
                    .containsExactly(
                            LocalDateTime.of(2024, 3, 1, 4, 30, 0, 123_000_000),
                            List.of("red", "blue"),
                            new BigDecimal("1.000"), // 1.000499963..., printed as 1.0005
                            new BigDecimal("1.00"),
                            "{\"a\":\"x, y: z\",\"b\":[1,2.5]}");
            assertThat(snapshot.get(2))
                    .containsExactly(
                            LocalDateTime.of(1970, 1, 1, 5, 30, 1),
                            List.of(),
                            new BigDecimal("0.125"),
                            new BigDecimal("-0.13"),
                            "[]");

            assertThat(rows.get(6).getKind()).isEqualTo(RowKind.UPDATE_BEFORE);
            assertThat(values(rows.get(6))).isEqualTo(original.get(1));
            assertThat(rows.get(7).getKind()).isEqualTo(RowKind.UPDATE_AFTER);
            assertThat(values(rows.get(7))).isEqualTo(expected.get(11));
            assertThat(values(rows.get(7)).subList(0, 4))
                    .containsExactly(
                            LocalDateTime.of(2024, 7, 1, 0, 0),
                            List.of("green", "x y"),
                            new BigDecimal("1.000"),
                            new BigDecimal("2.67")); // 2.675 is stored as 2.67499999...

            // A DOUBLE with more integer digits than DECIMAL(10, 2) holds halts the job.
            DB.execute("INSERT INTO mixed (id, price) VALUES (20, 1.5e10)");
            Throwable failure = catchThrowable(() -> changes.awaitCount(9, TIMEOUT));
            assertThat(failure).isNotNull();
            assertThat(allMessages(failure))
                    .contains("[invalid_configuration]")
                    .contains("`" + DB.name() + "`.`mixed`")
                    .contains("column 'price'")
                    .contains("DECIMAL(10, 2)")
                    .doesNotContain("15000000000")
                    .doesNotContain("1.5E10");
        }
    }

    /**
     * Each spatial kind declared STRING: mysql-cdc's JSON text. Row 1 holds the inputs of
     * mysql-cdc's "Spatial Data Types Mapping" table (apache/flink-cdc,
     * docs/content/docs/connectors/ flink-sources/mysql-cdc.md) and expects its outputs; row 2's
     * texts were produced by mysql-cdc's conversion chain (Esri geometry-api 2.2.4 and Jackson, as
     * in MySqlDeserializationConverterFactory) from the same WKB, outside this repository: negative
     * and fractional numbers, a nested and an empty collection, a clockwise outer ring and a
     * counter-clockwise hole (turned), one-member multi-geometries.
     */
    @Test
    void spatialColumnsDeclaredStringAreMySqlCdcsJsonTextInSnapshotAndBinlog() throws Exception {
        String[] columns = {
            "g GEOMETRY",
            "p POINT",
            "l LINESTRING",
            "pg POLYGON",
            "mp MULTIPOINT",
            "ml MULTILINESTRING",
            "mpg MULTIPOLYGON",
            "gc GEOMETRYCOLLECTION"
        };
        String[][] wkt = {
            {
                "POINT(1 1)",
                "POINT(1 1)",
                "LINESTRING(3 0, 3 3, 3 5)",
                "POLYGON((1 1, 2 1, 2 2,  1 2, 1 1))",
                "MULTIPOINT((1 1),(2 2))",
                "MultiLineString((1 1,2 2,3 3),(4 4,5 5))",
                "MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0)), ((5 5, 7 5, 7 7, 5 7, 5 5)))",
                "GEOMETRYCOLLECTION(POINT(10 10), POINT(30 30), LINESTRING(15 15, 20 20))"
            },
            {
                "GEOMETRYCOLLECTION(POINT(1 2), GEOMETRYCOLLECTION(POINT(3 4), LINESTRING(1 1, 2 2)))",
                "POINT(-1.5 2.25)",
                "LINESTRING(-0.5 0.1, 1e-7 123456789012.5)",
                "POLYGON((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 4 2, 4 4, 2 4, 2 2))",
                "MULTIPOINT((1 1))",
                "MULTILINESTRING((1 1, 2 2))",
                "MULTIPOLYGON(((1 1, 1 2, 2 2, 2 1, 1 1)))",
                "GEOMETRYCOLLECTION()"
            }
        };
        String crs = "\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:4326\"}}";
        List<Object> row1 =
                Arrays.asList(
                        "{\"coordinates\":[1,1],\"type\":\"Point\",\"srid\":0}",
                        "{\"coordinates\":[1,1],\"type\":\"Point\",\"srid\":0}",
                        "{\"coordinates\":[[3,0],[3,3],[3,5]],\"type\":\"LineString\",\"srid\":0}",
                        "{\"coordinates\":[[[1,1],[2,1],[2,2],[1,2],[1,1]]],\"type\":\"Polygon\",\"srid\":0}",
                        "{\"coordinates\":[[1,1],[2,2]],\"type\":\"MultiPoint\",\"srid\":0}",
                        "{\"coordinates\":[[[1,1],[2,2],[3,3]],[[4,4],[5,5]]],\"type\":\"MultiLineString\",\"srid\":0}",
                        "{\"coordinates\":[[[[0,0],[10,0],[10,10],[0,10],[0,0]]],[[[5,5],[7,5],[7,7],[5,7],[5,5]]]],\"type\":\"MultiPolygon\",\"srid\":0}",
                        "{\"geometries\":[{\"type\":\"Point\",\"coordinates\":[10,10]},{\"type\":\"Point\",\"coordinates\":[30,30]},{\"type\":\"LineString\",\"coordinates\":[[15,15],[20,20]]}],\"type\":\"GeometryCollection\",\"srid\":0}");
        List<Object> row2 =
                Arrays.asList(
                        "{\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2]},{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Point\",\"coordinates\":[3,4]},{\"type\":\"LineString\",\"coordinates\":[[1,1],[2,2]]}],"
                                + crs
                                + "}],\"type\":\"GeometryCollection\",\"srid\":0}",
                        "{\"coordinates\":[-1.5,2.25],\"type\":\"Point\",\"srid\":0}",
                        "{\"coordinates\":[[-0.5,0.1],[1.0E-7,1.234567890125E11]],\"type\":\"LineString\",\"srid\":0}",
                        "{\"coordinates\":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]],\"type\":\"Polygon\",\"srid\":0}",
                        "{\"coordinates\":[[1,1]],\"type\":\"MultiPoint\",\"srid\":0}",
                        "{\"coordinates\":[[[1,1],[2,2]]],\"type\":\"MultiLineString\",\"srid\":0}",
                        "{\"coordinates\":[[[[1,1],[2,1],[2,2],[1,2],[1,1]]]],\"type\":\"MultiPolygon\",\"srid\":0}",
                        "{\"geometries\":[],\"type\":\"GeometryCollection\",\"srid\":0}");
        List<Object> row3 = Arrays.asList(new Object[8]);
        String[] values = new String[3];
        for (int r = 0; r < 2; r++) {
            StringBuilder v = new StringBuilder();
            for (String w : wkt[r]) {
                v.append(", ST_GeomFromText('").append(w).append("')");
            }
            values[r] = v.toString();
        }
        values[2] = ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL";
        DB.execute(
                "CREATE TABLE shapes (id INT NOT NULL PRIMARY KEY, "
                        + String.join(", ", columns)
                        + ")",
                "INSERT INTO shapes VALUES (1" + values[0] + ")",
                "INSERT INTO shapes VALUES (2" + values[1] + ")",
                "INSERT INTO shapes VALUES (3" + values[2] + ")");
        StringBuilder declared = new StringBuilder("id INT NOT NULL");
        for (String c : columns) {
            declared.append(", ").append(c.substring(0, c.indexOf(' '))).append(" STRING");
        }
        declared.append(", PRIMARY KEY (id) NOT ENFORCED");
        tEnv.executeSql(createTable("shapes", declared.toString(), initialOptions(DB, "shapes")));
        Set<Long> before = binlogDumpThreads(DB);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM shapes"))) {
            awaitBinlogReader(DB, before, TIMEOUT);
            DB.execute(
                    "INSERT INTO shapes VALUES (11" + values[0] + ")",
                    "INSERT INTO shapes VALUES (12" + values[1] + ")",
                    "INSERT INTO shapes VALUES (13" + values[2] + ")",
                    "UPDATE shapes SET p = ST_GeomFromText('POINT(-2.5 0.125)'),"
                            + " gc = ST_GeomFromText('GEOMETRYCOLLECTION()') WHERE id = 11");
            List<Row> rows = changes.awaitCount(8, TIMEOUT);
            Map<Integer, List<Object>> read = new TreeMap<>();
            for (Row r : rows.subList(0, 6)) {
                assertThat(r.getKind()).isEqualTo(RowKind.INSERT);
                read.put((Integer) r.getField(0), shapeValues(r));
            }
            Map<Integer, List<Object>> expected = new TreeMap<>();
            expected.put(1, row1);
            expected.put(2, row2);
            expected.put(3, row3);
            expected.put(11, row1);
            expected.put(12, row2);
            expected.put(13, row3);
            assertThat(read).isEqualTo(expected);

            assertThat(rows.get(6).getKind()).isEqualTo(RowKind.UPDATE_BEFORE);
            assertThat(shapeValues(rows.get(6))).isEqualTo(row1);
            assertThat(rows.get(7).getKind()).isEqualTo(RowKind.UPDATE_AFTER);
            List<Object> updated = new java.util.ArrayList<>(row1);
            updated.set(1, "{\"coordinates\":[-2.5,0.125],\"type\":\"Point\",\"srid\":0}");
            updated.set(7, row2.get(7));
            assertThat(shapeValues(rows.get(7))).isEqualTo(updated);
        }
    }

    private static List<Object> shapeValues(Row r) {
        List<Object> out = new java.util.ArrayList<>();
        for (int i = 1; i < r.getArity(); i++) {
            out.add(r.getField(i));
        }
        return out;
    }

    // ------------------------------------------- debezium.binary.handling.mode, op_ts as epoch

    /**
     * With {@code debezium.binary.handling.mode}, binary columns declared STRING are the text
     * Debezium makes of their bytes, compared with MySQL's own TO_BASE64 and HEX; a nullable {@code
     * op_ts} with {@code metadata.op-ts.snapshot-rows = 'epoch'} is 0 for snapshot rows; {@code
     * debezium.enable.time.adjuster = 'true'} is accepted (no DATE, DATETIME or YEAR column).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"base64, TO_BASE64(%s)", "hex, LOWER(HEX(%s))"})
    void binaryColumnsAsDebeziumTextAndOpTsAsEpochInSnapshotAndBinlog(String mode, String function)
            throws Exception {
        String table = "bin_" + mode;
        String rows = "(1, x'0102ff', x'00'), (2, x'', NULL), (3, NULL, REPEAT(x'fe', 100))";
        DB.execute(
                "CREATE TABLE "
                        + table
                        + " (id INT NOT NULL PRIMARY KEY, b VARBINARY(16),"
                        + " blob_c BLOB)",
                "INSERT INTO " + table + " VALUES " + rows);
        Map<String, String> o = initialOptions(DB, table);
        o.put("debezium.binary.handling.mode", mode);
        o.put("debezium.enable.time.adjuster", "true");
        o.put("metadata.op-ts.snapshot-rows", "epoch");
        tEnv.executeSql(
                createTable(
                        table,
                        "id INT NOT NULL, b STRING, blob_c STRING,"
                                + " op_ts TIMESTAMP_LTZ(3) METADATA VIRTUAL,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        o));
        Set<Long> before = binlogDumpThreads(DB);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM " + table))) {
            awaitBinlogReader(DB, before, TIMEOUT);
            Instant binlogStart = Instant.now().minusSeconds(5);
            DB.execute(
                    "INSERT INTO "
                            + table
                            + " VALUES (11, x'0102ff', x'00'), (12, x'', NULL),"
                            + " (13, NULL, REPEAT(x'fe', 100))");
            List<Row> got = changes.awaitCount(6, TIMEOUT);
            Map<Integer, List<Object>> mysql = new TreeMap<>();
            try (Connection c = DB.openRootConnection();
                    Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery(
                                    "SELECT id, "
                                            + String.format(function, "b")
                                            + ", "
                                            + String.format(function, "blob_c")
                                            + " FROM "
                                            + table)) {
                while (rs.next()) {
                    // TO_BASE64 breaks lines every 76 characters; Debezium's text does not
                    mysql.put(
                            rs.getInt(1),
                            Arrays.asList(unwrap(rs.getString(2)), unwrap(rs.getString(3))));
                }
            }
            for (Row r : got) {
                int id = (Integer) r.getField(0);
                assertThat(Arrays.asList(r.getField(1), r.getField(2)))
                        .as("row %s", id)
                        .isEqualTo(mysql.get(id));
                Instant opTs = (Instant) r.getField(3);
                if (id < 10) {
                    assertThat(opTs).as("op_ts of a snapshot row").isEqualTo(Instant.EPOCH);
                } else {
                    assertThat(opTs).as("op_ts of a binlog row").isAfter(binlogStart);
                }
            }
            assertThat(mysql.get(1))
                    .containsExactly(
                            mode.equals("hex") ? "0102ff" : "AQL/",
                            mode.equals("hex") ? "00" : "AA==");
            assertThat(mysql.get(2)).containsExactly("", null);
        }
    }

    private static String unwrap(String text) {
        return text == null ? null : text.replace("\n", "");
    }

    // ------------------------------------------------------- narrower declarations, checked

    private static final String NARROW_MYSQL =
            " (id INT NOT NULL PRIMARY KEY, big_u BIGINT UNSIGNED, big_u_as_big BIGINT UNSIGNED,"
                    + " int_u INT UNSIGNED, name VARCHAR(255))";

    /** As mysql-cdc tables declare them: each narrower than the MySQL column. */
    private static final String NARROW_DECLARED =
            "id INT NOT NULL, big_u INT, big_u_as_big BIGINT, int_u INT, name VARCHAR(50),"
                    + " PRIMARY KEY (id) NOT ENFORCED";

    /** The largest values of the declared types; 50 characters of 3 UTF-8 bytes each. */
    private static final String NARROW_FITTING =
            "2147483647, 9223372036854775807, 2147483647, REPEAT('测', 50)";

    @Test
    void narrowerDeclarationsReadEveryFittingValueAlikeInSnapshotAndBinlog() throws Exception {
        DB.execute(
                "CREATE TABLE narrow" + NARROW_MYSQL,
                "INSERT INTO narrow VALUES (1, "
                        + NARROW_FITTING
                        + "), (2, 0, 0, 0, ''),"
                        + " (3, NULL, NULL, NULL, NULL)");
        tEnv.executeSql(createTable("narrow", NARROW_DECLARED, initialOptions(DB, "narrow")));
        Set<Long> before = binlogDumpThreads(DB);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM narrow"))) {
            awaitBinlogReader(DB, before, TIMEOUT);
            DB.execute(
                    "INSERT INTO narrow VALUES (11, "
                            + NARROW_FITTING
                            + "), (12, 0, 0, 0, ''),"
                            + " (13, NULL, NULL, NULL, NULL)");
            List<Row> rows = changes.awaitCount(6, TIMEOUT);
            Map<Integer, String> snapshot = new TreeMap<>();
            Map<Integer, String> binlog = new TreeMap<>();
            for (Row r : rows) {
                int id = (Integer) r.getField(0);
                Row values = Row.project(r, new int[] {1, 2, 3, 4});
                (id < 10 ? snapshot : binlog).put(id % 10, values.toString());
            }
            String fifty = "测".repeat(50);
            assertThat(snapshot)
                    .containsEntry(
                            1, "+I[2147483647, 9223372036854775807, 2147483647, " + fifty + "]")
                    .containsEntry(2, "+I[0, 0, 0, ]")
                    .containsEntry(3, "+I[null, null, null, null]");
            assertThat(binlog).as("binlog").isEqualTo(snapshot);
            assertThat(rows.get(0).getField(1)).isInstanceOf(Integer.class);
            assertThat(rows.get(0).getField(2)).isInstanceOf(Long.class);
        }
    }

    /**
     * A value the narrower declared type cannot hold halts with {@code invalid_configuration}
     * naming table, column and declared type, never the value; never wrapped or cut. Each column,
     * read by the snapshot and by the binlog.
     */
    @ParameterizedTest(name = "{0} via {2}")
    @CsvSource({
        "big_u, 2147483648, snapshot, INT",
        "big_u, 2147483648, binlog, INT",
        "big_u_as_big, 9223372036854775808, snapshot, BIGINT",
        "big_u_as_big, 18446744073709551615, binlog, BIGINT",
        "int_u, 4294967295, snapshot, INT",
        "int_u, 2147483648, binlog, INT",
        "name, 51 x, snapshot, VARCHAR(50)",
        "name, 51 测, binlog, VARCHAR(50)"
    })
    void aValueTheNarrowerDeclarationCannotHoldHalts(
            String column, String value, String path, String declared) throws Exception {
        String table = "narrow_" + column + "_" + path;
        // "51 x": a text of 51 characters x, one more than the declared length
        boolean text = value.startsWith("51 ");
        String shown = text ? value.substring(3).repeat(51) : value;
        String literal = text ? "'" + shown + "'" : value;
        DB.execute(
                "CREATE TABLE " + table + NARROW_MYSQL,
                "INSERT INTO " + table + " VALUES (1, " + NARROW_FITTING + ")");
        String bad = "INSERT INTO " + table + " (id, " + column + ") VALUES (2, " + literal + ")";
        Map<String, String> o;
        if (path.equals("snapshot")) {
            DB.execute(bad);
            o = initialOptions(DB, table);
            o.put("scan.startup.mode", "snapshot");
        } else {
            o = options(DB, table, gtidExecuted(DB));
        }
        tEnv.executeSql(createTable(table, NARROW_DECLARED, o));
        Throwable failure;
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM " + table))) {
            if (path.equals("binlog")) {
                DB.execute("INSERT INTO " + table + " VALUES (3, " + NARROW_FITTING + ")");
                assertThat(changes.awaitCount(1, TIMEOUT).get(0).getField(0)).isEqualTo(3);
                DB.execute(bad);
            }
            failure = catchThrowable(() -> changes.awaitCount(Integer.MAX_VALUE, TIMEOUT));
        }
        assertThat(failure).isNotNull();
        assertThat(allMessages(failure))
                .contains("[invalid_configuration]")
                .contains("`" + DB.name() + "`.`" + table + "`")
                .contains("column '" + column + "' holds a value that the declared " + declared)
                .doesNotContain(shown);
    }

    @Test
    void jsonWithoutTheLegacyFormatIsTheTextMySqlPrints() throws Exception {
        DB.execute(
                "CREATE TABLE docs (id INT NOT NULL PRIMARY KEY, doc JSON)",
                "INSERT INTO docs VALUES (1, '{\"b\": [1, 2.5], \"a\": \"x, y: z\"}'), (2, NULL)");
        Map<String, String> o = initialOptions(DB, "docs");
        o.put("scan.startup.mode", "snapshot");
        o.put("use.legacy.json.format", "false");
        tEnv.executeSql(createTable("docs", "id INT NOT NULL, doc STRING", o));
        Map<Integer, Object> read = new HashMap<>();
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT id, doc FROM docs").collect()) {
            it.forEachRemaining(r -> read.put((Integer) r.getField(0), r.getField(1)));
        }
        Map<Integer, Object> mysql = new HashMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, CAST(doc AS CHAR) FROM docs")) {
            while (rs.next()) {
                mysql.put(rs.getInt(1), rs.getString(2));
            }
        }
        assertThat(read).isEqualTo(mysql);
        assertThat(read.get(1)).isEqualTo("{\"a\": \"x, y: z\", \"b\": [1, 2.5]}");
    }

    @Test
    void timestampIsTheWallClockInTheServersOwnTimeZoneWithoutTheOption() throws Exception {
        DB.execute(
                "CREATE TABLE wall (id INT NOT NULL PRIMARY KEY, ts TIMESTAMP NULL,"
                        + " ts_ltz TIMESTAMP NULL)",
                "SET time_zone = '+00:00'",
                "INSERT INTO wall VALUES (1, '2024-02-29 23:00:00', '2024-02-29 23:00:00'),"
                        + " (2, NULL, NULL)");
        String globalBefore = globalTimeZone();
        try {
            // The shared test server: other test classes of this JVM run before or after this.
            DB.execute("SET GLOBAL time_zone = '+05:30'");
            tEnv.executeSql(
                    createTable(
                            "wall",
                            "id INT NOT NULL, ts TIMESTAMP(0), ts_ltz TIMESTAMP_LTZ(0),"
                                    + " PRIMARY KEY (id) NOT ENFORCED",
                            initialOptions(DB, "wall")));
            Set<Long> before = binlogDumpThreads(DB);
            try (ChangelogCollector changes =
                    new ChangelogCollector(tEnv.executeSql("SELECT id, ts, ts_ltz FROM wall"))) {
                awaitBinlogReader(DB, before, TIMEOUT);
                DB.execute(
                        "SET time_zone = '+00:00'",
                        "INSERT INTO wall VALUES (11, '2024-02-29 23:00:00', '2024-02-29"
                                + " 23:00:00'), (12, NULL, NULL)",
                        "UPDATE wall SET ts = '2024-12-31 20:00:00' WHERE id = 11");
                List<Row> rows = changes.awaitCount(6, TIMEOUT);
                Map<Integer, List<Object>> mysql = new TreeMap<>();
                try (Connection c = DB.openRootConnection();
                        Statement s = c.createStatement()) {
                    s.execute("SET time_zone = '+05:30'");
                    try (ResultSet rs = s.executeQuery("SELECT id, CAST(ts AS CHAR) FROM wall")) {
                        while (rs.next()) {
                            mysql.put(rs.getInt(1), Arrays.asList(dateTime(rs.getString(2))));
                        }
                    }
                }
                Map<Integer, Object> snapshot = new TreeMap<>();
                Map<Integer, Object> binlog = new TreeMap<>();
                for (Row r : rows.subList(0, 4)) {
                    int id = (Integer) r.getField(0);
                    (id < 10 ? snapshot : binlog).put(id % 10, r.getField(1));
                    if (r.getField(2) != null) {
                        assertThat(r.getField(2))
                                .as("TIMESTAMP_LTZ stays the instant")
                                .isEqualTo(Instant.parse("2024-02-29T23:00:00Z"));
                    }
                }
                assertThat(snapshot)
                        .containsEntry(1, mysql.get(1).get(0))
                        .containsEntry(1, LocalDateTime.of(2024, 3, 1, 4, 30))
                        .containsEntry(2, null);
                assertThat(binlog).isEqualTo(snapshot);
                assertThat(rows.get(5).getKind()).isEqualTo(RowKind.UPDATE_AFTER);
                assertThat(rows.get(5).getField(1))
                        .isEqualTo(mysql.get(11).get(0))
                        .isEqualTo(LocalDateTime.of(2025, 1, 1, 1, 30));
            }
        } finally {
            DB.execute("SET GLOBAL time_zone = '" + globalBefore + "'");
        }
    }

    private static String globalTimeZone() throws SQLException {
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@GLOBAL.time_zone")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** ts, tags, weight, price, doc of a row of the 'mixed' table. */
    private static List<Object> values(Row r) {
        Object tags = r.getField(2);
        return Arrays.asList(
                r.getField(1),
                tags == null ? null : Arrays.asList((Object[]) tags),
                r.getField(3),
                r.getField(4),
                r.getField(5));
    }

    /**
     * What MySQL shows for each row of {@code table} in a session in {@code zone}: the TIMESTAMP's
     * wall clock, the SET's members in definition order, the FLOAT and the DOUBLE (their exact
     * values; a FLOAT times 1e0 is its exact double) rounded half-up to the declared scales. JSON
     * as the legacy text: MySQL's printing without the space after separators (checked against a
     * literal above).
     */
    private static Map<Integer, List<Object>> mysqlMeaning(String table, String zone)
            throws SQLException {
        Map<Integer, List<Object>> rows = new TreeMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            s.execute("SET time_zone = '" + zone + "'");
            try (ResultSet rs =
                    s.executeQuery(
                            "SELECT id, CAST(ts AS CHAR), CAST(tags AS CHAR),"
                                    + " CAST(weight * 1e0 AS CHAR), CAST(price AS CHAR),"
                                    + " CAST(doc AS CHAR) FROM "
                                    + table)) {
                while (rs.next()) {
                    String tags = rs.getString(3);
                    String weight = rs.getString(4);
                    String price = rs.getString(5);
                    String doc = rs.getString(6);
                    rows.put(
                            rs.getInt(1),
                            Arrays.asList(
                                    dateTime(rs.getString(2)),
                                    tags == null
                                            ? null
                                            : tags.isEmpty() ? List.of() : List.of(tags.split(",")),
                                    weight == null
                                            ? null
                                            : new BigDecimal(Double.parseDouble(weight))
                                                    .setScale(3, RoundingMode.HALF_UP),
                                    price == null
                                            ? null
                                            : new BigDecimal(Double.parseDouble(price))
                                                    .setScale(2, RoundingMode.HALF_UP),
                                    doc == null ? null : withoutSpaceAfterSeparators(doc)));
                }
            }
        }
        return rows;
    }

    private static LocalDateTime dateTime(String text) {
        return text == null ? null : LocalDateTime.parse(text.replace(' ', 'T'));
    }

    /** The test's own reading of the legacy form, for texts without escaped quotes. */
    private static String withoutSpaceAfterSeparators(String json) {
        boolean inString = false;
        StringBuilder out = new StringBuilder();
        for (char ch : json.toCharArray()) {
            if (ch == '"') {
                inString = !inString;
            }
            if (ch != ' ' || inString) {
                out.append(ch);
            }
        }
        return out.toString();
    }
}

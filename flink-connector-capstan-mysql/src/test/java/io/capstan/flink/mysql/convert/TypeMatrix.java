package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.BinlogSchemaReader;
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

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole type matrix on a real server (MySQL, or MariaDB): JDBC reads match hand-written values,
 * the binlog table map gives the same schema as information_schema, and binlog rows (inserts,
 * update before/after images, delete before images) equal the JDBC rows field by field. MariaDB's
 * JSON is LONGTEXT: its values are the text as written, not MySQL's normalized form.
 */
final class TypeMatrix {

    private final MySqlTestDatabase db;
    private final boolean mariaDb;

    /**
     * @param mariaDb MariaDB stores JSON as text and is read from binlog positions
     */
    TypeMatrix(MySqlTestDatabase db, boolean mariaDb) {
        this.db = db;
        this.mariaDb = mariaDb;
    }

    private static final String MATRIX_DDL =
            "CREATE TABLE matrix ("
                    + "id INT NOT NULL PRIMARY KEY,"
                    + "t_tiny TINYINT, t_tiny_u TINYINT UNSIGNED, t_bool BOOLEAN,"
                    + "t_small SMALLINT, t_small_u SMALLINT UNSIGNED,"
                    + "t_medium MEDIUMINT, t_medium_u MEDIUMINT UNSIGNED,"
                    + "t_int INT, t_year YEAR, t_int_u INT UNSIGNED,"
                    + "t_big BIGINT, t_big_u BIGINT UNSIGNED,"
                    + "t_dec DECIMAL(10,2), t_dec_u DECIMAL(10,2) UNSIGNED, t_dec38 DECIMAL(38,10),"
                    + "t_dec65 DECIMAL(65,30),"
                    + "t_float FLOAT, t_double DOUBLE,"
                    + "t_bit1 BIT(1), t_bit10 BIT(10), t_bit64 BIT(64),"
                    + "t_char CHAR(10) CHARACTER SET utf8mb4, t_varchar VARCHAR(100) CHARACTER SET utf8mb4,"
                    + "t_text TEXT CHARACTER SET utf8mb4,"
                    + "t_char3 CHAR(5) CHARACTER SET utf8mb3, t_varchar3 VARCHAR(50) CHARACTER SET utf8mb3,"
                    + "t_mediumtext3 MEDIUMTEXT CHARACTER SET utf8mb3,"
                    + "t_char_l1 CHAR(5) CHARACTER SET latin1, t_varchar_l1 VARCHAR(50) CHARACTER SET latin1,"
                    + "t_tinytext_l1 TINYTEXT CHARACTER SET latin1, t_longtext_l1 LONGTEXT CHARACTER SET latin1,"
                    + "t_binary BINARY(6), t_varbinary VARBINARY(20), t_tinyblob TINYBLOB, t_blob BLOB,"
                    + "t_mediumblob MEDIUMBLOB, t_longblob LONGBLOB, t_char_bin CHAR(4) CHARACTER SET binary,"
                    + "t_enum ENUM('small','medium','it''s','ünï'), t_set SET('a','b','c','d'),"
                    + "t_json JSON,"
                    + "t_date DATE, t_time TIME, t_time3 TIME(3), t_time6 TIME(6),"
                    + "t_dt DATETIME, t_dt1 DATETIME(1), t_dt3 DATETIME(3), t_dt6 DATETIME(6),"
                    + "t_ts TIMESTAMP NULL, t_ts2 TIMESTAMP(2) NULL, t_ts6 TIMESTAMP(6) NULL,"
                    + "t_geom GEOMETRY, t_point POINT, t_line LINESTRING, t_poly POLYGON,"
                    + "t_mpoint MULTIPOINT, t_mline MULTILINESTRING, t_mpoly MULTIPOLYGON,"
                    + "t_gcoll GEOMETRYCOLLECTION"
                    + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";

    private static final String[] JSON_DOCS = {
        "'{\"b\": [1, 2.5, \"x\"], \"a\": null, \"aa\": {\"nested\": [true, false, {}]}, \"c\": []}'",
        "'\"q\\\\\"\\\\\\\\ \\\\n\\\\t\\\\b\\\\f\\\\r \\\\u0001\\\\u001f é 😀 / <>\"'",
        "'[-1, 0, 1, 32767, 32768, -32769, 2147483647, 2147483648, -9223372036854775808,"
                + " 9223372036854775807, 18446744073709551615]'",
        "'[0.5, -0.0, 1e15, 1e16, 1.5e-15, 1e-16, 123456789.123456789, 1.7976931348623157e308,"
                + " 3.0, 100.0, 0.1, 1e-7, 1234567890123456.8]'",
        "JSON_OBJECT('dec', 1.50, 'dec2', CAST(-12.345 AS DECIMAL(10,3)), 'date', CAST('2020-01-02' AS DATE),"
                + " 'time', CAST('-12:34:56.5' AS TIME(1)), 'time2', CAST('01:02:03' AS TIME),"
                + " 'dt', CAST('2020-01-02 03:04:05.123400' AS DATETIME(6)), 'bin', CAST('ab' AS BINARY),"
                + " 'big', 18446744073709551615, 'neg', -5, 'f', 1.5e0)",
        "'null'",
        "'true'",
        "'{}'",
        "'[]'",
        "'12'",
        "'\"plain\"'",
        "JSON_OBJECT('big', REPEAT('x', 70000), 'arr', JSON_ARRAY(1, 'two', 3.5))",
        "JSON_ARRAY(JSON_OBJECT('k', 'v'), JSON_ARRAY(), NULL, TRUE)",
        "JSON_ARRAY(CAST('838:59:59' AS TIME), CAST('-30:00:00' AS TIME), CAST('-838:59:58.5' AS TIME(1)),"
                + " CAST('-00:00:00.25' AS TIME(2)), CAST('0000-01-01' AS DATE))",
    };

    /** Runs the matrix under another JVM zone, which must not leak into TIMESTAMP or DATETIME. */
    void run() throws Exception {
        TimeZone jvmZone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
        try {
            jdbcMatchesExpectedAndBinlogMatchesJdbc();
        } finally {
            TimeZone.setDefault(jvmZone);
        }
    }

    private void jdbcMatchesExpectedAndBinlogMatchesJdbc() throws Exception {
        db.execute(
                MATRIX_DDL,
                "CREATE TABLE keyed (a INT NOT NULL, b VARCHAR(10) NOT NULL, c INT UNSIGNED, y YEAR,"
                        + " d INT UNSIGNED, e BIGINT UNSIGNED, PRIMARY KEY (b, a)) DEFAULT CHARSET=latin1",
                "CREATE TABLE json_docs (id INT NOT NULL PRIMARY KEY, j JSON)",
                "CREATE TABLE mixed (id INT NOT NULL PRIMARY KEY, g GEOMETRY, c1 VARCHAR(5) CHARSET latin1,"
                        + " j JSON, e ENUM('x', 'y'), c2 VARCHAR(5) CHARSET utf8mb4, p POINT,"
                        + " c3 CHAR(2) CHARSET binary, s SET('m', 'n'), c4 TEXT CHARSET utf8mb3,"
                        + " v INT AS (id * 2) VIRTUAL, st VARCHAR(10) AS (CONCAT(c1, '!')) STORED)");
        String[] before = mariaDb ? binlogPosition() : new String[] {db.server().gtidExecuted()};

        db.execute(
                "SET time_zone = '+05:30'",
                "INSERT INTO matrix VALUES (1,"
                        + "127, 255, TRUE, 32767, 65535, 8388607, 16777215, 2147483647, 2155, 4294967295,"
                        + "9223372036854775807, 18446744073709551615,"
                        + "99999999.99, 12345678.90, 9999999999999999999999999999.9999999999,"
                        + "99999999999999999999999999999999999.999999999999999999999999999999,"
                        + "3.1415927, 1.7976931348623157e308,"
                        + "b'1', b'1000000001', b'1111111111111111111111111111111111111111111111111111111111111111',"
                        + "'héllo😀', 'emoji 😀 and ü', 'text 😀 ✓',"
                        + "'àé', 'Ωmega', 'utf8mb3 ✓',"
                        + "'é€  ', '€ é ß ÿ', 'Œuvre ‰', 'plain latin1 text ',"
                        + "X'610000', X'00FF00', X'DEADBEEF', X'00', X'0102', X'FF', X'6100',"
                        + "'it''s', 'd,a', '{\"b\": [1, 2.5, \"x\"], \"a\": null}',"
                        + "'9999-12-31', '838:59:59', '-838:59:58.999', '-00:00:00.000001',"
                        + "'9999-12-31 23:59:59', '2020-02-29 12:00:00.5', '1000-01-01 00:00:00.001',"
                        + "'2020-01-02 03:04:05.123456',"
                        + "'2020-01-02 03:04:05', '2038-01-19 08:44:07.99', '1970-01-01 05:30:01.000001',"
                        + "ST_GeomFromText('POINT(1 2)'), ST_GeomFromText('POINT(3 4)'),"
                        + "ST_GeomFromText('LINESTRING(0 0, 1 1, 2 3)'),"
                        + "ST_GeomFromText('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))'),"
                        + "ST_GeomFromText('MULTIPOINT(0 0, 1 2)'),"
                        + "ST_GeomFromText('MULTILINESTRING((0 0, 1 1), (2 2, 3 3))'),"
                        + "ST_GeomFromText('MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))'),"
                        + "ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1), LINESTRING(0 0, 1 1))'))",
                "INSERT INTO matrix VALUES (2,"
                        + "-128, 0, FALSE, -32768, 0, -8388608, 0, -2147483648, 1901, 0,"
                        + "-9223372036854775808, 0,"
                        + "-99999999.99, 0.00, -0.0000000001, -0.000000000000000000000000000001,"
                        + "-1.17549435e-38, 0.1e0 + 0.2e0,"
                        + "b'0', b'0', b'1',"
                        + "'', ' lead and trail ', '',"
                        + "'', '', '', ' ', '', '', '',"
                        + "X'', X'', X'', X'', X'', X'', X'',"
                        + "'ünï', '', '[1.0, \"é😀\", {\"k\": false}]',"
                        + "'0001-01-01', '-838:59:59', '00:00:00.001', '-12:34:56.5',"
                        + "'1000-01-01 00:00:00', '0001-01-01 00:00:00.1', '1969-12-31 23:59:59.999',"
                        + "'1969-12-31 23:59:59.999999',"
                        + "'2000-06-30 12:00:00', '1999-12-31 23:59:59.01', '2021-03-14 02:30:00.5',"
                        + "ST_GeomFromText('LINESTRING(1 1, 2 2)'), ST_GeomFromText('POINT(45 7)', 4326),"
                        + "NULL, NULL, NULL, NULL, NULL, NULL)",
                "INSERT INTO matrix (id) VALUES (3)",
                "SET SESSION sql_mode = ''",
                "INSERT INTO matrix (id, t_date, t_dt, t_dt6, t_ts, t_year, t_enum, t_float, t_double,"
                        + " t_char, t_varchar, t_varchar_l1, t_dt1, t_dt3)"
                        + " VALUES (4, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000',"
                        + " '0000-00-00 00:00:00', 0, 'zzz', 16777217, 4.9e-324, 'trail  ', 'keep  ', X'4181',"
                        + " '0000-01-01 00:00:00.5', '2020-02-00 10:00:00')",
                "INSERT INTO matrix (id, t_date, t_dt) VALUES (5, '2020-00-15', '0000-01-01 00:00:00')",
                "INSERT INTO mixed (id, g, c1, j, e, c2, p, c3, s, c4) VALUES (1, ST_GeomFromText('POINT(1 1)'),"
                        + " 'é', '[]', 'y', '😀', ST_GeomFromText('POINT(2 2)'), 'z', 'm,n', 'ü')",
                "INSERT INTO keyed VALUES (7, 'key€', 4294967295, 2020, 4294967294, 18446744073709551614)");
        List<String> jsonInserts = new ArrayList<>();
        for (int k = 0; k < JSON_DOCS.length; k++) {
            jsonInserts.add("INSERT INTO json_docs VALUES (" + (k + 1) + ", " + JSON_DOCS[k] + ")");
        }
        db.execute(jsonInserts.toArray(new String[0]));

        TableId matrixId = TableId.of(db.name(), "matrix");
        TableId keyedId = TableId.of(db.name(), "keyed");
        TableId jsonId = TableId.of(db.name(), "json_docs");
        TableSchema matrix;
        TableSchema keyed;
        TableSchema json;
        TableSchema mixed;
        Map<Integer, GenericRowData> jdbcMixed;
        String serverVersion;
        Map<Integer, GenericRowData> jdbcMatrix;
        Map<Integer, GenericRowData> jdbcJson;
        GenericRowData jdbcKeyed;
        try (Connection c = JdbcConnections.open(connectorConfig(db))) {
            matrix = JdbcSchemaReader.read(c, matrixId);
            keyed = JdbcSchemaReader.read(c, keyedId);
            json = JdbcSchemaReader.read(c, jsonId);
            jdbcMatrix = readAll(c, matrix);
            jdbcJson = readAll(c, json);
            jdbcKeyed = readAll(c, keyed).get(7);
            mixed = JdbcSchemaReader.read(c, TableId.of(db.name(), "mixed"));
            jdbcMixed = readAll(c, mixed);
            serverVersion = c.getMetaData().getDatabaseProductVersion();
        }

        // The binary protocol (server-side prepared statements) reads the same values.
        try (Connection c =
                JdbcConnections.open(
                        connectorConfig(db).toBuilder()
                                .jdbcProperty("useServerPrepStmts", "true")
                                .build())) {
            assertSameRows(matrix, readAll(c, matrix), jdbcMatrix);
            assertSameRows(json, readAll(c, json), jdbcJson);
            assertSameRows(mixed, readAll(c, mixed), jdbcMixed);
        }
        // So does the snapshot's chunk reader (binary protocol, streamed), one chunk per table.
        try (ChunkReader reader =
                new ChunkReader(connectorConfig(db), SnapshotReadOptions.defaults())) {
            assertSameRows(matrix, readChunk(reader, matrix), jdbcMatrix);
            assertSameRows(json, readChunk(reader, json), jdbcJson);
            assertSameRows(mixed, readChunk(reader, mixed), jdbcMixed);
        }

        // (1) the schema and JDBC values against hand-written expectations
        assertMatrixSchema(matrix);
        assertThat(keyed.keyColumnIndexes()).containsExactly(1, 0);
        assertRow(matrix, jdbcMatrix.get(1), expectedRow1());
        assertRow(matrix, jdbcMatrix.get(2), expectedRow2());
        assertRow(matrix, jdbcMatrix.get(3), Map.of("id", 3));
        assertRow(matrix, jdbcMatrix.get(4), expectedRow4());
        assertRow(
                matrix,
                jdbcMatrix.get(5),
                Map.of("id", 5, "t_dt", wall("0000-01-01T00:00"))); // zero month: NULL
        assertRow(
                keyed,
                jdbcKeyed,
                Map.of(
                        "a",
                        7,
                        "b",
                        StringData.fromString("key€"),
                        "c",
                        4294967295L,
                        "y",
                        2020,
                        "d",
                        4294967294L,
                        "e",
                        DecimalData.fromBigDecimal(new BigDecimal("18446744073709551614"), 20, 0)));
        assertExpectedJson(jdbcJson);

        // then an update and a delete, for before images
        db.execute(
                "UPDATE matrix SET t_int = 5, t_varchar = 'changed', t_ts6 = NULL WHERE id = 1",
                "DELETE FROM matrix WHERE id = 2",
                "DELETE FROM matrix WHERE id = 4");
        GenericRowData updatedRow1;
        try (Connection c = JdbcConnections.open(connectorConfig(db))) {
            updatedRow1 = readAll(c, matrix).get(1);
        }

        // (2) the binlog: schema from the table map and rows equal the JDBC rows
        BinlogCapture capture =
                BinlogCapture.capture(
                        connectorConfig(db),
                        db.name(),
                        before,
                        cap ->
                                cap.count("matrix", "delete") == 2
                                        && cap.count("json_docs", "insert") == JSON_DOCS.length);
        boolean yearBit = BinlogSchemaReader.yearHasSignednessBit(serverVersion);
        boolean geometryCharset = BinlogSchemaReader.geometryHasCharset(serverVersion);
        assertThat(
                        BinlogSchemaReader.fromTableMap(
                                matrixId,
                                capture.tableMaps.get(matrixId),
                                yearBit,
                                geometryCharset))
                .isEqualTo(matrix);
        assertThat(
                        BinlogSchemaReader.fromTableMap(
                                keyedId, capture.tableMaps.get(keyedId), yearBit, geometryCharset))
                .isEqualTo(keyed);
        assertThat(
                        BinlogSchemaReader.fromTableMap(
                                jsonId, capture.tableMaps.get(jsonId), yearBit, geometryCharset))
                .isEqualTo(json);
        assertThat(
                        BinlogSchemaReader.fromTableMap(
                                mixed.tableId(),
                                capture.tableMaps.get(mixed.tableId()),
                                yearBit,
                                geometryCharset))
                .isEqualTo(mixed);
        RowConverter mixedRows = RowConverter.of(mixed);

        RowConverter matrixRows = RowConverter.of(matrix);
        RowConverter keyedRows = RowConverter.of(keyed);
        RowConverter jsonRows = RowConverter.of(json);
        int inserts = 0;
        int updates = 0;
        int deletes = 0;
        int jsonCount = 0;
        for (BinlogCapture.Change ch : capture.changes) {
            if (ch.table.equals(jsonId)) {
                GenericRowData row = jsonRows.fromBinlog(ch.after);
                assertSameRow(json, row, jdbcJson.get(row.getInt(0)));
                jsonCount++;
            } else if (ch.table.equals(mixed.tableId())) {
                assertSameRow(mixed, mixedRows.fromBinlog(ch.after), jdbcMixed.get(1));
            } else if (ch.table.equals(keyedId)) {
                assertSameRow(keyed, keyedRows.fromBinlog(ch.after), jdbcKeyed);
            } else if (ch.kind.equals("insert")) {
                GenericRowData row = matrixRows.fromBinlog(ch.after);
                assertSameRow(matrix, row, jdbcMatrix.get(row.getInt(0)));
                inserts++;
            } else if (ch.kind.equals("update")) {
                assertSameRow(matrix, matrixRows.fromBinlog(ch.before), jdbcMatrix.get(1));
                assertSameRow(matrix, matrixRows.fromBinlog(ch.after), updatedRow1);
                updates++;
            } else {
                GenericRowData row = matrixRows.fromBinlog(ch.before);
                assertSameRow(matrix, row, jdbcMatrix.get(row.getInt(0)));
                deletes++;
            }
        }
        assertThat(inserts).isEqualTo(5);
        assertThat(updates).isEqualTo(1);
        assertThat(deletes).isEqualTo(2);
        assertThat(jsonCount).isEqualTo(JSON_DOCS.length);
    }

    private static void assertMatrixSchema(TableSchema s) {
        assertThat(s.keyColumnIndexes()).containsExactly(0);
        assertThat(s.column(s.columnIndex("t_bool")).type()).isEqualTo(MySqlType.TINYINT);
        assertThat(s.column(s.columnIndex("t_big_u")).logicalType().asSummaryString())
                .isEqualTo("DECIMAL(20, 0)");
        assertThat(s.column(s.columnIndex("t_dec65")).logicalType().getTypeRoot())
                .isEqualTo(LogicalTypeRoot.VARCHAR);
        assertThat(s.column(s.columnIndex("t_time6")).logicalType().getTypeRoot())
                .isEqualTo(LogicalTypeRoot.BIGINT);
        assertThat(s.column(s.columnIndex("t_ts2")).logicalType())
                .isEqualTo(new LocalZonedTimestampType(2));
        assertThat(s.column(s.columnIndex("t_dt3")).logicalType().asSummaryString())
                .isEqualTo("TIMESTAMP(3)");
        assertThat(s.column(s.columnIndex("t_char_bin")).type()).isEqualTo(MySqlType.BINARY);
        assertThat(s.column(s.columnIndex("t_char_l1")).charset()).isEqualTo("latin1");
        assertThat(s.column(s.columnIndex("t_char3")).charset()).isEqualTo("utf8mb3");
        assertThat(s.column(s.columnIndex("t_enum")).enumValues())
                .containsExactly("small", "medium", "it's", "ünï");
        assertThat(s.column(s.columnIndex("t_gcoll")).type())
                .isEqualTo(MySqlType.GEOMETRYCOLLECTION);
        assertThat(s.column(s.columnIndex("id")).nullable()).isFalse();
        assertThat(s.rowType().getFieldCount()).isEqualTo(s.columnCount());
    }

    private Map<String, Object> expectedRow1() {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", 1);
        e.put("t_tiny", (byte) 127);
        e.put("t_tiny_u", (short) 255);
        e.put("t_bool", (byte) 1);
        e.put("t_small", (short) 32767);
        e.put("t_small_u", 65535);
        e.put("t_medium", 8388607);
        e.put("t_medium_u", 16777215);
        e.put("t_int", 2147483647);
        e.put("t_year", 2155);
        e.put("t_int_u", 4294967295L);
        e.put("t_big", Long.MAX_VALUE);
        e.put("t_big_u", dec("18446744073709551615", 20, 0));
        e.put("t_dec", dec("99999999.99", 10, 2));
        e.put("t_dec_u", dec("12345678.90", 10, 2));
        e.put("t_dec38", dec("9999999999999999999999999999.9999999999", 38, 10));
        e.put("t_dec65", str("99999999999999999999999999999999999.999999999999999999999999999999"));
        e.put("t_float", 3.1415927f); // the stored float, not MySQL's printed 3.14159
        e.put("t_double", 1.7976931348623157e308);
        e.put("t_bit1", true);
        e.put("t_bit10", hex("0201"));
        e.put("t_bit64", hex("FFFFFFFFFFFFFFFF"));
        e.put("t_char", str("héllo😀"));
        e.put("t_varchar", str("emoji 😀 and ü"));
        e.put("t_text", str("text 😀 ✓"));
        e.put("t_char3", str("àé"));
        e.put("t_varchar3", str("Ωmega"));
        e.put("t_mediumtext3", str("utf8mb3 ✓"));
        e.put("t_char_l1", str("é€"));
        e.put("t_varchar_l1", str("€ é ß ÿ"));
        e.put("t_tinytext_l1", str("Œuvre ‰"));
        e.put("t_longtext_l1", str("plain latin1 text "));
        e.put("t_binary", hex("610000000000"));
        e.put("t_varbinary", hex("00FF00"));
        e.put("t_tinyblob", hex("DEADBEEF"));
        e.put("t_blob", hex("00"));
        e.put("t_mediumblob", hex("0102"));
        e.put("t_longblob", hex("FF"));
        e.put("t_char_bin", hex("61000000"));
        e.put("t_enum", str("it's"));
        e.put("t_set", str("a,d"));
        e.put(
                "t_json",
                str(
                        mariaDb
                                ? "{\"b\": [1, 2.5, \"x\"], \"a\": null}"
                                : "{\"a\": null, \"b\": [1, 2.5, \"x\"]}"));
        e.put("t_date", days("9999-12-31"));
        e.put("t_time", time(false, 838, 59, 59, 0));
        e.put("t_time3", time(true, 838, 59, 58, 999_000));
        e.put("t_time6", time(true, 0, 0, 0, 1));
        e.put("t_dt", wall("9999-12-31T23:59:59"));
        e.put("t_dt1", wall("2020-02-29T12:00:00.5"));
        e.put("t_dt3", wall("1000-01-01T00:00:00.001"));
        e.put("t_dt6", wall("2020-01-02T03:04:05.123456"));
        e.put("t_ts", instant("2020-01-01T21:34:05Z"));
        e.put("t_ts2", instant("2038-01-19T03:14:07.990Z"));
        e.put("t_ts6", instant("1970-01-01T00:00:01.000001Z"));
        e.put("t_geom", hex("0101000000000000000000F03F0000000000000040"));
        e.put("t_point", hex("010100000000000000000008400000000000001040"));
        e.put("t_line", wkb("LINESTRING(0 0, 1 1, 2 3)"));
        e.put("t_poly", wkb("POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))"));
        e.put("t_mpoint", wkb("MULTIPOINT(0 0, 1 2)"));
        e.put("t_mline", wkb("MULTILINESTRING((0 0, 1 1), (2 2, 3 3))"));
        e.put("t_mpoly", wkb("MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))"));
        e.put("t_gcoll", wkb("GEOMETRYCOLLECTION(POINT(1 1), LINESTRING(0 0, 1 1))"));
        return e;
    }

    private Map<String, Object> expectedRow2() {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", 2);
        e.put("t_tiny", (byte) -128);
        e.put("t_tiny_u", (short) 0);
        e.put("t_bool", (byte) 0);
        e.put("t_small", (short) -32768);
        e.put("t_small_u", 0);
        e.put("t_medium", -8388608);
        e.put("t_medium_u", 0);
        e.put("t_int", Integer.MIN_VALUE);
        e.put("t_year", 1901);
        e.put("t_int_u", 0L);
        e.put("t_big", Long.MIN_VALUE);
        e.put("t_big_u", dec("0", 20, 0));
        e.put("t_dec", dec("-99999999.99", 10, 2));
        e.put("t_dec_u", dec("0.00", 10, 2));
        e.put("t_dec38", dec("-0.0000000001", 38, 10));
        e.put("t_dec65", str("-0.000000000000000000000000000001"));
        e.put("t_float", -Float.MIN_NORMAL);
        e.put("t_double", 0.30000000000000004);
        e.put("t_bit1", false);
        e.put("t_bit10", hex("0000"));
        e.put("t_bit64", hex("0000000000000001"));
        e.put("t_char", str(""));
        e.put("t_varchar", str(" lead and trail "));
        e.put("t_text", str(""));
        e.put("t_char3", str(""));
        e.put("t_varchar3", str(""));
        e.put("t_mediumtext3", str(""));
        e.put("t_char_l1", str(""));
        e.put("t_varchar_l1", str(""));
        e.put("t_tinytext_l1", str(""));
        e.put("t_longtext_l1", str(""));
        e.put("t_binary", hex("000000000000"));
        e.put("t_varbinary", hex(""));
        e.put("t_tinyblob", hex(""));
        e.put("t_blob", hex(""));
        e.put("t_mediumblob", hex(""));
        e.put("t_longblob", hex(""));
        e.put("t_char_bin", hex("00000000"));
        e.put("t_enum", str("ünï"));
        e.put("t_set", str(""));
        e.put("t_json", str("[1.0, \"é😀\", {\"k\": false}]"));
        e.put("t_date", days("0001-01-01"));
        e.put("t_time", time(true, 838, 59, 59, 0));
        e.put("t_time3", time(false, 0, 0, 0, 1000));
        e.put("t_time6", time(true, 12, 34, 56, 500_000));
        e.put("t_dt", wall("1000-01-01T00:00:00"));
        e.put("t_dt1", wall("0001-01-01T00:00:00.1"));
        e.put("t_dt3", wall("1969-12-31T23:59:59.999"));
        e.put("t_dt6", wall("1969-12-31T23:59:59.999999"));
        e.put("t_ts", instant("2000-06-30T06:30:00Z"));
        e.put("t_ts2", instant("1999-12-31T18:29:59.010Z"));
        e.put("t_ts6", instant("2021-03-13T21:00:00.500Z"));
        e.put("t_geom", wkb("LINESTRING(1 1, 2 2)"));
        e.put("t_point", srid4326PointWithoutSrid());
        return e;
    }

    private Map<String, Object> expectedRow4() {
        Map<String, Object> e = new HashMap<>();
        e.put("id", 4);
        e.put("t_year", 0);
        e.put("t_enum", str(""));
        e.put("t_float", 16777216f); // 16777217 stored into a FLOAT
        e.put("t_double", 4.9e-324);
        e.put("t_char", str("trail"));
        e.put("t_varchar", str("keep  "));
        // MySQL's latin1 is cp1252; 0x81 is unassigned there and decodes to U+FFFD, as in
        // Connector/J.
        e.put("t_varchar_l1", str("A\uFFFD"));
        e.put("t_dt1", wall("0000-01-01T00:00:00.5")); // year 0 with a real month and day is a date
        // t_dt3 '2020-02-00 10:00:00' has a zero day: NULL
        return e; // zero DATE, DATETIME and TIMESTAMP values are NULL
    }

    private void assertExpectedJson(Map<Integer, GenericRowData> rows) {
        if (mariaDb) {
            assertMariaDbJson(rows);
            return;
        }
        assertThat(rows.get(1).getString(1).toString())
                .isEqualTo(
                        "{\"a\": null, \"b\": [1, 2.5, \"x\"], \"c\": [], \"aa\": {\"nested\": [true, false, {}]}}");
        assertThat(rows.get(2).getString(1).toString())
                .isEqualTo("\"q\\\"\\\\ \\n\\t\\b\\f\\r \\u0001\\u001f é 😀 / <>\"");
        assertThat(rows.get(3).getString(1).toString())
                .isEqualTo(
                        "[-1, 0, 1, 32767, 32768, -32769, 2147483647, 2147483648, -9223372036854775808,"
                                + " 9223372036854775807, 18446744073709551615]");
        assertThat(rows.get(4).getString(1).toString())
                .isEqualTo(
                        "[0.5, -0.0, 1e15, 1e16, 0.0000000000000015, 1e-16, 123456789.1234568, 1.7976931348623157e308,"
                                + " 3.0, 100.0, 0.1, 0.0000001, 1234567890123456.8]");
        assertThat(rows.get(6).getString(1).toString()).isEqualTo("null");
        assertThat(rows.get(7).getString(1).toString()).isEqualTo("true");
    }

    /** MariaDB keeps the JSON text as written (its JSON is LONGTEXT with a json_valid check). */
    private static void assertMariaDbJson(Map<Integer, GenericRowData> rows) {
        assertThat(rows.get(1).getString(1).toString())
                .isEqualTo(
                        "{\"b\": [1, 2.5, \"x\"], \"a\": null, \"aa\": {\"nested\": [true, false, {}]},"
                                + " \"c\": []}");
        assertThat(rows.get(2).getString(1).toString())
                .isEqualTo("\"q\\\"\\\\ \\n\\t\\b\\f\\r \\u0001\\u001f é 😀 / <>\"");
        assertThat(rows.get(4).getString(1).toString())
                .isEqualTo(
                        "[0.5, -0.0, 1e15, 1e16, 1.5e-15, 1e-16, 123456789.123456789,"
                                + " 1.7976931348623157e308, 3.0, 100.0, 0.1, 1e-7, 1234567890123456.8]");
        assertThat(rows.get(6).getString(1).toString()).isEqualTo("null");
        assertThat(rows.get(7).getString(1).toString()).isEqualTo("true");
        assertThat(rows.get(12).getString(1).toString()).hasSizeGreaterThan(70000);
    }

    // ---- helpers

    /** The whole table as one chunk, read by the snapshot's chunk reader. */
    private Map<Integer, GenericRowData> readChunk(ChunkReader reader, TableSchema schema)
            throws Exception {
        ChunkKey key;
        try (Connection c = JdbcConnections.open(connectorConfig(db))) {
            key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(c, schema.tableId()), Optional.empty());
        }
        ChunkResult result =
                reader.read(
                        new SnapshotChunk(schema.tableId(), 0, ChunkRange.all()),
                        TableReadSpec.forSchema(key, schema));
        Map<Integer, GenericRowData> rows = new HashMap<>();
        for (RowData row : result.rows()) {
            rows.put(row.getInt(0), (GenericRowData) row);
        }
        return rows;
    }

    private static Map<Integer, GenericRowData> readAll(Connection c, TableSchema schema)
            throws SQLException {
        Map<Integer, GenericRowData> rows = new HashMap<>();
        RowConverter converter = RowConverter.of(schema);
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < schema.columnCount(); i++) {
            sql.append(i == 0 ? "" : ", ").append(converter.selectExpression(i));
        }
        sql.append(" FROM ").append(schema.tableId().quoted());
        try (java.sql.PreparedStatement st = c.prepareStatement(sql.toString());
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                GenericRowData row = converter.fromJdbc(rs);
                rows.put(row.getInt(0), row);
            }
        }
        return rows;
    }

    private static void assertRow(
            TableSchema schema, GenericRowData actual, Map<String, Object> expected) {
        for (String name : expected.keySet()) {
            assertThat(schema.columnIndex(name)).as("column %s", name).isGreaterThanOrEqualTo(0);
        }
        for (int i = 0; i < schema.columnCount(); i++) {
            String name = schema.column(i).name();
            assertField(name, expected.get(name), actual.getField(i));
        }
    }

    private static void assertSameRow(
            TableSchema schema, GenericRowData binlog, GenericRowData jdbc) {
        assertThat(jdbc).isNotNull();
        assertThat(binlog.getArity()).isEqualTo(jdbc.getArity());
        for (int i = 0; i < schema.columnCount(); i++) {
            assertField(
                    schema.tableId() + "." + schema.column(i).name(),
                    jdbc.getField(i),
                    binlog.getField(i));
        }
    }

    private static void assertSameRows(
            TableSchema schema,
            Map<Integer, GenericRowData> actual,
            Map<Integer, GenericRowData> expected) {
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        for (Integer id : expected.keySet()) {
            assertSameRow(schema, actual.get(id), expected.get(id));
        }
    }

    private static void assertField(String what, Object expected, Object actual) {
        if (expected instanceof byte[]) {
            assertThat(actual).as(what).isInstanceOf(byte[].class);
            assertThat(HexFormat.of().formatHex((byte[]) actual))
                    .as(what)
                    .isEqualTo(HexFormat.of().formatHex((byte[]) expected));
        } else {
            assertThat(actual).as(what).isEqualTo(expected);
        }
    }

    private static DecimalData dec(String v, int p, int s) {
        return DecimalData.fromBigDecimal(new BigDecimal(v), p, s);
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.toLowerCase());
    }

    private static int days(String date) {
        return (int) LocalDate.parse(date).toEpochDay();
    }

    private static long time(boolean negative, long h, long m, long s, long micros) {
        long v = ((h * 60 + m) * 60 + s) * 1_000_000L + micros;
        return negative ? -v : v;
    }

    private static TimestampData wall(String localDateTime) {
        return TimestampData.fromLocalDateTime(LocalDateTime.parse(localDateTime));
    }

    private static TimestampData instant(String instant) {
        return TimestampData.fromInstant(Instant.parse(instant));
    }

    /** Standard WKB as the server computes it for an SRID 0 geometry. */
    private byte[] wkb(String wkt) {
        return queryBytes("SELECT ST_AsBinary(ST_GeomFromText('" + wkt + "'))");
    }

    /** The stored bytes after MySQL's 4-byte SRID prefix (axis order is the server's storage). */
    private byte[] srid4326PointWithoutSrid() {
        byte[] prefix = queryBytes("SELECT LEFT(ST_GeomFromText('POINT(45 7)', 4326), 4)");
        assertThat(HexFormat.of().formatHex(prefix)).isEqualTo("e6100000"); // 4326, little-endian
        return queryBytes("SELECT SUBSTRING(ST_GeomFromText('POINT(45 7)', 4326), 5)");
    }

    private byte[] queryBytes(String sql) {
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getBytes(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** MariaDB has no GTID set to start from: its current binlog file and offset. */
    private String[] binlogPosition() throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            assertThat(rs.next()).isTrue();
            return new String[] {rs.getString(1), rs.getString(2)};
        }
    }
}

package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.testing.FlinkLines;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON envelope of {@link JsonDebeziumDeserializer} read back by Flink's own {@code
 * debezium-json} format: every change of a table with a column of every MySQL type (snapshot rows,
 * one with every nullable column NULL, then a binlog insert, update and delete) is written to a
 * file, read back through a filesystem table {@code 'format' = 'debezium-json'} declared with the
 * source's row type, and compared row by row, change kinds included, with what {@link
 * RowDataDeserializer} emits for the same changes.
 */
@Tag(FlinkLines.EVERY_LINE)
class DebeziumJsonRoundTripIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @TempDir Path dir;

    /**
     * No BOOLEAN (TINYINT(1)) column: with one more TINYINT this table's TABLE_MAP event fails to
     * decode in the binlog client ("Failed to deserialize data of ... TABLE_MAP") and the streamer
     * reconnects until its budget ends; reported to the lead, not fixed here (binlog package).
     */
    private static final String COLUMNS =
            "id INT NOT NULL PRIMARY KEY,"
                    + " c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED,"
                    + " c_smallint SMALLINT, c_smallint_u SMALLINT UNSIGNED,"
                    + " c_mediumint MEDIUMINT, c_int INT, c_int_u INT UNSIGNED,"
                    + " c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED,"
                    + " c_decimal DECIMAL(10, 2), c_decimal_u DECIMAL(38, 10) UNSIGNED,"
                    + " c_decimal_wide DECIMAL(65, 30), c_float FLOAT, c_double DOUBLE,"
                    + " c_bit1 BIT(1), c_bit10 BIT(10),"
                    + " c_char CHAR(4), c_varchar VARCHAR(20), c_text TEXT,"
                    + " c_binary BINARY(6), c_varbinary VARBINARY(10), c_blob BLOB,"
                    + " c_enum ENUM('a', 'it''s'), c_set SET('a', 'b', 'd'), c_json JSON,"
                    + " c_date DATE, c_time TIME(6), c_datetime DATETIME(6), c_datetime0 DATETIME,"
                    + " c_timestamp TIMESTAMP(6) NULL, c_timestamp3 TIMESTAMP(3) NULL,"
                    + " c_year YEAR, c_point POINT, c_geometry GEOMETRY";

    private static final String FULL_ROW =
            "(1, -128, 255, -32768, 65535, -8388608, 2147483647, 4294967295,"
                    + " -9223372036854775808, 18446744073709551615,"
                    + " 12345678.90, 1234567890123456789012345678.0123456789,"
                    + " -1.5, 3.1415927, 0.30000000000000004,"
                    + " b'1', b'1000000001',"
                    + " 'ab', 'emoji é 😀', 'line\\nbreak \"quoted\" \\\\',"
                    + " X'610000', X'00FF00', X'DEADBEEF',"
                    + " 'it''s', 'd,a', '{\"b\": [1, 2.5], \"a\": null, \"s\": \"x\\\\ty\"}',"
                    + " '9999-12-31', '-838:59:58.999', '2020-01-02 03:04:05.123456',"
                    + " '1000-01-01 00:00:00', '2030-01-19 03:14:07.999999',"
                    + " '2000-01-01 00:00:01.01',"
                    + " 2155, ST_GeomFromText('POINT(1 2)'),"
                    + " ST_GeomFromText('LINESTRING(0 0, 1 1.5)'))";

    /** Every column but the key NULL. */
    private static final String NULL_ROW = "(2" + ", NULL".repeat(34) + ")";

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyChangeOfEveryTypeReadsBackAsTheSameRows() throws Exception {
        DB.execute(
                "CREATE TABLE rt (" + COLUMNS + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
                "INSERT INTO rt VALUES " + FULL_ROW,
                "INSERT INTO rt VALUES " + NULL_ROW);

        List<String> json = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        String ddlColumns = null;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        try (CloseableIterator<String> it =
                        env.fromSource(source(), WatermarkStrategy.noWatermarks(), "capstan")
                                .executeAndCollect("debezium-json round trip");
                Watchdog ignored = new Watchdog(it)) {
            for (int event = 0; event < 6; event++) {
                if (event == 2) { // the snapshot is read: now the binlog changes
                    DB.execute(
                            "INSERT INTO rt (id, c_int, c_varchar, c_timestamp)"
                                    + " VALUES (3, 7, 'new', '2001-02-03 04:05:06.7')",
                            "UPDATE rt SET c_varchar = 'changed', c_decimal = -0.01,"
                                    + " c_json = '[1, \"two\"]', c_time = '12:00:00.5'"
                                    + " WHERE id = 1",
                            "UPDATE rt SET c_int = 8 WHERE id = 2",
                            "DELETE FROM rt WHERE id = 3");
                }
                String[] parts = it.next().split("\u0000", -1);
                json.add(parts[0]);
                ddlColumns = parts[1];
                for (int i = 2; i < parts.length; i++) {
                    expected.add(parts[i]);
                }
            }
        }
        assertThat(json)
                .extracting(j -> j.substring(j.indexOf("\"op\":"), j.indexOf("\"op\":") + 8))
                .containsExactly(
                        "\"op\":\"r\"",
                        "\"op\":\"r\"",
                        "\"op\":\"c\"",
                        "\"op\":\"u\"",
                        "\"op\":\"u\"",
                        "\"op\":\"d\"");
        Path file = dir.resolve("changes").resolve("part-0.json");
        Files.createDirectories(file.getParent());
        Files.write(file, json, StandardCharsets.UTF_8);

        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql(
                "CREATE TABLE changes ("
                        + ddlColumns
                        + ") WITH ('connector' = 'filesystem', 'path' = '"
                        + file.getParent().toUri()
                        + "', 'format' = 'debezium-json',"
                        + " 'debezium-json.timestamp-format.standard' = 'ISO-8601')");
        List<String> readBack = new ArrayList<>();
        try (CloseableIterator<Row> rows = tEnv.executeSql("SELECT * FROM changes").collect()) {
            rows.forEachRemaining(r -> readBack.add(r.toString()));
        }
        assertThat(expected).hasSize(8); // 2 reads, 1 insert, 2 x (before, after), 1 delete
        assertThat(ddlColumns.split(", `")).hasSize(35);
        assertThat(readBack).containsExactlyElementsOf(expected);
    }

    /** Cancels the job if the changes do not all arrive: next() does not heed interrupts. */
    private static final class Watchdog implements AutoCloseable {
        private final Thread thread;

        Watchdog(AutoCloseable job) {
            thread =
                    new Thread(
                            () -> {
                                try {
                                    Thread.sleep(180_000);
                                    job.close();
                                } catch (Exception ignored) {
                                    // closed in time, or already closed
                                }
                            });
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    private static CapstanMySqlSource<String> source() {
        MySqlAccount account = DB.connectorAccount();
        return CapstanMySqlSource.<String>builder()
                .hostname(account.hostname())
                .port(account.port())
                .username(account.username())
                .password(account.password())
                .tableList(DB.name() + ".rt")
                .serverId(5461)
                .startupOptions(StartupOptions.initial())
                .deserializer(new EnvelopeAndRows())
                .build();
    }

    /**
     * Per change: the JSON envelope, the row type as DDL columns, and the rows {@link
     * RowDataDeserializer} emits converted to Flink's external types (as a SQL query collects
     * them), separated by NUL (the data holds none).
     */
    private static final class EnvelopeAndRows implements CapstanDeserializer<String> {
        private final JsonDebeziumDeserializer json = new JsonDebeziumDeserializer();

        @Override
        public TypeInformation<String> getProducedType() {
            return Types.STRING;
        }

        @Override
        public void deserialize(ChangeEvent event, Collector<String> out) throws Exception {
            RowType rowType = event.schema().rowType();
            List<String> parts = new ArrayList<>();
            json.deserialize(event, collector(parts));
            parts.add(
                    rowType.getFields().stream()
                            .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                            .collect(Collectors.joining(", ")));
            DataStructureConverter<Object, Object> converter =
                    DataStructureConverters.getConverter(
                            TypeConversions.fromLogicalToDataType(rowType));
            converter.open(getClass().getClassLoader());
            List<RowData> rows = new ArrayList<>();
            new RowDataDeserializer(InternalTypeInfo.of(rowType))
                    .deserialize(event, collector(rows));
            for (RowData r : rows) {
                parts.add(converter.toExternal(r).toString());
            }
            out.collect(String.join("\u0000", parts));
        }

        private static <T> Collector<T> collector(List<T> into) {
            return new Collector<>() {
                @Override
                public void collect(T record) {
                    into.add(record);
                }

                @Override
                public void close() {}
            };
        }
    }
}

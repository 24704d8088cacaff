package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.Operation;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonGenerator;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static io.capstan.flink.mysql.source.TestChanges.SCHEMA;
import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.row;
import static org.assertj.core.api.Assertions.assertThat;

class DeserializersTest {

    private static final String GTID = "3e11fa47-71ca-11e1-9e33-c80aa9429562:42";
    private static final long COMMIT_MICROS = 1_700_000_000_123_456L;

    static final class ListCollector<T> implements Collector<T> {
        final List<T> items = new ArrayList<>();

        @Override
        public void collect(T record) {
            items.add(record);
        }

        @Override
        public void close() {}
    }

    private static ChangeEvent event(Operation op, RowData before, RowData after) {
        return new ChangeEvent(op, before, after, SCHEMA, TABLE, GTID, COMMIT_MICROS, 3);
    }

    /**
     * MySQL zero dates ('0000-00-00') are read as NULL, also in NOT NULL columns (docs/types.md):
     * the JSON writer must write null, not fail on the NOT NULL type.
     */
    @Test
    void aZeroDateInANotNullColumnIsWrittenAsNull() throws Exception {
        RowType type =
                RowType.of(
                        new LogicalType[] {
                            new DateType(false),
                            new TimestampType(false, 0),
                            new LocalZonedTimestampType(false, 0)
                        },
                        new String[] {"d", "dt", "ts"});
        StringWriter buffer = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(buffer)) {
            JsonRowWriter.forRowType(type).write(GenericRowData.of(null, null, null), json);
        }
        assertThat(buffer.toString()).isEqualTo("{\"d\":null,\"dt\":null,\"ts\":null}");
    }

    @Test
    void rowDataCarriesTheRowKinds() throws Exception {
        RowDataDeserializer d = new RowDataDeserializer(TypeInformation.of(RowData.class));
        ListCollector<RowData> out = new ListCollector<>();
        d.deserialize(event(Operation.INSERT, null, row(1, "a")), out);
        d.deserialize(event(Operation.READ, null, row(2, "b")), out);
        d.deserialize(event(Operation.UPDATE, row(1, "a"), row(1, "c")), out);
        d.deserialize(event(Operation.DELETE, row(1, "c"), null), out);
        assertThat(out.items)
                .extracting(RowData::getRowKind)
                .containsExactly(
                        RowKind.INSERT,
                        RowKind.INSERT,
                        RowKind.UPDATE_BEFORE,
                        RowKind.UPDATE_AFTER,
                        RowKind.DELETE);
        assertThat(out.items.get(2).getString(1).toString()).isEqualTo("a");
        assertThat(out.items.get(3).getString(1).toString()).isEqualTo("c");
    }

    @Test
    void jsonEnvelopeHasDebeziumShape() throws Exception {
        JsonDebeziumDeserializer d =
                new JsonDebeziumDeserializer(Clock.fixed(Instant.ofEpochMilli(99), ZoneOffset.UTC));
        ListCollector<String> out = new ListCollector<>();
        d.deserialize(event(Operation.UPDATE, row(1, "a"), row(1, "b")), out);
        d.deserialize(event(Operation.DELETE, row(1, "b"), null), out);
        JsonNode u = new ObjectMapper().readTree(out.items.get(0));
        assertThat(u.get("op").asText()).isEqualTo("u");
        assertThat(u.get("before").get("id").asLong()).isEqualTo(1);
        assertThat(u.get("before").get("name").asText()).isEqualTo("a");
        assertThat(u.get("after").get("name").asText()).isEqualTo("b");
        assertThat(u.get("ts_ms").asLong()).isEqualTo(99);
        JsonNode source = u.get("source");
        assertThat(source.get("db").asText()).isEqualTo("db");
        assertThat(source.get("table").asText()).isEqualTo("t");
        assertThat(source.get("gtid").asText()).isEqualTo(GTID);
        assertThat(source.get("ts_ms").asLong()).isEqualTo(1_700_000_000_123L);
        assertThat(source.get("row").asInt()).isEqualTo(3);
        assertThat(source.get("snapshot").asBoolean()).isFalse();
        JsonNode del = new ObjectMapper().readTree(out.items.get(1));
        assertThat(del.get("op").asText()).isEqualTo("d");
        assertThat(del.get("after").isNull()).isTrue();

        d.deserialize(
                new ChangeEvent(Operation.READ, null, row(7, "r"), SCHEMA, TABLE, null, 0, 0), out);
        JsonNode read = new ObjectMapper().readTree(out.items.get(2));
        assertThat(read.get("op").asText()).isEqualTo("r");
        assertThat(read.get("source").get("snapshot").asBoolean()).isTrue();
        assertThat(read.get("source").get("gtid").isNull()).isTrue();
    }

    @Test
    void jsonValuesAreTypedSensibly() throws Exception {
        RowType type =
                RowType.of(
                        new LogicalType[] {
                            new BooleanType(), new BigIntType(), new DoubleType(),
                                    new DecimalType(38, 18),
                            new VarCharType(100), new VarBinaryType(10), new DateType(),
                                    new TimeType(3),
                            new TimestampType(6), new LocalZonedTimestampType(6),
                                    new VarCharType(10)
                        },
                        new String[] {
                            "b", "l", "d", "dec", "s", "bin", "dt", "tm", "ts", "ltz", "n"
                        });
        BigDecimal big = new BigDecimal("12345678901234567890.123456789012345678");
        GenericRowData r =
                GenericRowData.of(
                        true,
                        9007199254740993L,
                        1.5d,
                        DecimalData.fromBigDecimal(big, 38, 18),
                        StringData.fromString("\"q\"\u00e4"),
                        new byte[] {1, 2, (byte) 255},
                        (int) java.time.LocalDate.of(2024, 2, 29).toEpochDay(),
                        (int)
                                (java.time.LocalTime.of(23, 59, 58, 123_000_000).toNanoOfDay()
                                        / 1_000_000),
                        TimestampData.fromLocalDateTime(
                                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_000)),
                        TimestampData.fromInstant(Instant.parse("2024-01-02T03:04:05.000001Z")),
                        null);
        StringWriter buffer = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(buffer)) {
            json.writeStartObject();
            json.writeFieldName("after");
            JsonRowWriter.forRowType(type).write(r, json);
            json.writeEndObject();
        }
        String text = buffer.toString();
        JsonNode after = new ObjectMapper().readTree(text).get("after");
        assertThat(after.get("b").asBoolean()).isTrue();
        assertThat(text).contains("\"l\":9007199254740993");
        assertThat(after.get("d").asDouble()).isEqualTo(1.5d);
        assertThat(text).contains("\"dec\":" + big.toPlainString());
        assertThat(after.get("s").asText()).isEqualTo("\"q\"\u00e4");
        assertThat(after.get("bin").asText()).isEqualTo("AQL/");
        assertThat(after.get("dt").asText()).isEqualTo("2024-02-29");
        assertThat(after.get("tm").asText()).isEqualTo("23:59:58.123");
        assertThat(after.get("ts").asText()).isEqualTo("2024-01-02T03:04:05.678901");
        assertThat(after.get("ltz").asText()).isEqualTo("2024-01-02T03:04:05.000001Z");
        assertThat(after.get("n").isNull()).isTrue();
    }

    @Test
    void changeEventToStringShowsNoValues() {
        ChangeEvent e = event(Operation.INSERT, null, row(1, "MARKER-VALUE"));
        assertThat(e.toString()).doesNotContain("MARKER-VALUE").contains("db.t").contains(GTID);
    }
}

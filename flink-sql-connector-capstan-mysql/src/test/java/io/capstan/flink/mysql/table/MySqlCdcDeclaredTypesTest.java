package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The declarations mysql-cdc's type table documents beyond widenings: MySQL TIMESTAMP as a
 * wall-clock TIMESTAMP, SET as ARRAY<STRING>, FLOAT/DOUBLE as DECIMAL, the legacy JSON text, and
 * spatial columns as STRING (mysql-cdc's JSON text).
 */
class MySqlCdcDeclaredTypesTest {

    private static final TableId T = TableId.of("shop", "things");

    private static LogicalType t(DataType d) {
        return d.getLogicalType();
    }

    private static ColumnSchema timestamp(int precision) {
        ColumnSchema.Builder b = ColumnSchema.builder("c", MySqlType.TIMESTAMP);
        if (precision > 0) {
            b.precision(precision);
        }
        return b.build(T);
    }

    private static ColumnSchema set(String... labels) {
        return ColumnSchema.builder("c", MySqlType.SET).setValues(List.of(labels)).build(T);
    }

    @Test
    void aMySqlTimestampIsDeclarableAsTimestampOfAtLeastItsPrecision() {
        ColumnSchema ts3 = timestamp(3);
        LogicalType mapped = ts3.logicalType();
        assertThat(DeclaredTypeRule.incompatibility(ts3, mapped, t(DataTypes.TIMESTAMP(3))))
                .isEmpty();
        assertThat(DeclaredTypeRule.incompatibility(ts3, mapped, t(DataTypes.TIMESTAMP(6))))
                .isEmpty();
        assertThat(DeclaredTypeRule.incompatibility(ts3, mapped, t(DataTypes.TIMESTAMP(0))))
                .hasValueSatisfying(
                        r -> assertThat(r).contains("precision is below").contains("TIMESTAMP(3)"));
        ColumnSchema datetime = ColumnSchema.builder("c", MySqlType.DATETIME).precision(3).build(T);
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                datetime, datetime.logicalType(), t(DataTypes.TIMESTAMP_LTZ(3))))
                .as("a DATETIME has no zone: never an instant")
                .isPresent();
    }

    @Test
    void aTimestampIsTheWallClockInTheZone() {
        ZoneId kolkata = ZoneId.of("+05:30");
        FieldWidening w =
                FieldWidening.between(
                        timestamp(3),
                        timestamp(3).logicalType(),
                        t(DataTypes.TIMESTAMP(3)),
                        new DeclaredValueSettings(kolkata, false, false));
        TimestampData instant =
                TimestampData.fromInstant(Instant.parse("2024-02-29T23:00:00.123Z"));
        assertThat(((TimestampData) w.widen(instant)).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2024, 3, 1, 4, 30, 0, 123_000_000));
        FieldWidening berlin =
                FieldWidening.between(
                        timestamp(0),
                        timestamp(0).logicalType(),
                        t(DataTypes.TIMESTAMP(0)),
                        new DeclaredValueSettings(ZoneId.of("Europe/Berlin"), false, false));
        assertThat(
                        ((TimestampData)
                                        berlin.widen(
                                                TimestampData.fromInstant(
                                                        Instant.parse("2024-07-01T10:00:00Z"))))
                                .toLocalDateTime())
                .as("summer time")
                .isEqualTo(LocalDateTime.of(2024, 7, 1, 12, 0));
    }

    /** Two instants of the hour Berlin's clocks go back show one wall clock: not as a key. */
    @Test
    void aWallClockTimestampKeyNeedsAFixedOffsetZone() {
        ResolvedSchema declared =
                new ResolvedSchema(
                        List.of(
                                org.apache.flink.table.catalog.Column.physical(
                                        "ts", DataTypes.TIMESTAMP(3).notNull()),
                                org.apache.flink.table.catalog.Column.physical(
                                        "v", DataTypes.INT())),
                        List.of(),
                        UniqueConstraint.primaryKey("pk", List.of("ts")));
        MySqlTableShape table =
                new MySqlTableShape(
                        T,
                        List.of(
                                new MySqlTableShape.Column(
                                        "ts",
                                        "TIMESTAMP(3)",
                                        new LocalZonedTimestampType(false, 3),
                                        timestamp(3)),
                                new MySqlTableShape.Column("v", "INT", new IntType(true))),
                        List.of("ts"));
        assertThatThrownBy(
                        () ->
                                DeclaredValueSettings.of(
                                        declared,
                                        List.of(table),
                                        new Configuration(),
                                        BinaryTextEncoding.BYTES,
                                        () -> ZoneId.of("Europe/Berlin")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'ts' is part of the declared PRIMARY KEY")
                .hasMessageContaining("TIMESTAMP_LTZ");
        assertThat(
                        DeclaredValueSettings.of(
                                        declared,
                                        List.of(table),
                                        new Configuration(),
                                        BinaryTextEncoding.BYTES,
                                        () -> ZoneId.of("+01:00"))
                                .wallClockZone())
                .isEqualTo(ZoneId.of("+01:00"));
    }

    @Test
    void theServerZoneIsItsTimeZoneOrItsSystemZone() {
        assertThat(ServerTimeZone.of("+05:30", "UTC")).isEqualTo(ZoneId.of("+05:30"));
        assertThat(ServerTimeZone.of("SYSTEM", "UTC")).isEqualTo(ZoneId.of("UTC"));
        assertThat(ServerTimeZone.of("SYSTEM", "CET")).isEqualTo(ZoneId.of("CET"));
        assertThat(ServerTimeZone.of("Europe/Berlin", "UTC")).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThatThrownBy(() -> ServerTimeZone.of("SYSTEM", "CEST"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("system_time_zone 'CEST'")
                .hasMessageContaining("'server-time-zone'");
    }

    @Test
    void aSetIsDeclarableAsAnArrayOfItsMembers() {
        ColumnSchema abc = set("a", "bb", "c");
        LogicalType mapped = abc.logicalType();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                abc, mapped, t(DataTypes.ARRAY(DataTypes.STRING()))))
                .isEmpty();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                abc, mapped, t(DataTypes.ARRAY(DataTypes.VARCHAR(2)))))
                .isEmpty();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                abc, mapped, t(DataTypes.ARRAY(DataTypes.VARCHAR(1)))))
                .as("'bb' does not fit")
                .isPresent();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                abc, mapped, t(DataTypes.ARRAY(DataTypes.INT()))))
                .hasValueSatisfying(r -> assertThat(r).contains("ARRAY<STRING>"));
        ColumnSchema withEmpty = set("", "a");
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                withEmpty,
                                withEmpty.logicalType(),
                                t(DataTypes.ARRAY(DataTypes.STRING()))))
                .as("'' as a member cannot be told from the empty set")
                .isPresent();

        FieldWidening w =
                FieldWidening.between(abc, mapped, t(DataTypes.ARRAY(DataTypes.STRING())));
        ArrayData members = (ArrayData) w.widen(StringData.fromString("a,c"));
        assertThat(members.size()).isEqualTo(2);
        assertThat(members.getString(0).toString()).isEqualTo("a");
        assertThat(members.getString(1).toString()).isEqualTo("c");
        assertThat(((ArrayData) w.widen(StringData.fromString(""))).size())
                .as("the empty set")
                .isZero();
    }

    @Test
    void aDoubleIsDeclarableAsDecimalRoundedHalfUpAndHaltsBeyondItsPrecision() {
        ColumnSchema dbl = ColumnSchema.builder("c", MySqlType.DOUBLE).build(T);
        LogicalType decimal = t(DataTypes.DECIMAL(5, 2));
        assertThat(DeclaredTypeRule.incompatibility(dbl, dbl.logicalType(), decimal)).isEmpty();
        FieldWidening w = FieldWidening.between(dbl, dbl.logicalType(), decimal);
        assertThat(decimalOf(w, 1.005)).as("1.005 is stored below 1.005").isEqualTo("1.00");
        assertThat(decimalOf(w, 0.125)).as("exact tie: half up").isEqualTo("0.13");
        assertThat(decimalOf(w, -0.125)).isEqualTo("-0.13");
        assertThat(decimalOf(w, 999.994)).isEqualTo("999.99");
        for (double tooLarge : new double[] {999.995, 1e300, Double.NaN}) {
            assertThatThrownBy(() -> w.widen(tooLarge))
                    .as("%s", tooLarge)
                    .isInstanceOf(FieldWidening.DoesNotFit.class)
                    .hasMessageNotContaining("999");
        }
    }

    @Test
    void aFloatIsDeclarableAsDecimalOfItsExactStoredValue() {
        ColumnSchema flt = ColumnSchema.builder("c", MySqlType.FLOAT).build(T);
        FieldWidening w =
                FieldWidening.between(flt, flt.logicalType(), t(DataTypes.DECIMAL(10, 3)));
        // 2.0625f's exact value is a tie at scale 3: half-up.
        assertThat(decimalOf(w, 2.0625f)).isEqualTo("2.063");
        assertThat(decimalOf(w, 1.1f)).as("1.10000002384...").isEqualTo("1.100");
        assertThat(decimalOf(w, 123457f)).isEqualTo("123457.000");
        // 1.0005f is stored as 1.000499963...: down, though MySQL prints it as 1.0005.
        assertThat(decimalOf(w, 1.0005f)).isEqualTo("1.000");
        FieldWidening ten =
                FieldWidening.between(flt, flt.logicalType(), t(DataTypes.DECIMAL(20, 10)));
        // 16777217 stored into a FLOAT is 16777216 (MySQL prints 1.67772e7).
        assertThat(decimalOf(ten, 16777216f)).isEqualTo("16777216.0000000000");
        // The float after 0.1f, 0.100000008940696716...; MySQL prints 0.1.
        assertThat(decimalOf(ten, Math.nextUp(0.1f))).isEqualTo("0.1000000089");
        assertThatThrownBy(() -> w.widen(16777216f * 1024))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
    }

    /** A point as MySQL stores it: the SRID (4 bytes, little-endian), then standard WKB. */
    private static byte[] mysqlPoint(int srid, double x, double y) {
        return java.nio.ByteBuffer.allocate(25)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(srid)
                .put((byte) 1)
                .putInt(1)
                .putDouble(x)
                .putDouble(y)
                .array();
    }

    private static String decimalOf(FieldWidening w, Object value) {
        return ((DecimalData) w.widen(value)).toBigDecimal().toPlainString();
    }

    @Test
    void legacyJsonHasNoSpaceAfterSeparatorsOutsideStrings() {
        assertThat(LegacyJsonText.compact("{\"a\": [1, 2.5], \"b, c\": \"x: \\\" y\"}"))
                .isEqualTo("{\"a\":[1,2.5],\"b, c\":\"x: \\\" y\"}");
        assertThat(LegacyJsonText.compact("\"a \\\\\"")).isEqualTo("\"a \\\\\"");
        assertThat(LegacyJsonText.compact("[]")).isEqualTo("[]");
        // multi-byte characters in keys and strings pass byte for byte
        assertThat(LegacyJsonText.compact("{\"ä€\": \"ö 😀\", \"b\": [\"\\\\\", 1]}"))
                .isEqualTo("{\"ä€\":\"ö 😀\",\"b\":[\"\\\\\",1]}");
        byte[] alreadyCompact = "{\"a\":[1,2]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(LegacyJsonText.compact(alreadyCompact)).isSameAs(alreadyCompact);
        ColumnSchema json = ColumnSchema.builder("c", MySqlType.JSON).build(T);
        StringData text = StringData.fromString("{\"k\": [1, 2]}");
        assertThat(
                        FieldWidening.between(
                                        json,
                                        json.logicalType(),
                                        t(DataTypes.STRING()),
                                        new DeclaredValueSettings(null, true, false))
                                .widen(text)
                                .toString())
                .isEqualTo("{\"k\":[1,2]}");
        assertThat(
                        FieldWidening.between(
                                        json,
                                        json.logicalType(),
                                        t(DataTypes.STRING()),
                                        new DeclaredValueSettings(null, false, false))
                                .widen(text))
                .isSameAs(text);
    }

    @Test
    void aSpatialColumnDeclaredStringIsMySqlCdcsJsonText() {
        ColumnSchema point = ColumnSchema.builder("c", MySqlType.POINT).build(T);
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                point, point.logicalType(), t(DataTypes.STRING())))
                .isEmpty();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                point, point.logicalType(), t(DataTypes.BYTES())))
                .isEmpty();
        // the text has no length bound: a VARCHAR(n) is refused, naming both choices
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                point, point.logicalType(), t(DataTypes.VARCHAR(1000))))
                .hasValueSatisfying(
                        r -> assertThat(r).contains("declare BYTES").contains("or STRING"));
        // POINT(1 1) as MySQL stores it (SRID 0, then standard WKB); the text as in mysql-cdc's
        // type mapping table
        FieldWidening asText =
                FieldWidening.between(
                        point,
                        point.logicalType(),
                        t(DataTypes.STRING()),
                        DeclaredValueSettings.AS_MAPPED);
        assertThat(asText.widen(mysqlPoint(0, 1, 1)).toString())
                .isEqualTo("{\"coordinates\":[1,1],\"type\":\"Point\",\"srid\":0}");
        // the stored SRID, as mysql-cdc prints it
        assertThat(asText.widen(mysqlPoint(4326, 1, 2)).toString())
                .isEqualTo("{\"coordinates\":[1,2],\"type\":\"Point\",\"srid\":4326}");
        // BYTES is standard WKB: the SRID prefix dropped
        byte[] wkb =
                (byte[])
                        FieldWidening.between(
                                        point,
                                        point.logicalType(),
                                        t(DataTypes.BYTES()),
                                        DeclaredValueSettings.AS_MAPPED)
                                .widen(mysqlPoint(4326, 1, 2));
        assertThat(wkb)
                .containsExactly(java.util.Arrays.copyOfRange(mysqlPoint(4326, 1, 2), 4, 25));
        assertThatThrownBy(() -> asText.widen(new byte[] {0, 0, 0, 0, 1, 1}))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
    }

    @Test
    void opTsDeclaredNotNullIsTheEpochForSnapshotRows() {
        List<ColumnSchema> columns = new ArrayList<>();
        columns.add(ColumnSchema.builder("id", MySqlType.INT).nullable(false).build(T));
        columns.add(ColumnSchema.builder("amount", MySqlType.DOUBLE).build(T));
        TableSchema schema = new TableSchema(T, columns, new int[] {0});
        RowType declared =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.INT().notNull()),
                                        DataTypes.FIELD("amount", DataTypes.DECIMAL(4, 1)))
                                .getLogicalType();
        ChangelogRowDeserializer d =
                new ChangelogRowDeserializer(
                        TypeInformation.of(RowData.class),
                        declared,
                        List.of(MetadataColumn.ofKey("op_ts", true).orElseThrow()),
                        new DeclaredValueSettings(null, true, true));
        List<RowData> out = new ArrayList<>();
        Collector<RowData> collector =
                new Collector<>() {
                    @Override
                    public void collect(RowData record) {
                        out.add(record);
                    }

                    @Override
                    public void close() {}
                };
        d.deserialize(event(Operation.READ, schema, 1, 12.25), collector);
        d.deserialize(event(Operation.INSERT, schema, 2, -0.05), collector);
        assertThat(out.get(0).getTimestamp(2, 3).getMillisecond()).isZero();
        assertThat(out.get(1).getTimestamp(2, 3).getMillisecond()).isEqualTo(1_700_000_000_000L);
        assertThat(out.get(0).getDecimal(1, 4, 1).toBigDecimal()).isEqualTo(new BigDecimal("12.3"));
        assertThat(out.get(1).getDecimal(1, 4, 1).toBigDecimal())
                .as("-0.05 is stored just beyond -0.05")
                .isEqualTo(new BigDecimal("-0.1"));
        assertThatThrownBy(
                        () -> d.deserialize(event(Operation.INSERT, schema, 3, 1234.5), collector))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("[invalid_configuration]")
                .hasMessageContaining("`shop`.`things`")
                .hasMessageContaining("column 'amount'")
                .hasMessageContaining("DECIMAL(4, 1)")
                .hasMessageNotContaining("1234");
        assertThat(MetadataColumn.readable(true).get("op_ts").getLogicalType().isNullable())
                .isFalse();
        assertThat(MetadataColumn.readable(false).get("op_ts").getLogicalType().isNullable())
                .isTrue();
    }

    private static ChangeEvent event(Operation op, TableSchema schema, int id, double amount) {
        GenericRowData after = new GenericRowData(2);
        after.setField(0, id);
        after.setField(1, amount);
        return new ChangeEvent(
                op,
                null,
                after,
                schema,
                schema.tableId(),
                op == Operation.READ ? null : "3e11fa47-71ca-11e1-9e33-c80aa9429562:7",
                op == Operation.READ ? 1_600_000_000_000_000L : 1_700_000_000_000_000L,
                0);
    }
}

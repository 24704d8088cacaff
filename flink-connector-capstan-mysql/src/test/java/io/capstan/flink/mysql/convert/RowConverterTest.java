package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Binlog-side conversion per type family (the JDBC side runs against MySQL in TypeMatrixIT). */
class RowConverterTest {

    private static final TableId T = TableId.of("db", "t");
    private static final String MARKER = "SECRET-MARKER-42";

    private static ColumnSchema.Builder col(String name, MySqlType type) {
        return ColumnSchema.builder(name, type);
    }

    private static GenericRowData convert(ColumnSchema column, Serializable raw) {
        TableSchema schema = new TableSchema(T, List.of(column), new int[0]);
        return RowConverter.of(schema).fromBinlog(new Serializable[] {raw});
    }

    @Test
    void unsignedIntegersAreWidenedFromTheSignedBinlogValue() {
        assertThat(convert(col("a", MySqlType.TINYINT).unsigned(true).build(T), -1).getField(0))
                .isEqualTo((short) 255);
        assertThat(convert(col("a", MySqlType.SMALLINT).unsigned(true).build(T), -1).getField(0))
                .isEqualTo(65535);
        assertThat(convert(col("a", MySqlType.MEDIUMINT).unsigned(true).build(T), -1).getField(0))
                .isEqualTo(16777215);
        assertThat(convert(col("a", MySqlType.INT).unsigned(true).build(T), -1).getField(0))
                .isEqualTo(4294967295L);
        assertThat(convert(col("a", MySqlType.BIGINT).unsigned(true).build(T), -1L).getField(0))
                .isEqualTo(
                        DecimalData.fromBigDecimal(new BigDecimal("18446744073709551615"), 20, 0));
        assertThat(convert(col("a", MySqlType.TINYINT).build(T), -128).getField(0))
                .isEqualTo((byte) -128);
        assertThat(convert(col("a", MySqlType.MEDIUMINT).build(T), -8388608).getField(0))
                .isEqualTo(-8388608);
    }

    @Test
    void decimalsWiderThanFlinkAreText() {
        ColumnSchema wide = col("d", MySqlType.DECIMAL).precision(65).scale(30).build(T);
        assertThat(wide.logicalType().asSummaryString()).isEqualTo("STRING");
        assertThat(convert(wide, new BigDecimal("-1.5")).getField(0))
                .isEqualTo(StringData.fromString("-1.500000000000000000000000000000"));
        ColumnSchema narrow = col("d", MySqlType.DECIMAL).precision(10).scale(2).build(T);
        assertThat(convert(narrow, new BigDecimal("12.30")).getField(0))
                .isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("12.30"), 10, 2));
    }

    @Test
    void floatIsTheStoredFloatExactly() {
        ColumnSchema f = col("f", MySqlType.FLOAT).build(T);
        // Not the 6 digits MySQL prints (3.14159, 1.67772E7, 0.1).
        assertThat(convert(f, 3.1415927f).getField(0)).isEqualTo(3.1415927f);
        assertThat(convert(f, 16777216f).getField(0)).isEqualTo(16777216f);
        assertThat(convert(f, Math.nextUp(0.1f)).getField(0)).isEqualTo(Math.nextUp(0.1f));
        assertThat(convert(f, -0.0f).getField(0)).isEqualTo(-0.0f);
        assertThat(convert(f, 0.5f).getField(0)).isEqualTo(0.5f);
    }

    @Test
    void onlyAFloatIsSelectedThroughAnExactDoubleExpression() {
        TableSchema schema =
                new TableSchema(
                        T,
                        List.of(
                                col("f", MySqlType.FLOAT).build(T),
                                col("d`q", MySqlType.DOUBLE).build(T),
                                col("i", MySqlType.INT).build(T)),
                        new int[0]);
        RowConverter converter = RowConverter.of(schema);
        // col * 1e0 is the stored float as a DOUBLE, printed in full (and -0 stays -0).
        assertThat(converter.selectExpression(0)).isEqualTo("`f` * 1e0");
        assertThat(converter.selectExpression(1)).isEqualTo("`d``q`");
        assertThat(converter.selectExpression(2)).isEqualTo("`i`");
    }

    @Test
    void stringsDecodeWithTheColumnCharset() {
        ColumnSchema latin1 = col("c", MySqlType.VARCHAR).charset("latin1").length(5).build(T);
        assertThat(convert(latin1, new byte[] {(byte) 0xE9, (byte) 0x80}).getField(0))
                .isEqualTo(StringData.fromString("é€"));
        ColumnSchema utf8 = col("c", MySqlType.TEXT).charset("utf8mb4").build(T);
        assertThat(convert(utf8, "😀 ".getBytes(StandardCharsets.UTF_8)).getField(0))
                .isEqualTo(StringData.fromString("😀 "));
        ColumnSchema fixed = col("c", MySqlType.CHAR).charset("utf8").length(5).build(T);
        assertThat(fixed.charset()).isEqualTo("utf8mb3");
        assertThat(convert(fixed, "ab  ".getBytes(StandardCharsets.UTF_8)).getField(0))
                .isEqualTo(StringData.fromString("ab"));
    }

    @Test
    void binaryIsRepaddedAndBlobIsNot() {
        ColumnSchema binary = col("b", MySqlType.BINARY).length(4).build(T);
        assertThat((byte[]) convert(binary, new byte[] {1}).getField(0))
                .containsExactly(1, 0, 0, 0);
        ColumnSchema blob = col("b", MySqlType.BLOB).build(T);
        assertThat((byte[]) convert(blob, new byte[] {1}).getField(0)).containsExactly(1);
    }

    @Test
    void bitOneIsBooleanAndWiderBitsAreBytes() {
        assertThat(convert(col("b", MySqlType.BIT).length(1).build(T), new byte[] {1}).getField(0))
                .isEqualTo(true);
        assertThat(convert(col("b", MySqlType.BIT).length(1).build(T), new byte[] {0}).getField(0))
                .isEqualTo(false);
        assertThat(
                        (byte[])
                                convert(
                                                col("b", MySqlType.BIT).length(10).build(T),
                                                new byte[] {2, 1})
                                        .getField(0))
                .containsExactly(2, 1);
    }

    @Test
    void enumAndSetLabels() {
        ColumnSchema e = col("e", MySqlType.ENUM).enumValues(List.of("x", "it's")).build(T);
        assertThat(convert(e, 2).getField(0)).isEqualTo(StringData.fromString("it's"));
        assertThat(convert(e, 0).getField(0)).isEqualTo(StringData.fromString(""));
        ColumnSchema s = col("s", MySqlType.SET).setValues(List.of("a", "b", "c", "d")).build(T);
        assertThat(convert(s, 0b1001L).getField(0)).isEqualTo(StringData.fromString("a,d"));
        assertThat(convert(s, 0L).getField(0)).isEqualTo(StringData.fromString(""));
    }

    @Test
    void spatialDropsTheSrid() {
        byte[] stored = {(byte) 0xE6, 0x10, 0, 0, 1, 2, 3};
        assertThat((byte[]) convert(col("g", MySqlType.POINT).build(T), stored).getField(0))
                .containsExactly(1, 2, 3);
    }

    @Test
    void spatialKeepsTheSridInMySqlsOwnForm() {
        byte[] stored = {(byte) 0xE6, 0x10, 0, 0, 1, 2, 3};
        TableSchema schema =
                new TableSchema(T, List.of(col("g", MySqlType.GEOMETRY).build(T)), new int[0]);
        RowConverter internal = RowConverter.of(schema, SpatialValueForm.MYSQL_INTERNAL);
        assertThat((byte[]) internal.fromBinlog(new Serializable[] {stored}).getField(0))
                .containsExactly(0xE6, 0x10, 0, 0, 1, 2, 3);
        assertThatThrownBy(() -> internal.fromBinlog(new Serializable[] {new byte[] {1, 2}}))
                .isInstanceOf(CapstanHaltException.class);
    }

    /** Every type's converter can be built, and a NULL cell stays NULL (the row loop skips it). */
    @Test
    void nullsStayNullInEveryType() {
        for (MySqlType type : MySqlType.values()) {
            ColumnSchema.Builder b =
                    col("c", type)
                            .charset("utf8mb4")
                            .length(1)
                            .precision(type.hasFractionalSeconds() ? 6 : 10)
                            .scale(0);
            assertThat(convert(b.build(T), null).getField(0)).as(type.name()).isNull();
        }
    }

    @Test
    void errorsNameTableAndColumnButNeverTheValue() {
        ColumnSchema c = col("amount", MySqlType.INT).build(T);
        assertThatThrownBy(() -> convert(c, MARKER))
                .isInstanceOf(CapstanHaltException.class)
                .satisfies(
                        e -> {
                            assertThat(((CapstanHaltException) e).reason())
                                    .isEqualTo(HaltReason.UNDECODABLE_COLUMN);
                            assertThat(e.getMessage())
                                    .contains("db.t")
                                    .contains("amount")
                                    .doesNotContain(MARKER);
                            assertThat(e.getCause()).isNull();
                        });
        ColumnSchema e = col("e", MySqlType.ENUM).enumValues(List.of(MARKER)).build(T);
        assertThatThrownBy(() -> convert(e, 7))
                .hasMessageNotContaining(MARKER)
                .hasMessageContaining("column e");
        assertThat(e.toString()).doesNotContain(MARKER);
        assertThat(RowConverter.of(new TableSchema(T, List.of(e), new int[0])).toString())
                .doesNotContain(MARKER);
    }

    @Test
    void invalidDecimalDefinitionIsRefusedNamingTheColumn() {
        assertThatThrownBy(() -> col("d", MySqlType.DECIMAL).precision(0).build(T))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("unsupported_column_type")
                .hasMessageContaining("column d");
    }
}

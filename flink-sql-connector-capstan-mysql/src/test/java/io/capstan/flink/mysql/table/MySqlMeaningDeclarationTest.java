package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Declarations that are no widening but keep MySQL's meaning, as mysql-cdc maps them: TINYINT as
 * BOOLEAN (0 false, any other value true) and TIME(q <= 3) as TIME(p >= q), halting on a value that
 * is no time of day.
 */
class MySqlMeaningDeclarationTest {

    private static final TableId T = TableId.of("shop", "clocks");

    private static ColumnSchema column(MySqlType type, int precision, boolean unsigned) {
        ColumnSchema.Builder b = ColumnSchema.builder("c", type).unsigned(unsigned);
        if (precision > 0) {
            b.precision(precision);
        }
        return b.build(T);
    }

    private static LogicalType t(DataType d) {
        return d.getLogicalType();
    }

    @Test
    void aTinyintIsDeclarableAsBooleanAndNothingElseIntegerIs() {
        ColumnSchema tinyint = column(MySqlType.TINYINT, 0, false);
        ColumnSchema unsignedTinyint = column(MySqlType.TINYINT, 0, true);
        ColumnSchema integer = column(MySqlType.INT, 0, false);
        assertThat(DeclaredTypeRule.isMySqlMeaning(tinyint, t(DataTypes.BOOLEAN()))).isTrue();
        assertThat(DeclaredTypeRule.isMySqlMeaning(unsignedTinyint, t(DataTypes.BOOLEAN())))
                .isTrue();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                tinyint, tinyint.logicalType(), t(DataTypes.BOOLEAN())))
                .isEmpty();
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                integer, integer.logicalType(), t(DataTypes.BOOLEAN())))
                .hasValueSatisfying(r -> assertThat(r).contains("declare INT"));
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                tinyint, tinyint.logicalType(), t(DataTypes.DATE())))
                .hasValueSatisfying(r -> assertThat(r).contains("declare TINYINT, BOOLEAN"));
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                null, tinyint.logicalType(), t(DataTypes.BOOLEAN())))
                .as("without the MySQL column only widenings are known")
                .isPresent();
    }

    @Test
    void booleanIsMySqlsTruth() {
        FieldWidening w =
                FieldWidening.between(
                        column(MySqlType.TINYINT, 0, false),
                        t(DataTypes.TINYINT()),
                        t(DataTypes.BOOLEAN()));
        assertThat(w.widen((byte) 0)).isEqualTo(false);
        assertThat(w.widen((byte) 1)).isEqualTo(true);
        assertThat(w.widen((byte) -1)).isEqualTo(true);
        assertThat(w.widen((byte) 2)).isEqualTo(true);
        assertThat(w.widen((byte) 127)).isEqualTo(true);
        assertThat(w.widen((byte) -128)).isEqualTo(true);
        FieldWidening unsigned =
                FieldWidening.between(
                        column(MySqlType.TINYINT, 0, true),
                        t(DataTypes.SMALLINT()),
                        t(DataTypes.BOOLEAN()));
        assertThat(unsigned.widen((short) 0)).isEqualTo(false);
        assertThat(unsigned.widen((short) 256 - 1)).isEqualTo(true);
    }

    @Test
    void aTimeUpToMillisecondsIsDeclarableAsTimeOfAtLeastItsPrecision() {
        ColumnSchema time3 = column(MySqlType.TIME, 3, false);
        ColumnSchema time0 = column(MySqlType.TIME, 0, false);
        ColumnSchema time6 = column(MySqlType.TIME, 6, false);
        LogicalType micros = t(DataTypes.BIGINT());
        assertThat(DeclaredTypeRule.incompatibility(time3, micros, t(DataTypes.TIME(3)))).isEmpty();
        assertThat(DeclaredTypeRule.incompatibility(time0, micros, t(DataTypes.TIME(0)))).isEmpty();
        assertThat(DeclaredTypeRule.incompatibility(time0, micros, t(DataTypes.TIME(3)))).isEmpty();
        assertThat(DeclaredTypeRule.incompatibility(time3, micros, micros)).isEmpty();
        assertThat(DeclaredTypeRule.incompatibility(time3, micros, t(DataTypes.TIME(0))))
                .hasValueSatisfying(
                        r ->
                                assertThat(r)
                                        .contains("precision is below")
                                        .contains("TIME(3)")
                                        .contains("on Flink 1.20")
                                        .contains("BIGINT"));
        assertThat(DeclaredTypeRule.incompatibility(time6, micros, t(DataTypes.TIME(6))))
                .hasValueSatisfying(
                        r ->
                                assertThat(r)
                                        .contains("Flink's TIME holds milliseconds")
                                        .contains("declare BIGINT"));
        assertThat(DeclaredTypeRule.incompatibility(time3, micros, t(DataTypes.STRING())))
                .hasValueSatisfying(
                        r -> assertThat(r).contains("declare BIGINT").contains("or TIME(3)"));
        ColumnSchema bigint = column(MySqlType.BIGINT, 0, false);
        assertThat(DeclaredTypeRule.incompatibility(bigint, micros, t(DataTypes.TIME(3))))
                .as("a BIGINT column is no time")
                .isPresent();
    }

    @Test
    void aTimeOfDayConvertsExactlyAndAnythingElseDoesNotFit() {
        FieldWidening w =
                FieldWidening.between(
                        column(MySqlType.TIME, 3, false),
                        t(DataTypes.BIGINT()),
                        t(DataTypes.TIME(3)));
        assertThat(w.widen(0L)).isEqualTo(0);
        assertThat(w.widen(45_296_789_000L)).isEqualTo(45_296_789); // 12:34:56.789
        assertThat(w.widen(86_399_999_000L)).isEqualTo(86_399_999); // 23:59:59.999
        for (long notATimeOfDay :
                new long[] {86_400_000_000L, -1_000L, -3_020_399_000_000L, 3_020_399_000_000L}) {
            assertThatThrownBy(() -> w.widen(notATimeOfDay))
                    .as("%d µs", notATimeOfDay)
                    .isInstanceOf(FieldWidening.DoesNotFit.class)
                    .hasMessageNotContaining(Long.toString(notATimeOfDay));
        }
        assertThatThrownBy(() -> w.widen(1_500L))
                .as("never cut below a millisecond")
                .isInstanceOf(FieldWidening.DoesNotFit.class);
    }

    @Test
    void rowsConvertAndATimeOutsideADayHaltsNamingTableAndColumn() throws Exception {
        List<ColumnSchema> columns = new ArrayList<>();
        columns.add(ColumnSchema.builder("id", MySqlType.INT).nullable(false).build(T));
        columns.add(ColumnSchema.builder("flag", MySqlType.TINYINT).build(T));
        columns.add(ColumnSchema.builder("at", MySqlType.TIME).precision(3).build(T));
        TableSchema schema = new TableSchema(T, columns, new int[] {0});
        RowType declared =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.INT().notNull()),
                                        DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
                                        DataTypes.FIELD("at", DataTypes.TIME(3)))
                                .getLogicalType();
        ChangelogRowDeserializer d =
                new ChangelogRowDeserializer(
                        TypeInformation.of(RowData.class), declared, List.of());
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
        d.deserialize(insert(schema, 1, (byte) 5, 3_600_000_000L), collector);
        d.deserialize(insert(schema, 2, (byte) 0, null), collector);
        assertThat(out.get(0).getBoolean(1)).isTrue();
        assertThat(out.get(0).getInt(2)).isEqualTo(3_600_000);
        assertThat(out.get(1).getBoolean(1)).isFalse();
        assertThat(out.get(1).isNullAt(2)).isTrue();

        long hundredHours = 360_000_000_000L;
        assertThatThrownBy(
                        () -> d.deserialize(insert(schema, 3, (byte) 1, hundredHours), collector))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("[invalid_configuration]")
                .hasMessageContaining("`shop`.`clocks`")
                .hasMessageContaining("column 'at'")
                .hasMessageContaining("TIME(3)")
                .hasMessageContaining("declare the column BIGINT")
                .hasMessageNotContaining(Long.toString(hundredHours))
                .hasMessageNotContaining("100:00:00");
    }

    private static ChangeEvent insert(TableSchema schema, int id, byte flag, Long micros) {
        GenericRowData after = new GenericRowData(3);
        after.setField(0, id);
        after.setField(1, flag);
        after.setField(2, micros);
        return new ChangeEvent(
                Operation.INSERT,
                null,
                after,
                schema,
                schema.tableId(),
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:7",
                1_700_000_000_000_000L,
                0);
    }
}

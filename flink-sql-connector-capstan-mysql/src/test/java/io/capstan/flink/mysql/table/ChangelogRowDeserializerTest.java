package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangelogRowDeserializerTest {

    private static final TableId ORDERS_1 = TableId.of("shop", "orders_1");
    private static final TableId ORDERS_2 = TableId.of("shop", "orders_2");

    /** MySQL columns: id INT PK, status VARCHAR(16), amount DECIMAL(12,2). */
    private static TableSchema schema(TableId id, boolean reversed) {
        List<ColumnSchema> cols = new ArrayList<>();
        cols.add(ColumnSchema.builder("id", MySqlType.INT).nullable(false).build(id));
        cols.add(
                ColumnSchema.builder("status", MySqlType.VARCHAR)
                        .length(16)
                        .charset("utf8mb4")
                        .build(id));
        cols.add(
                ColumnSchema.builder("amount", MySqlType.DECIMAL).precision(12).scale(2).build(id));
        if (reversed) {
            // a shard whose columns are in another order: mapping is by name
            List<ColumnSchema> r = new ArrayList<>(cols);
            java.util.Collections.reverse(r);
            return new TableSchema(id, r, new int[] {2});
        }
        return new TableSchema(id, cols, new int[] {0});
    }

    private static GenericRowData image(TableSchema s, int id, String status, String amount) {
        GenericRowData r = new GenericRowData(3);
        r.setField(s.columnIndex("id"), id);
        r.setField(s.columnIndex("status"), StringData.fromString(status));
        r.setField(
                s.columnIndex("amount"), DecimalData.fromBigDecimal(new BigDecimal(amount), 12, 2));
        return r;
    }

    /** Declared (projected) physical fields: AMOUNT DECIMAL(14,4), ID BIGINT; then metadata. */
    private static ChangelogRowDeserializer deserializer() {
        RowType physical =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("AMOUNT", DataTypes.DECIMAL(14, 4)),
                                        DataTypes.FIELD("id", DataTypes.BIGINT().notNull()))
                                .getLogicalType();
        return new ChangelogRowDeserializer(
                TypeInformation.of(RowData.class),
                physical,
                List.of(
                        MetadataColumn.TABLE_NAME,
                        MetadataColumn.ROW_KIND,
                        MetadataColumn.OP_TS,
                        MetadataColumn.GTID,
                        MetadataColumn.DATABASE_NAME));
    }

    private static List<RowData> run(ChangelogRowDeserializer d, ChangeEvent... events)
            throws Exception {
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
        for (ChangeEvent e : events) {
            d.deserialize(e, collector);
        }
        return out;
    }

    @Test
    void appendOnlyEmitsEveryImageAsAnInsertWithItsOwnKindAsMetadata() throws Exception {
        TableSchema s = schema(ORDERS_1, false);
        RowType physical =
                (RowType)
                        DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT().notNull()))
                                .getLogicalType();
        ChangelogRowDeserializer d =
                new ChangelogRowDeserializer(
                        TypeInformation.of(RowData.class),
                        physical,
                        List.of(MetadataColumn.ROW_KIND),
                        DeclaredValueSettings.AS_MAPPED,
                        true);
        String gtid = "3e11fa47-71ca-11e1-9e33-c80aa9429562:7";
        List<RowData> rows =
                run(
                        d,
                        new ChangeEvent(
                                Operation.READ,
                                null,
                                image(s, 1, "A", "1"),
                                s,
                                ORDERS_1,
                                null,
                                0,
                                0),
                        new ChangeEvent(
                                Operation.INSERT,
                                null,
                                image(s, 2, "A", "1"),
                                s,
                                ORDERS_1,
                                gtid,
                                1L,
                                0),
                        new ChangeEvent(
                                Operation.UPDATE,
                                image(s, 2, "A", "1"),
                                image(s, 3, "B", "1"),
                                s,
                                ORDERS_1,
                                gtid,
                                1L,
                                0),
                        new ChangeEvent(
                                Operation.DELETE,
                                image(s, 3, "B", "1"),
                                null,
                                s,
                                ORDERS_1,
                                gtid,
                                1L,
                                0));
        assertThat(rows).extracting(RowData::getRowKind).containsOnly(RowKind.INSERT);
        assertThat(rows).extracting(r -> r.getLong(0)).containsExactly(1L, 2L, 2L, 3L, 3L);
        assertThat(rows)
                .extracting(r -> r.getString(1).toString())
                .containsExactly("+I", "+I", "-U", "+U", "-D");
    }

    @Test
    void projectsByNameWidensAndAppendsMetadata() throws Exception {
        TableSchema s1 = schema(ORDERS_1, false);
        TableSchema s2 = schema(ORDERS_2, true);
        List<RowData> rows =
                run(
                        deserializer(),
                        new ChangeEvent(
                                Operation.READ,
                                null,
                                image(s1, 1, "NEW", "10.50"),
                                s1,
                                ORDERS_1,
                                null,
                                0,
                                0),
                        new ChangeEvent(
                                Operation.UPDATE,
                                image(s2, 2, "NEW", "1.00"),
                                image(s2, 2, "PAID", "2.00"),
                                s2,
                                ORDERS_2,
                                "3e11fa47-71ca-11e1-9e33-c80aa9429562:7",
                                1_700_000_000_123_456L,
                                0),
                        new ChangeEvent(
                                Operation.DELETE,
                                image(s1, 1, "NEW", "10.50"),
                                null,
                                s1,
                                ORDERS_1,
                                "3e11fa47-71ca-11e1-9e33-c80aa9429562:8",
                                1_700_000_001_000_000L,
                                0));

        assertThat(rows).hasSize(4);
        assertThat(rows)
                .extracting(RowData::getRowKind)
                .containsExactly(
                        RowKind.INSERT,
                        RowKind.UPDATE_BEFORE,
                        RowKind.UPDATE_AFTER,
                        RowKind.DELETE);

        RowData read = rows.get(0);
        assertThat(read.getArity()).isEqualTo(7);
        assertThat(read.getDecimal(0, 14, 4).toBigDecimal()).isEqualByComparingTo("10.5");
        assertThat(read.getDecimal(0, 14, 4).scale()).isEqualTo(4);
        assertThat(read.getLong(1)).isEqualTo(1L);
        assertThat(read.getString(2).toString()).isEqualTo("orders_1");
        assertThat(read.getString(3).toString()).isEqualTo("+I");
        assertThat(read.isNullAt(4)).as("op_ts of a snapshot row").isTrue();
        assertThat(read.isNullAt(5)).as("gtid of a snapshot row").isTrue();
        assertThat(read.getString(6).toString()).isEqualTo("shop");

        RowData after = rows.get(2);
        assertThat(after.getDecimal(0, 14, 4).toBigDecimal()).isEqualByComparingTo("2.00");
        assertThat(after.getLong(1)).isEqualTo(2L);
        assertThat(after.getString(2).toString()).isEqualTo("orders_2");
        assertThat(after.getString(3).toString()).isEqualTo("+U");
        assertThat(after.getTimestamp(4, 3))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L));
        assertThat(after.getString(5).toString())
                .isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:7");
        assertThat(rows.get(1).getString(3).toString()).isEqualTo("-U");
        assertThat(rows.get(1).getDecimal(0, 14, 4).toBigDecimal()).isEqualByComparingTo("1.00");
        assertThat(rows.get(3).getString(3).toString()).isEqualTo("-D");
        assertThat(rows.get(3).getString(2).toString()).isEqualTo("orders_1");
    }

    @Test
    void nullsStayNull() throws Exception {
        TableSchema s1 = schema(ORDERS_1, false);
        GenericRowData img = image(s1, 1, "NEW", "0");
        img.setField(s1.columnIndex("amount"), null);
        RowData row =
                run(
                                deserializer(),
                                new ChangeEvent(
                                        Operation.INSERT,
                                        null,
                                        img,
                                        s1,
                                        ORDERS_1,
                                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1",
                                        0,
                                        0))
                        .get(0);
        assertThat(row.isNullAt(0)).isTrue();
    }

    /**
     * A zero date in a MySQL {@code DATE NOT NULL} column is read as NULL (docs/types.md). Declared
     * nullable, the row carries NULL; declared NOT NULL, the job halts naming table and column
     * (Flink would otherwise trust NOT NULL and fail later, far from the cause).
     */
    @Test
    void aZeroDateInANotNullColumnIsNullOrHaltsWhenDeclaredNotNull() throws Exception {
        List<ColumnSchema> cols =
                List.of(
                        ColumnSchema.builder("id", MySqlType.INT).nullable(false).build(ORDERS_1),
                        ColumnSchema.builder("day", MySqlType.DATE)
                                .nullable(false)
                                .build(ORDERS_1));
        TableSchema s = new TableSchema(ORDERS_1, cols, new int[] {0});
        ChangeEvent zero =
                new ChangeEvent(
                        Operation.INSERT,
                        null,
                        GenericRowData.of(1, null),
                        s,
                        ORDERS_1,
                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1",
                        0,
                        0);
        RowType nullable =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.INT().notNull()),
                                        DataTypes.FIELD("day", DataTypes.DATE()))
                                .getLogicalType();
        RowData row =
                run(
                                new ChangelogRowDeserializer(
                                        TypeInformation.of(RowData.class), nullable, List.of()),
                                zero)
                        .get(0);
        assertThat(row.isNullAt(1)).isTrue();

        RowType notNull =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.INT().notNull()),
                                        DataTypes.FIELD("day", DataTypes.DATE().notNull()))
                                .getLogicalType();
        assertThatThrownBy(
                        () ->
                                run(
                                        new ChangelogRowDeserializer(
                                                TypeInformation.of(RowData.class),
                                                notNull,
                                                List.of()),
                                        zero))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("`shop`.`orders_1`")
                .hasMessageContaining("'day'")
                .hasMessageContaining("NOT NULL");
    }

    @Test
    void aTableThatNoLongerFitsHaltsNamingTableAndColumn() {
        TableId id = TableId.of("shop", "orders_1");
        TableSchema altered =
                new TableSchema(
                        id,
                        List.of(
                                ColumnSchema.builder("id", MySqlType.INT).nullable(false).build(id),
                                ColumnSchema.builder("status", MySqlType.VARCHAR)
                                        .length(16)
                                        .charset("utf8mb4")
                                        .build(id)),
                        new int[] {0});
        GenericRowData img = GenericRowData.of(1, StringData.fromString("SECRET-VALUE"));
        assertThatThrownBy(
                        () ->
                                run(
                                        deserializer(),
                                        new ChangeEvent(
                                                Operation.INSERT,
                                                null,
                                                img,
                                                altered,
                                                id,
                                                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1",
                                                0,
                                                0)))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("`shop`.`orders_1`")
                .hasMessageContaining("column 'AMOUNT' is not among its columns")
                .hasMessageNotContaining("SECRET-VALUE");
    }

    /**
     * A DATETIME declared TIMESTAMP(3) needs no zone, so none is asked at planning; an ALTER to a
     * MySQL TIMESTAMP makes the column a wall clock, which without the zone cannot be shown: a halt
     * by name, not an unnamed failure that restarts forever.
     */
    @Test
    void aColumnAlteredToTimestampWithoutAPlannedZoneHaltsByName() {
        TableSchema altered =
                new TableSchema(
                        ORDERS_1,
                        List.of(
                                ColumnSchema.builder("id", MySqlType.INT)
                                        .nullable(false)
                                        .build(ORDERS_1),
                                ColumnSchema.builder("ts", MySqlType.TIMESTAMP)
                                        .precision(3)
                                        .build(ORDERS_1)),
                        new int[] {0});
        RowType declared =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.INT().notNull()),
                                        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)))
                                .getLogicalType();
        ChangeEvent insert =
                new ChangeEvent(
                        Operation.INSERT,
                        null,
                        GenericRowData.of(1, TimestampData.fromEpochMillis(0)),
                        altered,
                        ORDERS_1,
                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1",
                        0,
                        0);
        assertThatThrownBy(
                        () ->
                                run(
                                        new ChangelogRowDeserializer(
                                                TypeInformation.of(RowData.class),
                                                declared,
                                                List.of()),
                                        insert))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION))
                .hasMessageContaining("`shop`.`orders_1`")
                .hasMessageContaining("'ts' is now a MySQL TIMESTAMP");
    }
}

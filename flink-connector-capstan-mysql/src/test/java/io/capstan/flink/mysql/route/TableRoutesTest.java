package io.capstan.flink.mysql.route;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Routed rows: one fixed Flink row type, each change in its own table's field. */
class TableRoutesTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final TableId NOTES = TableId.of("shop", "notes");

    private static final TableSchema ORDERS_SCHEMA =
            new TableSchema(
                    ORDERS,
                    List.of(
                            ColumnSchema.builder("id", MySqlType.BIGINT).build(ORDERS),
                            ColumnSchema.builder("qty", MySqlType.INT).build(ORDERS)),
                    new int[] {0});
    private static final TableSchema NOTES_SCHEMA =
            new TableSchema(
                    NOTES,
                    List.of(
                            ColumnSchema.builder("text", MySqlType.VARCHAR)
                                    .length(20)
                                    .charset("utf8mb4")
                                    .build(NOTES),
                            ColumnSchema.builder("id", MySqlType.INT).build(NOTES)),
                    new int[] {1});

    private static final TableRoutes ROUTES =
            TableRoutes.of(
                    List.of(
                            TableRoutes.routedTable(ORDERS_SCHEMA),
                            TableRoutes.routedTable(NOTES_SCHEMA)));

    @Test
    void theRoutedRowTypeHasTheRouteThenOneNullableRowPerTable() {
        RowType t = ROUTES.routedRowType();
        assertThat(t.getFieldNames()).containsExactly("route", "t0", "t1");
        assertThat(t.getTypeAt(0).isNullable()).isFalse();
        assertThat(t.getTypeAt(2)).isEqualTo(NOTES_SCHEMA.rowType().copy(true));
        assertThat(ROUTES.table(NOTES).primaryKey()).containsExactly("id");
        assertThat(ROUTES.table(TableId.of("shop", "other"))).isNull();
    }

    @Test
    void anUpdateBecomesTwoRoutedRowsInItsTablesFieldWithTheirKinds() throws Exception {
        Rows out = new Rows();
        ROUTES.deserializer()
                .deserialize(
                        new ChangeEvent(
                                Operation.UPDATE,
                                GenericRowData.of(StringData.fromString("a"), 7),
                                GenericRowData.of(StringData.fromString("b"), 7),
                                NOTES_SCHEMA,
                                NOTES,
                                "u:5",
                                1L,
                                0),
                        out);
        assertThat(out.list).hasSize(2);
        RowData before = out.list.get(0);
        RowData after = out.list.get(1);
        assertThat(before.getRowKind()).isEqualTo(RowKind.UPDATE_BEFORE);
        assertThat(after.getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(after.getInt(0)).isEqualTo(1);
        assertThat(after.isNullAt(1)).as("the other table's field").isTrue();
        assertThat(after.getRow(2, 2).getString(0).toString()).isEqualTo("b");

        // What Flink does between operators: the routed row survives its own serializer whole.
        TypeSerializer<RowData> serializer =
                ROUTES.deserializer()
                        .getProducedType()
                        .createSerializer(new SerializerConfigImpl());
        DataOutputSerializer bytes = new DataOutputSerializer(64);
        serializer.serialize(before, bytes);
        RowData back = serializer.deserialize(new DataInputDeserializer(bytes.getCopyOfBuffer()));
        assertThat(back.getRowKind()).isEqualTo(RowKind.UPDATE_BEFORE);
        assertThat(back.getInt(0)).isEqualTo(1);
        assertThat(back.getRow(2, 2).getString(0).toString()).isEqualTo("a");
        assertThat(back.getRow(2, 2).getInt(1)).isEqualTo(7);
    }

    @Test
    void aTableWithoutARouteHaltsByNameWithoutItsValues() {
        TableId other = TableId.of("shop", "late");
        TableSchema schema =
                new TableSchema(
                        other,
                        List.of(ColumnSchema.builder("id", MySqlType.BIGINT).build(other)),
                        new int[] {0});
        CapstanHaltException halt =
                catchThrowableOfType(
                        () ->
                                ROUTES.deserializer()
                                        .deserialize(
                                                new ChangeEvent(
                                                        Operation.INSERT,
                                                        null,
                                                        GenericRowData.of(424242L),
                                                        schema,
                                                        other,
                                                        "u:6",
                                                        1L,
                                                        0),
                                                new Rows()),
                        CapstanHaltException.class);
        assertThat(halt.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
        assertThat(halt.getMessage()).contains("`shop`.`late`").doesNotContain("424242");
    }

    private static final class Rows implements Collector<RowData> {
        final List<RowData> list = new ArrayList<>();

        @Override
        public void collect(RowData row) {
            list.add(row);
        }

        @Override
        public void close() {}
    }
}

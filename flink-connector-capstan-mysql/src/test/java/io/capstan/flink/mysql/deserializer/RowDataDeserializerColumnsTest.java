package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.source.TestChanges.SCHEMA;
import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** RowDataDeserializer against its declared row type: by column name, never shifted. */
public class RowDataDeserializerColumnsTest {

    /**
     * Type information that, like Flink's {@code InternalTypeInfo}, tells its row type through a
     * public {@code toLogicalType()} (the table runtime is not on this module's classpath).
     */
    public static final class RowTypeInfo extends GenericTypeInfo<RowData> {
        private static final long serialVersionUID = 1L;
        private final RowType rowType;

        public RowTypeInfo(RowType rowType) {
            super(RowData.class);
            this.rowType = rowType;
        }

        public LogicalType toLogicalType() {
            return rowType;
        }
    }

    private static RowDataDeserializer declared(String... names) {
        LogicalType[] types = new LogicalType[names.length];
        for (int i = 0; i < names.length; i++) {
            types[i] =
                    names[i].equalsIgnoreCase("id") ? new BigIntType(false) : new VarCharType(255);
        }
        return new RowDataDeserializer(new RowTypeInfo(RowType.of(types, names)));
    }

    private static ChangeEvent insert(TableSchema schema, RowData row) {
        return new ChangeEvent(Operation.INSERT, null, row, schema, TABLE, "u:1", 1L, 0);
    }

    /** Column {@code id} BIGINT, the others VARCHAR(255), as {@link #declared} declares them. */
    private static TableSchema schema(String... names) {
        List<ColumnSchema> columns = new java.util.ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            columns.add(
                    names[i].equalsIgnoreCase("id")
                            ? ColumnSchema.builder(names[i], MySqlType.BIGINT).build(TABLE)
                            : ColumnSchema.builder(names[i], MySqlType.VARCHAR)
                                    .length(255)
                                    .charset("utf8mb4")
                                    .build(TABLE));
        }
        return new TableSchema(TABLE, columns, new int[] {0});
    }

    private static HaltReason haltOf(RowDataDeserializer d, TableSchema schema) {
        try {
            d.deserialize(
                    insert(schema, new GenericRowData(schema.rowType().getFieldCount())),
                    new DeserializersTest.ListCollector<>());
            return null;
        } catch (CapstanHaltException e) {
            assertThat(e.getMessage()).contains(TABLE.quoted());
            return e.reason();
        }
    }

    @Test
    void rowsOfTheDeclaredColumnsPass() throws Exception {
        RowDataDeserializer d = declared("ID", "name");
        DeserializersTest.ListCollector<RowData> out = new DeserializersTest.ListCollector<>();
        d.deserialize(insert(SCHEMA, row(1, "a")), out);
        d.deserialize(insert(SCHEMA, row(2, "b")), out);
        assertThat(out.items).hasSize(2);
        assertThat(out.items.get(1).getString(1)).isEqualTo(StringData.fromString("b"));
    }

    @Test
    void undeclaredColumnsAddedDroppedRenamedOrMovedPassWhileADeclaredOneGoneHalts() {
        RowDataDeserializer d = declared("id", "name");
        HaltReason invalid = HaltReason.INVALID_CONFIGURATION;
        assertThat(haltOf(d, schema("c", "id", "name"))).isNull(); // ADD ... FIRST
        assertThat(haltOf(d, schema("id", "name", "c"))).isNull(); // ADD at the end
        assertThat(haltOf(d, schema("id", "c", "name"))).isNull(); // ADD ... AFTER id
        assertThat(haltOf(d, schema("name", "id"))).isNull(); // moved
        assertThat(haltOf(d, schema("id"))).isEqualTo(invalid); // DROP of a declared column
        assertThat(haltOf(d, schema("id", "label"))).isEqualTo(invalid); // RENAME of one
    }

    /** Each declared field takes the value of its column by name, wherever the column now is. */
    @Test
    void fieldsAreTakenByName() throws Exception {
        RowDataDeserializer d = declared("id", "name");
        DeserializersTest.ListCollector<RowData> out = new DeserializersTest.ListCollector<>();
        TableSchema moved = schema("x", "name", "id");
        RowData image =
                GenericRowData.of(StringData.fromString("extra"), StringData.fromString("n"), 7L);
        d.deserialize(
                new ChangeEvent(Operation.UPDATE, image, image, moved, TABLE, "u:1", 1L, 0), out);
        assertThat(out.items).hasSize(2);
        RowData after = out.items.get(1);
        assertThat(after.getArity()).isEqualTo(2);
        assertThat(after.getLong(0)).isEqualTo(7L);
        assertThat(after.getString(1)).isEqualTo(StringData.fromString("n"));
        assertThat(after.getRowKind()).isEqualTo(org.apache.flink.types.RowKind.UPDATE_AFTER);
        assertThat(out.items.get(0).getRowKind())
                .isEqualTo(org.apache.flink.types.RowKind.UPDATE_BEFORE);
        // the declared columns in their order: the image itself passes, no copy
        RowData same = row(1, "a");
        d.deserialize(insert(SCHEMA, same), out);
        assertThat(out.items.get(2)).isSameAs(same);
    }

    /** A MODIFY that changes a column's data class (or a DECIMAL's storage) halts too. */
    @Test
    void aRetypedColumnHaltsWhileALongerStringPasses() {
        RowDataDeserializer d = declared("id", "name");
        TableSchema retyped =
                new TableSchema(
                        TABLE,
                        List.of(
                                ColumnSchema.builder("id", MySqlType.INT).build(TABLE),
                                ColumnSchema.builder("name", MySqlType.VARCHAR)
                                        .length(255)
                                        .charset("utf8mb4")
                                        .build(TABLE)),
                        new int[] {0});
        assertThat(haltOf(d, retyped)).isEqualTo(HaltReason.INVALID_CONFIGURATION);
        assertThat(
                        RowDataDeserializer.typeMismatch(
                                RowType.of(
                                        new LogicalType[] {new BigIntType(), new VarCharType(255)},
                                        new String[] {"id", "name"}),
                                retyped.rowType()))
                .isEqualTo("column 'id' is read as INT, declared BIGINT");
        TableSchema longer =
                new TableSchema(
                        TABLE,
                        List.of(
                                ColumnSchema.builder("id", MySqlType.BIGINT).build(TABLE),
                                ColumnSchema.builder("name", MySqlType.VARCHAR)
                                        .length(1000)
                                        .charset("utf8mb4")
                                        .build(TABLE)),
                        new int[] {0});
        assertThat(haltOf(declared("id", "name"), longer)).isNull();
        assertThat(
                        RowDataDeserializer.typeMismatch(
                                RowType.of(new DecimalType(10, 2)),
                                RowType.of(new DecimalType(20, 2))))
                .isEqualTo("column 'f0' is read as DECIMAL(20, 2), declared DECIMAL(10, 2)");
    }

    @Test
    void theMessageSaysWhichColumn() {
        List<String> declared = List.of("id", "name");
        assertThat(RowDataDeserializer.mismatch(declared, List.of("c", "id", "name"))).isNull();
        assertThat(RowDataDeserializer.mismatch(declared, List.of("id")))
                .isEqualTo("declared column 'name' is not a column of the table");
        assertThat(RowDataDeserializer.mismatch(declared, List.of("id", "label")))
                .isEqualTo("declared column 'name' is not a column of the table");
        assertThat(RowDataDeserializer.mismatch(declared, List.of("name", "id"))).isNull();
        assertThat(RowDataDeserializer.mismatch(declared, List.of("ID", "Name"))).isNull();
    }

    @Test
    void withoutFieldNamesNothingIsChecked() throws Exception {
        RowDataDeserializer d = new RowDataDeserializer(new GenericTypeInfo<>(RowData.class));
        assertThat(haltOf(d, schema("c", "id", "name"))).isNull();
    }

    @Test
    void aTruncateCannotBeRowsAndHalts() {
        RowDataDeserializer d = declared("id", "name");
        ChangeEvent truncate =
                new ChangeEvent(Operation.TRUNCATE, null, null, null, TABLE, "u:2", 1L, 0);
        assertThatThrownBy(() -> d.deserialize(truncate, new DeserializersTest.ListCollector<>()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.CAPTURED_TABLE_TRUNCATED);
                            assertThat(e.getMessage()).contains("cannot express a TRUNCATE");
                        });
    }

    @Test
    void theJsonEnvelopeOfATruncateIsOpT() throws Exception {
        DeserializersTest.ListCollector<String> out = new DeserializersTest.ListCollector<>();
        new JsonDebeziumDeserializer()
                .deserialize(
                        new ChangeEvent(
                                Operation.TRUNCATE, null, null, null, TABLE, "u:2", 5_000L, 0),
                        out);
        assertThat(out.items).hasSize(1);
        assertThat(out.items.get(0))
                .startsWith("{\"before\":null,\"after\":null,\"op\":\"t\",")
                .contains(
                        "\"db\":\"db\",\"table\":\"t\",\"gtid\":\"u:2\",\"ts_ms\":5,\"snapshot\":false,\"row\":0}");
    }
}

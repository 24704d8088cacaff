package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * With Flink's table runtime on the classpath: option {@code binlog.truncate.handling}, a TRUNCATE
 * meeting the SQL changelog, and RowDataDeserializer reading the names of a real {@code
 * InternalTypeInfo}.
 */
class TruncateAndRowTypeTest {

    private static final TableId T = TableId.of("shop", "orders");

    private static final class ListCollector implements Collector<RowData> {
        final List<RowData> rows = new ArrayList<>();

        @Override
        public void collect(RowData record) {
            rows.add(record);
        }

        @Override
        public void close() {}
    }

    private static TableSchema schema(String... names) {
        List<ColumnSchema> columns = new ArrayList<>();
        for (String n : names) {
            columns.add(ColumnSchema.builder(n, MySqlType.INT).build(T));
        }
        return new TableSchema(T, columns, new int[] {0});
    }

    private static CapstanMySqlTableSource sourceWith(Map<String, String> extra) {
        Map<String, String> options = TableFixtures.validOptions();
        options.putAll(extra);
        return (CapstanMySqlTableSource) TableFixtures.create(options);
    }

    @Test
    void theOptionIsReadAndCheckedDefaultHalt() {
        assertThat(sourceWith(Map.of()).config().source().truncateHandling())
                .isEqualTo(TruncateHandling.HALT);
        assertThat(
                        sourceWith(Map.of("binlog.truncate.handling", "skip"))
                                .config()
                                .source()
                                .truncateHandling())
                .isEqualTo(TruncateHandling.SKIP);
        Throwable bad = catchThrowable(() -> sourceWith(Map.of("binlog.truncate.handling", "x")));
        assertThat(TableFixtures.allMessages(bad))
                .contains("binlog.truncate.handling")
                .contains("halt, emit or skip");
    }

    @Test
    void emitIsRefusedAtPlanningBecauseTheSqlChangelogCannotExpressATruncate() {
        Throwable emit =
                catchThrowable(() -> sourceWith(Map.of("binlog.truncate.handling", "emit")));
        assertThat(TableFixtures.allMessages(emit))
                .contains("binlog.truncate.handling")
                .contains("cannot be expressed by a Flink SQL changelog")
                .contains("'halt'")
                .contains("'skip'");
    }

    @Test
    void rowDataDeserializerReadsTheNamesOfAnInternalTypeInfo() throws Exception {
        RowType declared =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("id", DataTypes.INT()),
                                        DataTypes.FIELD("v", DataTypes.INT()))
                                .getLogicalType();
        RowDataDeserializer d = new RowDataDeserializer(InternalTypeInfo.of(declared));
        ListCollector out = new ListCollector();
        d.deserialize(
                new ChangeEvent(
                        Operation.INSERT,
                        null,
                        GenericRowData.of(1, 2),
                        schema("id", "v"),
                        T,
                        "u:1",
                        1L,
                        0),
                out);
        assertThat(out.rows).hasSize(1);
        d.deserialize(
                new ChangeEvent(
                        Operation.INSERT,
                        null,
                        GenericRowData.of(7, 1, 2),
                        schema("c", "id", "v"),
                        T,
                        "u:2",
                        1L,
                        0),
                out);
        assertThat(out.rows).hasSize(2);
        assertThat(out.rows.get(1).getInt(0)).isEqualTo(1);
        assertThat(out.rows.get(1).getInt(1)).isEqualTo(2);
        ChangeEvent dropped =
                new ChangeEvent(
                        Operation.INSERT,
                        null,
                        GenericRowData.of(1),
                        schema("id"),
                        T,
                        "u:3",
                        1L,
                        0);
        assertThatThrownBy(() -> d.deserialize(dropped, out))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.getMessage()).contains("column 'v'"));
    }
}

package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The schema-change record's shape: Debezium's schema-change topic, without the statement. */
class JsonSchemaChangeRecordTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final TableSchema COLUMNS =
            new TableSchema(
                    ORDERS,
                    List.of(
                            ColumnSchema.builder("id", MySqlType.BIGINT)
                                    .unsigned(true)
                                    .nullable(false)
                                    .build(ORDERS),
                            ColumnSchema.builder("price", MySqlType.DECIMAL)
                                    .precision(10)
                                    .scale(2)
                                    .build(ORDERS),
                            ColumnSchema.builder("note", MySqlType.VARCHAR)
                                    .length(64)
                                    .charset("utf8mb4")
                                    .build(ORDERS)),
                    new int[] {0});

    private static ChangeEvent schemaChange(TableSchema columns, String kind) {
        return new ChangeEvent(
                Operation.SCHEMA_CHANGE,
                null,
                null,
                columns,
                ORDERS,
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:43",
                1_700_000_000_000_000L,
                0,
                kind);
    }

    private static JsonNode json(ChangeEvent event) throws Exception {
        DeserializersTest.ListCollector<String> out = new DeserializersTest.ListCollector<>();
        new JsonDebeziumDeserializer(Clock.fixed(Instant.ofEpochMilli(99), ZoneOffset.UTC))
                .deserialize(event, out);
        assertThat(out.items).hasSize(1);
        return new ObjectMapper().readTree(out.items.get(0));
    }

    @Test
    void anAlterIsWrittenInDebeziumsSchemaChangeShape() throws Exception {
        JsonNode n = json(schemaChange(COLUMNS, "ALTER TABLE"));
        assertThat(n.has("op")).isFalse();
        assertThat(n.has("before")).isFalse();
        assertThat(n.path("source").path("db").asText()).isEqualTo("shop");
        assertThat(n.path("source").path("table").asText()).isEqualTo("orders");
        assertThat(n.path("source").path("gtid").asText()).endsWith(":43");
        assertThat(n.path("source").path("ts_ms").asLong()).isEqualTo(1_700_000_000_000L);
        assertThat(n.path("source").path("row").asInt()).isZero();
        assertThat(n.path("ts_ms").asLong()).isEqualTo(99);
        assertThat(n.path("databaseName").asText()).isEqualTo("shop");
        assertThat(n.path("ddl").isNull()).isTrue();
        assertThat(n.path("ddlKind").asText()).isEqualTo("ALTER TABLE");
        JsonNode change = n.path("tableChanges").get(0);
        assertThat(change.path("type").asText()).isEqualTo("ALTER");
        assertThat(change.path("id").asText()).isEqualTo("\"shop\".\"orders\"");
        assertThat(change.path("table").path("primaryKeyColumnNames").get(0).asText())
                .isEqualTo("id");
        JsonNode columns = change.path("table").path("columns");
        assertThat(columns).hasSize(3);
        assertThat(columns.get(0).path("name").asText()).isEqualTo("id");
        assertThat(columns.get(0).path("typeName").asText()).isEqualTo("BIGINT");
        assertThat(columns.get(0).path("unsigned").asBoolean()).isTrue();
        assertThat(columns.get(0).path("optional").asBoolean()).isFalse();
        assertThat(columns.get(0).path("position").asInt()).isEqualTo(1);
        assertThat(columns.get(1).path("typeName").asText()).isEqualTo("DECIMAL");
        assertThat(columns.get(1).path("length").asInt()).isEqualTo(10);
        assertThat(columns.get(1).path("scale").asInt()).isEqualTo(2);
        assertThat(columns.get(2).path("length").asInt()).isEqualTo(64);
        assertThat(columns.get(2).path("optional").asBoolean()).isTrue();
    }

    @Test
    void aCreateIsOfTypeCreateAndUnknownColumnsAreNull() throws Exception {
        assertThat(
                        json(schemaChange(COLUMNS, "CREATE TABLE"))
                                .path("tableChanges")
                                .get(0)
                                .path("type")
                                .asText())
                .isEqualTo("CREATE");
        JsonNode unknown = json(schemaChange(null, "ALTER TABLE")).path("tableChanges").get(0);
        assertThat(unknown.path("table").isNull()).isTrue();
    }

    @Test
    void rowDataEmitsNothingForASchemaChange() throws Exception {
        DeserializersTest.ListCollector<RowData> out = new DeserializersTest.ListCollector<>();
        new RowDataDeserializer(TypeInformation.of(RowData.class))
                .deserialize(schemaChange(COLUMNS, "ALTER TABLE"), out);
        assertThat(out.items).isEmpty();
    }

    @Test
    void aKindGoesWithSchemaChangesOnly() {
        assertThatThrownBy(() -> schemaChange(COLUMNS, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () ->
                                new ChangeEvent(
                                        Operation.INSERT,
                                        null,
                                        null,
                                        COLUMNS,
                                        ORDERS,
                                        null,
                                        0,
                                        0,
                                        "ALTER TABLE"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

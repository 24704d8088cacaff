package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;

/**
 * Writes a schema-change record in the shape of Debezium's schema-change topic:
 *
 * <pre>{@code
 * {"source":{"connector":"capstan-mysql","db":"shop","table":"orders","gtid":"...:43",
 *            "ts_ms":1700000000000,"snapshot":false,"row":0},
 *  "ts_ms":1700000000123,"databaseName":"shop","schemaName":null,"ddl":null,
 *  "ddlKind":"ALTER TABLE",
 *  "tableChanges":[{"type":"ALTER","id":"\"shop\".\"orders\"",
 *    "table":{"primaryKeyColumnNames":["id"],
 *             "columns":[{"name":"id","typeName":"BIGINT","unsigned":false,"length":0,
 *                         "scale":0,"position":1,"optional":false}, ...]}}]}
 * }</pre>
 *
 * {@code ddl} is always null: the statement's text may hold values (a DEFAULT clause, a CHECK
 * constraint, a comment, a partition's VALUES), which never leave the connector outside rows;
 * {@code ddlKind} says which kind of statement it was. {@code table} is null when the columns right
 * after the statement cannot be known exactly (see {@code ChangeEvent#schema()}).
 */
final class JsonSchemaChangeWriter {

    private JsonSchemaChangeWriter() {}

    /** The fields after {@code source} and {@code ts_ms}. */
    static void writeBody(ChangeEvent event, JsonGenerator json) throws IOException {
        json.writeStringField("databaseName", event.database());
        json.writeNullField("schemaName");
        json.writeNullField("ddl");
        json.writeStringField("ddlKind", event.schemaChangeKind());
        json.writeArrayFieldStart("tableChanges");
        json.writeStartObject();
        json.writeStringField(
                "type", event.schemaChangeKind().startsWith("CREATE TABLE") ? "CREATE" : "ALTER");
        json.writeStringField("id", "\"" + event.database() + "\".\"" + event.table() + "\"");
        TableSchema schema = event.schema();
        if (schema == null) {
            json.writeNullField("table");
        } else {
            json.writeObjectFieldStart("table");
            json.writeArrayFieldStart("primaryKeyColumnNames");
            for (int k : schema.keyColumnIndexes()) {
                json.writeString(schema.column(k).name());
            }
            json.writeEndArray();
            json.writeArrayFieldStart("columns");
            for (int i = 0; i < schema.columnCount(); i++) {
                ColumnSchema c = schema.column(i);
                json.writeStartObject();
                json.writeStringField("name", c.name());
                json.writeStringField("typeName", c.type().name());
                json.writeBooleanField("unsigned", c.unsigned());
                json.writeNumberField(
                        "length",
                        c.type() == io.capstan.flink.mysql.schema.MySqlType.DECIMAL
                                ? c.precision()
                                : c.length());
                json.writeNumberField("scale", c.scale());
                json.writeNumberField("position", i + 1);
                json.writeBooleanField("optional", c.nullable());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndObject();
        json.writeEndArray();
    }
}

package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonGenerator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Emits each change as a Debezium-style JSON envelope, one String per change:
 *
 * <pre>{@code
 * {"before":{...}|null,"after":{...}|null,"op":"c|u|d|r|t","ts_ms":1700000000123,
 *  "source":{"connector":"capstan-mysql","db":"shop","table":"orders",
 *            "gtid":"3e11fa47-...:42","ts_ms":1700000000000,"snapshot":false,"row":0}}
 * }</pre>
 *
 * <p>{@code ts_ms} is when the connector processed the change (as in Debezium); {@code
 * source.ts_ms} is the transaction's commit time; {@code source.row} is the change's index within
 * its transaction. Row values are typed as {@link JsonRowWriter} documents (decimals as exact JSON
 * numbers, temporals as ISO-8601 strings, bytes as base64), which Flink's {@code debezium-json}
 * format reads with {@code 'debezium-json.timestamp-format.standard' = 'ISO-8601'}.
 *
 * <p>A TRUNCATE (option {@code binlog.truncate.handling} = {@code emit}) is {@code "op":"t"} with
 * both images null, as Debezium writes it.
 *
 * <p>A schema change (the builder's {@code includeSchemaChanges(true)}) is written in the shape of
 * Debezium's schema-change topic, without the statement's text ({@link JsonSchemaChangeWriter}).
 *
 * <p>Writers are built once per table schema, not per row.
 */
@PublicEvolving
public final class JsonDebeziumDeserializer implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    private final Clock clock;

    private transient JsonFactory jsonFactory;
    private transient Map<Object, SchemaWriter> writers;

    public JsonDebeziumDeserializer() {
        this(Clock.systemUTC());
    }

    /** For tests: a fixed clock makes {@code ts_ms} deterministic. */
    JsonDebeziumDeserializer(Clock clock) {
        this.clock = clock;
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) throws IOException {
        if (jsonFactory == null) {
            jsonFactory = new JsonFactory();
            writers = new HashMap<>();
        }
        boolean schemaChange = event.operation() == Operation.SCHEMA_CHANGE;
        // A TRUNCATE has no rows (and no schema): both images are null, as in Debezium.
        JsonRowWriter rowWriter =
                event.operation() == Operation.TRUNCATE || schemaChange
                        ? null
                        : writerFor(event.schema());
        StringWriter text = new StringWriter(256);
        try (JsonGenerator json = jsonFactory.createGenerator(text)) {
            json.writeStartObject();
            if (!schemaChange) {
                json.writeFieldName("before");
                writeImage(rowWriter, event.before(), json);
                json.writeFieldName("after");
                writeImage(rowWriter, event.after(), json);
                json.writeStringField("op", event.operation().debeziumCode());
                json.writeNumberField("ts_ms", clock.millis());
            }
            json.writeObjectFieldStart("source");
            json.writeStringField("connector", "capstan-mysql");
            json.writeStringField("db", event.database());
            json.writeStringField("table", event.table());
            if (event.gtid() == null) {
                json.writeNullField("gtid");
            } else {
                json.writeStringField("gtid", event.gtid());
            }
            json.writeNumberField("ts_ms", event.commitTimestampMillis());
            json.writeBooleanField("snapshot", event.operation() == Operation.READ);
            json.writeNumberField("row", event.indexInTransaction());
            json.writeEndObject();
            if (schemaChange) {
                json.writeNumberField("ts_ms", clock.millis());
                JsonSchemaChangeWriter.writeBody(event, json);
            }
            json.writeEndObject();
        }
        out.collect(text.toString());
    }

    private static void writeImage(JsonRowWriter writer, RowData image, JsonGenerator json)
            throws IOException {
        if (writer == null) {
            json.writeNull();
        } else {
            writer.write(image, json);
        }
    }

    private JsonRowWriter writerFor(TableSchema schema) {
        SchemaWriter cached = writers.get(schema.tableId());
        if (cached != null && cached.schema == schema) {
            return cached.writer; // the common case: one schema object per table and source
        }
        // An equal schema from elsewhere (the snapshot's, then the binlog's) keeps the writer but
        // is remembered, so the next rows take the identity check above, not a deep comparison.
        JsonRowWriter writer =
                cached != null && cached.schema.equals(schema)
                        ? cached.writer
                        : JsonRowWriter.forSchema(schema);
        writers.put(schema.tableId(), new SchemaWriter(schema, writer));
        return writer;
    }

    private static final class SchemaWriter {
        final TableSchema schema;
        final JsonRowWriter writer;

        SchemaWriter(TableSchema schema, JsonRowWriter writer) {
            this.schema = schema;
            this.writer = writer;
        }
    }
}

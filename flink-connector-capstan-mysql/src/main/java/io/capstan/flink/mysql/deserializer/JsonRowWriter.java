package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonGenerator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;

/**
 * Writes one table's {@link RowData} as a JSON object keyed by column name. Built once per schema:
 * one field getter and one value writer per column.
 *
 * <p>Value mapping: booleans and integers as JSON booleans and numbers; FLOAT and DOUBLE as
 * numbers; DECIMAL as an exact JSON number (its plain decimal text, never rounded through a
 * double); CHAR/VARCHAR as strings; BINARY/VARBINARY as base64 strings; DATE as {@code yyyy-MM-dd};
 * TIME as {@code HH:mm:ss[.fraction]}; TIMESTAMP as {@code yyyy-MM-ddTHH:mm:ss[.fraction]};
 * TIMESTAMP_LTZ as an instant {@code ...Z}; NULL as null.
 */
final class JsonRowWriter {

    private final String[] names;
    private final RowData.FieldGetter[] getters;
    private final ValueWriter[] values;

    private JsonRowWriter(String[] names, RowData.FieldGetter[] getters, ValueWriter[] values) {
        this.names = names;
        this.getters = getters;
        this.values = values;
    }

    static JsonRowWriter forSchema(TableSchema schema) {
        return forRowType(schema.rowType());
    }

    static JsonRowWriter forRowType(RowType rowType) {
        List<RowType.RowField> fields = rowType.getFields();
        int n = fields.size();
        String[] names = new String[n];
        RowData.FieldGetter[] getters = new RowData.FieldGetter[n];
        ValueWriter[] values = new ValueWriter[n];
        for (int i = 0; i < n; i++) {
            LogicalType type = fields.get(i).getType();
            names[i] = fields.get(i).getName();
            // nullable: Flink 1.20's getter of a NOT NULL type skips the null check (2.x does not)
            getters[i] = RowData.createFieldGetter(type.copy(true), i);
            values[i] = valueWriter(type);
        }
        return new JsonRowWriter(names, getters, values);
    }

    /** Writes the row as an object, or JSON null when the row is absent. */
    void write(@Nullable RowData row, JsonGenerator json) throws IOException {
        if (row == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        for (int i = 0; i < names.length; i++) {
            json.writeFieldName(names[i]);
            Object value = getters[i].getFieldOrNull(row);
            if (value == null) {
                json.writeNull();
            } else {
                values[i].write(value, json);
            }
        }
        json.writeEndObject();
    }

    @FunctionalInterface
    private interface ValueWriter {
        void write(Object value, JsonGenerator json) throws IOException;
    }

    private static ValueWriter valueWriter(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (v, json) -> json.writeBoolean((Boolean) v);
            case TINYINT:
                return (v, json) -> json.writeNumber((Byte) v);
            case SMALLINT:
                return (v, json) -> json.writeNumber((Short) v);
            case INTEGER:
            case INTERVAL_YEAR_MONTH:
                return (v, json) -> json.writeNumber((Integer) v);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return (v, json) -> json.writeNumber((Long) v);
            case FLOAT:
                return (v, json) -> json.writeNumber((Float) v);
            case DOUBLE:
                return (v, json) -> json.writeNumber((Double) v);
            case DECIMAL:
                // Plain text keeps every digit and avoids exponent notation.
                return (v, json) ->
                        json.writeNumber(
                                ((org.apache.flink.table.data.DecimalData) v)
                                        .toBigDecimal()
                                        .toPlainString());
            case CHAR:
            case VARCHAR:
                return (v, json) -> json.writeString(v.toString());
            case BINARY:
            case VARBINARY:
                return (v, json) ->
                        json.writeString(Base64.getEncoder().encodeToString((byte[]) v));
            case DATE:
                return (v, json) ->
                        json.writeString(
                                LocalDate.ofEpochDay((Integer) v)
                                        .format(DateTimeFormatter.ISO_LOCAL_DATE));
            case TIME_WITHOUT_TIME_ZONE:
                return (v, json) ->
                        json.writeString(
                                LocalTime.ofNanoOfDay((Integer) v * 1_000_000L)
                                        .format(DateTimeFormatter.ISO_LOCAL_TIME));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return (v, json) ->
                        json.writeString(
                                ((TimestampData) v)
                                        .toLocalDateTime()
                                        .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return (v, json) -> json.writeString(((TimestampData) v).toInstant().toString());
            default:
                // Types the connector does not produce today (ROW, ARRAY, MAP, ...): their text
                // form.
                return (v, json) -> json.writeString(v.toString());
        }
    }
}

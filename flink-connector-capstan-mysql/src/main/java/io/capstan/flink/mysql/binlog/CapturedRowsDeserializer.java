package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.convert.ByteArraySource;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;

/**
 * Wraps a rows-event deserializer so that rows of uncaptured tables are never decoded.
 *
 * <p>It reads the event's 6-byte table id and looks it up among the table maps already seen (the
 * table map always precedes its rows events). For an uncaptured table it returns a {@link
 * SkippedRowsEventData} and the event deserializer skips the rest of the event's bytes; for a
 * captured table, or an uncaptured one whose changes may cascade into captured ones ({@link
 * TableSchemaCache#decodes}), the id is replayed in front of the remaining bytes and the wrapped
 * deserializer decodes the event as usual. An id no table map announced halts with {@code
 * unmapped_table_id}.
 */
final class CapturedRowsDeserializer implements EventDataDeserializer<EventData> {

    private static final int TABLE_ID_BYTES = 6;

    private final EventDataDeserializer<?> delegate;
    private final TableSchemaCache tables;
    private final BinlogStreamerMetrics metrics;

    CapturedRowsDeserializer(
            EventDataDeserializer<?> delegate,
            TableSchemaCache tables,
            BinlogStreamerMetrics metrics) {
        this.delegate = delegate;
        this.tables = tables;
        this.metrics = metrics;
    }

    @Override
    public EventData deserialize(ByteArrayInputStream in) throws IOException {
        long tableId = in.readLong(TABLE_ID_BYTES);
        TableSchemaCache.Entry entry = tables.lookup(tableId);
        if (entry == null) {
            throw unmapped(tableId);
        }
        if (!tables.decodes(entry)) {
            metrics.uncapturedRowsEventSkipped();
            return new SkippedRowsEventData(tableId);
        }
        return delegate.deserialize(new ByteArrayInputStream(eventBody(tableId, in)));
    }

    static CapstanHaltException unmapped(long tableId) {
        return new CapstanHaltException(
                HaltReason.UNMAPPED_TABLE_ID,
                "a rows event refers to binlog table id "
                        + tableId
                        + " but no table-map event announced it in this stream, so its rows cannot be"
                        + " attributed to a table. Remedy: check that the server writes table maps with"
                        + " every rows event (binlog_format=ROW, no filtering proxy between the server and"
                        + " the connector) and restart from the last checkpoint.");
    }

    /**
     * The event body (the 6 table-id bytes, little endian, then the rest, read in one bulk read) as
     * an unsynchronized stream: the library decodes rows byte by byte, and each of those reads
     * would otherwise go through the connection's stream (per byte through TLS, when on).
     */
    private static ByteArraySource eventBody(long tableId, ByteArrayInputStream rest)
            throws IOException {
        int remaining = rest.available(); // the event's block: what is left of its body
        byte[] bytes = new byte[TABLE_ID_BYTES + remaining];
        for (int k = 0; k < TABLE_ID_BYTES; k++) {
            bytes[k] = (byte) (tableId >>> (8 * k));
        }
        rest.fill(bytes, TABLE_ID_BYTES, remaining);
        return new ByteArraySource(bytes);
    }
}

package io.capstan.flink.mysql.convert;

import com.github.luben.zstd.Zstd;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.ArrayList;

/**
 * Decodes a compressed transaction (TRANSACTION_PAYLOAD, MySQL 8.0.20+
 * {@code binlog_transaction_compression=ON}) and the events inside it with the same configuration
 * as the outer stream ({@link BinlogEventDeserializers#create()}), so their rows have the shapes
 * {@link RowConverter} expects. The library's own payload deserializer decodes the inner events
 * with a default-configured deserializer instead.
 *
 * <p>Header fields (MySQL's Transaction_payload_event): a sequence of (type, length, value) with
 * packed integers, ended by type 0; 1 = payload size, 2 = compression type (0 zstd, 255 none),
 * 3 = uncompressed size. The payload follows.
 */
public final class TransactionPayloadDeserializer implements EventDataDeserializer<TransactionPayloadEventData> {

    private static final int END_MARK = 0;
    private static final int PAYLOAD_SIZE = 1;
    private static final int COMPRESSION_TYPE = 2;
    private static final int UNCOMPRESSED_SIZE = 3;
    static final int ZSTD = 0;
    static final int NONE = 255;

    @Override
    public TransactionPayloadEventData deserialize(ByteArrayInputStream in) throws IOException {
        TransactionPayloadEventData data = new TransactionPayloadEventData();
        byte[] events = readEvents(in, data);
        EventDeserializer inner = BinlogEventDeserializers.create();
        ByteArrayInputStream eventStream = new ByteArrayInputStream(events);
        ArrayList<Event> decoded = new ArrayList<>();
        for (Event e = inner.nextEvent(eventStream); e != null; e = inner.nextEvent(eventStream)) {
            decoded.add(e);
        }
        data.setUncompressedEvents(decoded);
        return data;
    }

    /**
     * Reads a TRANSACTION_PAYLOAD event body: its header fields into {@code data} (not the payload,
     * which is not kept) and returns the inner events' bytes, decompressed (without checksums, as MySQL writes them
     * inside a payload). For callers that decode the inner events one at a time.
     */
    public static byte[] readEvents(ByteArrayInputStream in, TransactionPayloadEventData data) throws IOException {
        while (in.available() > 0) {
            int type = in.readPackedInteger();
            if (type == END_MARK) {
                break;
            }
            int length = in.readPackedInteger();
            switch (type) {
                case PAYLOAD_SIZE:
                    data.setPayloadSize(in.readPackedInteger());
                    break;
                case COMPRESSION_TYPE:
                    data.setCompressionType(in.readPackedInteger());
                    break;
                case UNCOMPRESSED_SIZE:
                    data.setUncompressedSize(in.readPackedInteger());
                    break;
                default:
                    in.read(length); // a field of a newer server: skip it
                    break;
            }
        }
        if (data.getUncompressedSize() == 0) {
            data.setUncompressedSize(data.getPayloadSize());
        }
        byte[] payload = in.read(data.getPayloadSize());
        byte[] events;
        if (data.getCompressionType() == NONE) {
            events = payload;
        } else if (data.getCompressionType() == ZSTD) {
            events = new byte[data.getUncompressedSize()];
            long n;
            try {
                n = Zstd.decompressByteArray(events, 0, events.length, payload, 0, payload.length);
            } catch (RuntimeException e) { // ZstdException: sizes that do not match the frame
                throw new IOException("corrupt zstd transaction payload (" + e.getClass().getSimpleName() + ")");
            }
            if (Zstd.isError(n) || n != events.length) {
                throw new IOException("corrupt zstd transaction payload");
            }
        } else {
            throw new IOException("unknown transaction payload compression type " + data.getCompressionType());
        }
        return events;
    }
}

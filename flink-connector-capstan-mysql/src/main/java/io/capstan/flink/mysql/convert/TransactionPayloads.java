package io.capstan.flink.mysql.convert;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.airlift.compress.zstd.ZstdDecompressor;

import java.io.IOException;

/**
 * Reads a compressed transaction (TRANSACTION_PAYLOAD, MySQL 8.0.20+ {@code
 * binlog_transaction_compression=ON}): its header and its inner events' bytes. The caller decodes
 * those events one at a time with the outer stream's own configuration (the binlog package's {@code
 * CompressedTransactionDeserializer}), so their rows have the shapes {@link RowConverter} expects;
 * the library's own payload deserializer would decode them with a default-configured deserializer,
 * and all at once.
 *
 * <p>Header fields (MySQL's Transaction_payload_event): a sequence of (type, length, value) with
 * packed integers, ended by type 0; 1 = payload size, 2 = compression type (0 zstd, 255 none), 3 =
 * uncompressed size. The payload follows.
 *
 * <p>zstd is decompressed in pure Java (aircompressor), not with the binlog client's zstd-jni: a
 * JNI library's native symbols name its Java package, so the SQL jar could not relocate it, and an
 * unrelocated copy clashes with another zstd-jni in Flink's lib/.
 */
@Internal
public final class TransactionPayloads {

    private static final int END_MARK = 0;
    private static final int PAYLOAD_SIZE = 1;
    private static final int COMPRESSION_TYPE = 2;
    private static final int UNCOMPRESSED_SIZE = 3;
    static final int ZSTD = 0;
    static final int NONE = 255;

    private TransactionPayloads() {}

    /**
     * Reads a TRANSACTION_PAYLOAD event body: its header fields into {@code data} (not the payload,
     * which is not kept) and returns the inner events' bytes, decompressed (without checksums, as
     * MySQL writes them inside a payload).
     */
    public static byte[] readEvents(ByteArrayInputStream in, TransactionPayloadEventData data)
            throws IOException {
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
            int n;
            try {
                n =
                        new ZstdDecompressor()
                                .decompress(payload, 0, payload.length, events, 0, events.length);
            } catch (RuntimeException e) { // MalformedInputException: not a frame of this size
                throw new IOException(
                        "corrupt zstd transaction payload (" + e.getClass().getSimpleName() + ")");
            }
            if (n != events.length) {
                throw new IOException("corrupt zstd transaction payload");
            }
        } else {
            throw new IOException(
                    "unknown transaction payload compression type " + data.getCompressionType());
        }
        return events;
    }
}

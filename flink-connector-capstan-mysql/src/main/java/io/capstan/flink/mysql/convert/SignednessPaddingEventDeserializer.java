package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.schema.read.BinlogSchemaReader;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ChecksumType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializationException;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

/**
 * The library's {@link EventDeserializer}, reading TABLE_MAP events after making their SIGNEDNESS
 * field as long as the library will read it.
 *
 * <p>The library reads one signedness bit per numeric column counting YEAR, but MySQL before 8.0.20
 * writes none for YEAR. When that difference crosses a byte boundary (8 numeric columns and one
 * YEAR, say), the library reads a byte past the field and the whole event fails to decode, for
 * every row change of the table. The field is padded here with zero bytes to the length the library
 * expects; the padding lands after the server's bits, which {@code TableMapMetadataReader} re-deals
 * to the columns the server counted, so no bit moves. Every other byte is passed on unchanged.
 *
 * <p>Overriding {@link #deserializeTableMapEventData} is the library's only way in: a TABLE_MAP
 * deserializer registered in the map still runs behind the library's own, which fails first.
 */
@Internal
final class SignednessPaddingEventDeserializer extends EventDeserializer {

    /** The optional metadata field type of SIGNEDNESS. */
    private static final int SIGNEDNESS = 1;

    private final TableMapEventDataDeserializer library = new TableMapEventDataDeserializer();
    private final Map<Long, TableMapEventData> tableMaps;
    private int checksumLength;

    SignednessPaddingEventDeserializer(
            Map<EventType, EventDataDeserializer> deserializers,
            Map<Long, TableMapEventData> tableMaps) {
        super(
                new EventHeaderV4Deserializer(),
                new NullEventDataDeserializer(),
                deserializers,
                tableMaps);
        this.tableMaps = tableMaps;
    }

    @Override
    public void setChecksumType(ChecksumType checksumType) {
        super.setChecksumType(checksumType);
        this.checksumLength = checksumType.getLength();
    }

    /** As the library's, with the body padded; the table map is remembered for its rows events. */
    @Override
    public EventData deserializeTableMapEventData(ByteArrayInputStream in, EventHeader header)
            throws IOException {
        in.enterBlock((int) header.getDataLength() - checksumLength);
        TableMapEventData data;
        try {
            data = library.deserialize(new ByteArrayInputStream(padded(in.read(in.available()))));
        } catch (IOException | RuntimeException e) {
            throw new EventDataDeserializationException(header, e);
        } finally {
            in.skipToTheEndOfTheBlock();
            in.skip(checksumLength);
        }
        tableMaps.put(data.getTableId(), data);
        return data;
    }

    /** The event body with its SIGNEDNESS field padded, or the body itself when it needs none. */
    static byte[] padded(byte[] body) {
        Cursor c = new Cursor(body);
        c.skip(8); // table id (6) and flags (2)
        c.skip(c.u8() + 1); // database name, zero-terminated
        c.skip(c.u8() + 1); // table name, zero-terminated
        int columns = (int) c.packed();
        byte[] types = Arrays.copyOfRange(body, c.pos, c.pos + columns);
        c.skip(columns);
        c.skip((int) c.packed()); // column metadata
        c.skip((columns + 7) / 8); // null bitmap
        while (c.pos < body.length) {
            int fieldStart = c.pos;
            int type = c.u8();
            int length = (int) c.packed();
            int valueStart = c.pos;
            if (type == SIGNEDNESS) {
                int expected = (libraryNumericColumns(types) + 7) / 8;
                return length < expected
                        ? withField(body, fieldStart, valueStart, length, expected)
                        : body;
            }
            c.skip(length);
        }
        return body;
    }

    /** The columns the library gives a signedness bit: MySQL's numeric types and YEAR. */
    private static int libraryNumericColumns(byte[] types) {
        int n = 0;
        for (byte t : types) {
            if (BinlogSchemaReader.hasLibrarySignedness(t & 0xFF)) {
                n++;
            }
        }
        return n;
    }

    private static byte[] withField(
            byte[] body, int fieldStart, int valueStart, int length, int expected) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + expected);
        out.write(body, 0, fieldStart);
        out.write(SIGNEDNESS);
        writePacked(out, expected);
        out.write(body, valueStart, length);
        out.write(new byte[expected - length], 0, expected - length);
        out.write(body, valueStart + length, body.length - valueStart - length);
        return out.toByteArray();
    }

    /** MySQL's length-encoded integer. */
    private static void writePacked(ByteArrayOutputStream out, int v) {
        if (v < 251) {
            out.write(v);
        } else if (v < 1 << 16) {
            out.write(252);
            out.write(v & 0xFF);
            out.write(v >>> 8);
        } else {
            out.write(253);
            out.write(v & 0xFF);
            out.write((v >>> 8) & 0xFF);
            out.write(v >>> 16);
        }
    }

    /** A little-endian reader over the event body; runs past the end as an IOException. */
    private static final class Cursor {
        private final byte[] b;
        private int pos;

        Cursor(byte[] b) {
            this.b = b;
        }

        int u8() {
            check(1);
            return b[pos++] & 0xFF;
        }

        long packed() {
            int first = u8();
            if (first < 251) {
                return first;
            }
            int size = first == 252 ? 2 : first == 253 ? 3 : first == 254 ? 8 : -1;
            if (size < 0) {
                throw new IllegalStateException("malformed length in a table map event");
            }
            check(size);
            long v = 0;
            for (int i = 0; i < size; i++) {
                v |= (long) (b[pos++] & 0xFF) << (8 * i);
            }
            return v;
        }

        void skip(int n) {
            check(n);
            pos += n;
        }

        private void check(int n) {
            if (n < 0 || pos + n > b.length) {
                throw new IllegalStateException("table map event shorter than its fields");
            }
        }
    }
}

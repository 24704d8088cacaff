package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Prints MySQL's binary JSON exactly as the server prints it (what a JDBC read returns): {@code
 * {"a": 1, "b": [1, 2]}} with ", " and ": " separators, keys in stored order, only {@code " \ \b \f
 * \n \r \t} and other control characters escaped, doubles in the server's shortest round-trip form
 * ({@link MySqlDoubleText}), decimals with their scale, dates/times quoted with six fractional
 * digits (TIME with its sign), other opaque values as {@code "base64:typeN:..."}.
 *
 * <p>Walks the bytes directly with an index (MySQL's binary JSON format: a type byte, then objects
 * and arrays as a count, a size, key entries, value entries with small values inlined, offsets
 * relative to the container's start) and appends UTF-8 to one reusable byte buffer ({@link
 * JsonTextBuffer}): strings and keys are copied as the bytes they are stored as (utf8mb4), and the
 * result becomes Flink's {@code StringData} without a Java {@code String} in between (which Flink
 * would encode back to UTF-8 whenever it copies or serializes the row). Not thread-safe: one
 * instance per JSON column converter, used by the binlog reader thread.
 */
final class MySqlJsonText {

    private static final int SMALL_OBJECT = 0x00;
    private static final int LARGE_OBJECT = 0x01;
    private static final int SMALL_ARRAY = 0x02;
    private static final int LARGE_ARRAY = 0x03;
    private static final int LITERAL = 0x04;
    private static final int INT16 = 0x05;
    private static final int UINT16 = 0x06;
    private static final int INT32 = 0x07;
    private static final int UINT32 = 0x08;
    private static final int INT64 = 0x09;
    private static final int UINT64 = 0x0a;
    private static final int DOUBLE = 0x0b;
    private static final int STRING = 0x0c;
    private static final int OPAQUE = 0x0f;

    private final JsonTextBuffer out = new JsonTextBuffer();

    /** For the digits of doubles, which {@link MySqlDoubleText} writes to a builder. */
    private final StringBuilder doubleDigits = new StringBuilder(32);

    /** The text of one binary JSON value. */
    String print(byte[] binaryJson) throws IOException {
        return new String(printUtf8(binaryJson), StandardCharsets.UTF_8);
    }

    /** The text of one binary JSON value, as UTF-8 in a new array. */
    byte[] printUtf8(byte[] binaryJson) throws IOException {
        out.clear();
        if (binaryJson.length == 0) {
            out.put("null"); // MySQL stores an empty value for a JSON null in some paths
        } else {
            try {
                value(binaryJson, binaryJson[0] & 0xFF, 1);
            } catch (IndexOutOfBoundsException
                    | IllegalArgumentException
                    | NegativeArraySizeException e) {
                // Offsets or lengths pointing outside the value; no value bytes in the message.
                throw new IOException("malformed binary JSON: an offset or length is out of range");
            }
        }
        return out.take();
    }

    /** Appends the value of {@code type} whose data starts at {@code pos}. */
    private void value(byte[] b, int type, int pos) throws IOException {
        switch (type) {
            case SMALL_OBJECT:
                container(b, pos, true, true);
                break;
            case LARGE_OBJECT:
                container(b, pos, false, true);
                break;
            case SMALL_ARRAY:
                container(b, pos, true, false);
                break;
            case LARGE_ARRAY:
                container(b, pos, false, false);
                break;
            case LITERAL:
                literal(b[pos]);
                break;
            case INT16:
                out.putLong((short) uint16(b, pos));
                break;
            case UINT16:
                out.putLong(uint16(b, pos));
                break;
            case INT32:
                out.putLong(int32(b, pos));
                break;
            case UINT32:
                out.putLong(int32(b, pos) & 0xFFFFFFFFL);
                break;
            case INT64:
                out.putLong(int64(b, pos));
                break;
            case UINT64:
                long u = int64(b, pos);
                if (u >= 0) {
                    out.putLong(u);
                } else {
                    out.put(Long.toUnsignedString(u));
                }
                break;
            case DOUBLE:
                doubleDigits.setLength(0);
                MySqlDoubleText.append(doubleDigits, Double.longBitsToDouble(int64(b, pos)));
                out.put(doubleDigits);
                break;
            case STRING:
                string(b, pos);
                break;
            case OPAQUE:
                opaque(b, pos);
                break;
            default:
                throw new IOException("malformed binary JSON: unknown value type " + type);
        }
    }

    private void container(byte[] b, int start, boolean small, boolean object) throws IOException {
        int count = index(b, start, small);
        int size = index(b, start + (small ? 2 : 4), small);
        int keyEntries = start + (small ? 4 : 8);
        int keyEntrySize = small ? 4 : 6; // offset (2 or 4 bytes), length (2 bytes)
        int valueEntries = object ? keyEntries + count * keyEntrySize : keyEntries;
        int valueEntrySize = small ? 3 : 5; // type, inlined value or offset (2 or 4 bytes)
        out.put(object ? '{' : '[');
        for (int i = 0; i < count; i++) {
            if (i != 0) {
                out.put(',');
                out.put(' ');
            }
            if (object) {
                int k = keyEntries + i * keyEntrySize;
                int keyOffset = index(b, k, small);
                if (keyOffset > size) {
                    throw new IOException("malformed binary JSON: key offset beyond the object");
                }
                int keyStart = start + keyOffset;
                out.quote(b, keyStart, uint16(b, k + (small ? 2 : 4)));
                out.put(':');
                out.put(' ');
            }
            int v = valueEntries + i * valueEntrySize;
            int type = b[v] & 0xFF;
            if (type == LITERAL
                    || type == INT16
                    || type == UINT16
                    || (!small && (type == INT32 || type == UINT32))) {
                value(b, type, v + 1); // inlined in the entry
            } else {
                int offset = index(b, v + 1, small);
                if (offset >= size) {
                    throw new IOException(
                            "malformed binary JSON: value offset beyond the container");
                }
                value(b, type, start + offset);
            }
        }
        out.put(object ? '}' : ']');
    }

    private void literal(byte code) throws IOException {
        switch (code) {
            case 0x00:
                out.put("null");
                break;
            case 0x01:
                out.put("true");
                break;
            case 0x02:
                out.put("false");
                break;
            default:
                throw new IOException("malformed binary JSON: unknown literal");
        }
    }

    private void string(byte[] b, int pos) throws IOException {
        int length = 0;
        for (int i = 0; ; i++) {
            if (i == 5) {
                throw new IOException("malformed binary JSON: string length too long");
            }
            int c = b[pos++];
            length |= (c & 0x7F) << (7 * i);
            if ((c & 0x80) == 0) {
                break;
            }
        }
        out.quote(b, pos, length);
    }

    private void opaque(byte[] b, int pos) throws IOException {
        ColumnType type = ColumnType.byCode(b[pos] & 0xFF);
        if (type == null) {
            throw new IOException("malformed binary JSON: unknown opaque type");
        }
        pos++;
        int length = 0;
        for (int i = 0; ; i++) {
            if (i == 5) {
                throw new IOException("malformed binary JSON: opaque length too long");
            }
            int c = b[pos++];
            length |= (c & 0x7F) << (7 * i);
            if ((c & 0x80) == 0) {
                break;
            }
        }
        switch (type) {
            case DECIMAL:
            case NEWDECIMAL:
                int precision = b[pos] & 0xFF;
                int scale = b[pos + 1] & 0xFF;
                // asBigDecimal flips the sign bit of its argument in place: give it a copy.
                byte[] digits = Arrays.copyOfRange(b, pos + 2, pos + length);
                BigDecimal dec =
                        AbstractRowsEventDataDeserializer.asBigDecimal(precision, scale, digits);
                out.put(dec.toPlainString());
                break;
            case DATE:
                date(int64(b, pos));
                break;
            case TIME:
            case TIME_V2:
                time(int64(b, pos));
                break;
            case DATETIME:
            case DATETIME_V2:
            case TIMESTAMP:
            case TIMESTAMP_V2:
                datetime(int64(b, pos));
                break;
            default:
                if (pos + length > b.length) {
                    throw new IOException("malformed binary JSON: opaque value beyond the end");
                }
                out.put("\"base64:type");
                out.putLong(type.getCode());
                out.put(':');
                out.put(
                        Base64.getEncoder()
                                .encodeToString(Arrays.copyOfRange(b, pos, pos + length)));
                out.put('"');
        }
    }

    /** A packed DATE, decoded as the binlog library decodes it. */
    private void date(long raw) {
        long value = raw >> 24;
        int yearMonth = (int) (value >> 22) % (1 << 17);
        out.put('"');
        out.appendDate(yearMonth / 13, yearMonth % 13, (int) (value >> 17) % (1 << 5));
        out.put('"');
    }

    /** A packed DATETIME, decoded as the binlog library decodes it. */
    private void datetime(long raw) {
        long value = raw >> 24;
        int yearMonth = (int) (value >> 22) % (1 << 17);
        out.put('"');
        out.appendDate(yearMonth / 13, yearMonth % 13, (int) (value >> 17) % (1 << 5));
        out.put(' ');
        out.appendTime(
                (int) (value >> 12) % (1 << 5),
                (int) (value >> 6) % (1 << 6),
                (int) (value % (1 << 6)),
                (int) (raw % (1 << 24)));
        out.put('"');
    }

    /**
     * A packed TIME as MySQL's TIME_from_longlong_time_packed decodes it (the library loses the
     * sign).
     */
    private void time(long packed) {
        long abs = Math.abs(packed);
        long hms = abs >> 24;
        out.put('"');
        if (packed < 0) {
            out.put('-');
        }
        out.appendTime(
                (int) ((hms >> 12) & 0x3FF),
                (int) ((hms >> 6) & 0x3F),
                (int) (hms & 0x3F),
                (int) (abs & 0xFFFFFF));
        out.put('"');
    }

    private static int uint16(byte[] b, int pos) {
        return (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8;
    }

    private static int int32(byte[] b, int pos) {
        return (b[pos] & 0xFF)
                | (b[pos + 1] & 0xFF) << 8
                | (b[pos + 2] & 0xFF) << 16
                | b[pos + 3] << 24;
    }

    private static long int64(byte[] b, int pos) {
        return (int32(b, pos) & 0xFFFFFFFFL) | (long) int32(b, pos + 4) << 32;
    }

    /** A count, size or offset: 2 bytes in small containers, 4 in large ones. */
    private static int index(byte[] b, int pos, boolean small) throws IOException {
        if (small) {
            return uint16(b, pos);
        }
        int v = int32(b, pos);
        if (v < 0) {
            throw new IOException("malformed binary JSON: a count or offset is too big");
        }
        return v;
    }
}

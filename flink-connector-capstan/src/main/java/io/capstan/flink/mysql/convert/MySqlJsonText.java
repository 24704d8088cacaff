package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Prints MySQL's binary JSON exactly as the server prints it (what a JDBC read returns):
 * {@code {"a": 1, "b": [1, 2]}} with ", " and ": " separators, keys in stored order, only
 * {@code " \ \b \f \n \r \t} and other control characters escaped, doubles in the server's
 * shortest round-trip form ({@link MySqlDoubleText}), decimals with their scale, dates/times
 * quoted with six fractional digits (TIME with its sign), other opaque values as
 * {@code "base64:typeN:..."}.
 *
 * <p>Walks the bytes directly with an index (the format of MySQL's json_binary.h: a type byte,
 * then objects and arrays as a count, a size, key entries, value entries with small values
 * inlined, offsets relative to the container's start) and appends to one reusable builder.
 * Not thread-safe: one instance per JSON column converter, used by the binlog reader thread.
 */
final class MySqlJsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** A builder grown past this by a huge document is dropped after use, not kept. */
    private static final int MAX_RETAINED_CAPACITY = 64 * 1024;
    private static final int INITIAL_CAPACITY = 256;

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

    private StringBuilder sb = new StringBuilder(INITIAL_CAPACITY);

    /** The text of one binary JSON value. */
    String print(byte[] binaryJson) throws IOException {
        if (binaryJson.length == 0) {
            return "null"; // MySQL stores an empty value for a JSON null in some paths
        }
        sb.setLength(0);
        try {
            value(binaryJson, binaryJson[0] & 0xFF, 1);
        } catch (IndexOutOfBoundsException | IllegalArgumentException | NegativeArraySizeException e) {
            // Offsets or lengths pointing outside the value; no value bytes in the message.
            throw new IOException("malformed binary JSON: an offset or length is out of range");
        }
        String text = sb.toString();
        if (sb.capacity() > MAX_RETAINED_CAPACITY) {
            sb = new StringBuilder(INITIAL_CAPACITY);
        }
        return text;
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
                sb.append((short) uint16(b, pos));
                break;
            case UINT16:
                sb.append(uint16(b, pos));
                break;
            case INT32:
                sb.append(int32(b, pos));
                break;
            case UINT32:
                sb.append(int32(b, pos) & 0xFFFFFFFFL);
                break;
            case INT64:
                sb.append(int64(b, pos));
                break;
            case UINT64:
                sb.append(Long.toUnsignedString(int64(b, pos)));
                break;
            case DOUBLE:
                MySqlDoubleText.append(sb, Double.longBitsToDouble(int64(b, pos)));
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
        sb.append(object ? '{' : '[');
        for (int i = 0; i < count; i++) {
            if (i != 0) {
                sb.append(", ");
            }
            if (object) {
                int k = keyEntries + i * keyEntrySize;
                int keyOffset = index(b, k, small);
                if (keyOffset > size) {
                    throw new IOException("malformed binary JSON: key offset beyond the object");
                }
                int keyStart = start + keyOffset;
                quote(b, keyStart, uint16(b, k + (small ? 2 : 4)));
                sb.append(": ");
            }
            int v = valueEntries + i * valueEntrySize;
            int type = b[v] & 0xFF;
            if (type == LITERAL || type == INT16 || type == UINT16
                    || (!small && (type == INT32 || type == UINT32))) {
                value(b, type, v + 1); // inlined in the entry
            } else {
                int offset = index(b, v + 1, small);
                if (offset >= size) {
                    throw new IOException("malformed binary JSON: value offset beyond the container");
                }
                value(b, type, start + offset);
            }
        }
        sb.append(object ? '}' : ']');
    }

    private void literal(byte code) throws IOException {
        switch (code) {
            case 0x00:
                sb.append("null");
                break;
            case 0x01:
                sb.append("true");
                break;
            case 0x02:
                sb.append("false");
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
        quote(b, pos, length);
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
                BigDecimal dec = AbstractRowsEventDataDeserializer.asBigDecimal(precision, scale, digits);
                sb.append(dec.toPlainString());
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
                sb.append("\"base64:type").append(type.getCode()).append(':');
                sb.append(Base64.getEncoder().encodeToString(Arrays.copyOfRange(b, pos, pos + length)));
                sb.append('"');
        }
    }

    /** A packed DATE, decoded as the binlog library decodes it. */
    private void date(long raw) {
        long value = raw >> 24;
        int yearMonth = (int) (value >> 22) % (1 << 17);
        sb.append('"');
        appendDate(yearMonth / 13, yearMonth % 13, (int) (value >> 17) % (1 << 5));
        sb.append('"');
    }

    /** A packed DATETIME, decoded as the binlog library decodes it. */
    private void datetime(long raw) {
        long value = raw >> 24;
        int yearMonth = (int) (value >> 22) % (1 << 17);
        sb.append('"');
        appendDate(yearMonth / 13, yearMonth % 13, (int) (value >> 17) % (1 << 5));
        sb.append(' ');
        appendTime((int) (value >> 12) % (1 << 5), (int) (value >> 6) % (1 << 6),
                (int) (value % (1 << 6)), (int) (raw % (1 << 24)));
        sb.append('"');
    }

    /** A packed TIME as MySQL's TIME_from_longlong_time_packed decodes it (the library loses the sign). */
    private void time(long packed) {
        long abs = Math.abs(packed);
        long hms = abs >> 24;
        sb.append('"');
        if (packed < 0) {
            sb.append('-');
        }
        appendTime((int) ((hms >> 12) & 0x3FF), (int) ((hms >> 6) & 0x3F), (int) (hms & 0x3F),
                (int) (abs & 0xFFFFFF));
        sb.append('"');
    }

    private static int uint16(byte[] b, int pos) {
        return (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8;
    }

    private static int int32(byte[] b, int pos) {
        return (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8 | (b[pos + 2] & 0xFF) << 16 | b[pos + 3] << 24;
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

    private void appendDate(int year, int month, int day) {
        pad(year, 4);
        sb.append('-');
        pad(month, 2);
        sb.append('-');
        pad(day, 2);
    }

    private void appendTime(int hour, int min, int sec, int micros) {
        pad(hour, 2);
        sb.append(':');
        pad(min, 2);
        sb.append(':');
        pad(sec, 2);
        sb.append('.');
        pad(micros, 6);
    }

    private void pad(long v, int width) {
        String s = Long.toString(v);
        for (int k = s.length(); k < width; k++) {
            sb.append('0');
        }
        sb.append(s);
    }

    private void quote(byte[] b, int start, int length) {
        quote(new String(b, start, length, StandardCharsets.UTF_8));
    }

    private void quote(String s) {
        sb.append('"');
        if (!needsEscaping(s)) {
            sb.append(s).append('"'); // the common case, appended in bulk
            return;
        }
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\b':
                    sb.append("\\b");
                    break;
                case '\f':
                    sb.append("\\f");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    private static boolean needsEscaping(String s) {
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c < 0x20 || c == '"' || c == '\\') {
                return true;
            }
        }
        return false;
    }
}

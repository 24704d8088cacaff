package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonFormatter;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;

/**
 * The previous printer, kept verbatim as the reference for {@link MySqlJsonText}: the binlog
 * library's JsonBinary walks the bytes through stream wrappers and this formatter prints.
 *
 * <p>Prints MySQL's binary JSON exactly as the server prints it (what a JDBC read returns): {@code
 * {"a": 1, "b": [1, 2]}} with ", " and ": " separators, keys in stored order, only {@code " \ \b \f
 * \n \r \t} and other control characters escaped, doubles in the server's shortest round-trip form
 * (fixed notation for decimal exponents -14..15, e.g. {@code 1.0}, {@code 0.000001}, else {@code
 * 1e16}, {@code 1.5e-15}), decimals with their scale, dates/times quoted with six fractional
 * digits, other opaque values as {@code "base64:typeN:..."}.
 *
 * <p>The library's JsonBinary walks the bytes; this formatter prints. TIME values are re-decoded
 * because the library loses their sign.
 */
final class MySqlJsonTextLibraryReference implements JsonFormatter {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder sb;

    private MySqlJsonTextLibraryReference(int binaryLength) {
        // The text is usually a little longer than the binary form: one allocation, no regrowth.
        sb = new StringBuilder(binaryLength + (binaryLength >> 1) + 16);
    }

    static String print(byte[] binaryJson) throws IOException {
        if (binaryJson.length == 0) {
            return "null"; // MySQL stores an empty value for a JSON null in some paths
        }
        MySqlJsonTextLibraryReference text = new MySqlJsonTextLibraryReference(binaryJson.length);
        new SignedTimeJsonBinary(binaryJson).parse(text);
        return text.sb.toString();
    }

    @Override
    public void beginObject(int numElements) {
        sb.append('{');
    }

    @Override
    public void beginArray(int numElements) {
        sb.append('[');
    }

    @Override
    public void endObject() {
        sb.append('}');
    }

    @Override
    public void endArray() {
        sb.append(']');
    }

    @Override
    public void name(String name) {
        quote(name);
        sb.append(": ");
    }

    @Override
    public void value(String value) {
        quote(value);
    }

    @Override
    public void value(int value) {
        sb.append(value);
    }

    @Override
    public void value(long value) {
        sb.append(value);
    }

    @Override
    public void value(double value) {
        appendDouble(sb, value);
    }

    @Override
    public void value(BigInteger value) {
        sb.append(value.toString());
    }

    @Override
    public void value(BigDecimal value) {
        sb.append(value.toPlainString());
    }

    @Override
    public void value(boolean value) {
        sb.append(value);
    }

    @Override
    public void valueNull() {
        sb.append("null");
    }

    @Override
    public void valueYear(int year) {
        sb.append(year);
    }

    @Override
    public void valueDate(int year, int month, int day) {
        sb.append('"');
        appendDate(year, month, day);
        sb.append('"');
    }

    @Override
    public void valueDatetime(
            int year, int month, int day, int hour, int min, int sec, int micros) {
        sb.append('"');
        appendDate(year, month, day);
        sb.append(' ');
        appendTime(hour, min, sec, micros);
        sb.append('"');
    }

    @Override
    public void valueTime(int hour, int min, int sec, int micros) {
        // Only reached through SignedTimeJsonBinary, which passes a negative hour as -1 - hour.
        sb.append('"');
        if (hour < 0) {
            sb.append('-');
            hour = -1 - hour;
        }
        appendTime(hour, min, sec, micros);
        sb.append('"');
    }

    @Override
    public void valueTimestamp(long secondsPastEpoch, int microSeconds) {
        throw new IllegalStateException("unexpected TIMESTAMP value in binary JSON");
    }

    @Override
    public void valueOpaque(ColumnType type, byte[] value) {
        sb.append("\"base64:type").append(type.getCode()).append(':');
        sb.append(Base64.getEncoder().encodeToString(value));
        sb.append('"');
    }

    @Override
    public void nextEntry() {
        sb.append(", ");
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

    static void appendDouble(StringBuilder out, double d) {
        out.append(MySqlDoubleTextReference.print(d));
    }

    /** JsonBinary with TIME decoded as MySQL's TIME_from_longlong_time_packed does. */
    private static final class SignedTimeJsonBinary extends JsonBinary {
        SignedTimeJsonBinary(byte[] bytes) {
            // The library's byte[] constructor reads through java.io.ByteArrayInputStream: a lock
            // per byte.
            super(new ByteArrayInputStream(new ByteArraySource(bytes)));
        }

        @Override
        protected void parseTime(JsonFormatter formatter) throws IOException {
            long packed = readInt64();
            boolean negative = packed < 0;
            long abs = Math.abs(packed);
            long hms = abs >> 24;
            int hour = (int) ((hms >> 12) & 0x3FF);
            int min = (int) ((hms >> 6) & 0x3F);
            int sec = (int) (hms & 0x3F);
            int micros = (int) (abs & 0xFFFFFF);
            formatter.valueTime(negative ? -1 - hour : hour, min, sec, micros);
        }
    }
}

package io.capstan.flink.mysql.convert;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The output of {@link MySqlJsonText}: UTF-8 bytes appended without intermediate objects, kept
 * between values so that printing a value allocates only its result (a buffer grown past {@value
 * #MAX_RETAINED_CAPACITY} bytes by a huge document is dropped after use). Not thread-safe.
 */
final class JsonTextBuffer {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_RETAINED_CAPACITY = 64 * 1024;
    private static final int INITIAL_CAPACITY = 256;

    private byte[] out = new byte[INITIAL_CAPACITY];
    private int length;

    void clear() {
        length = 0;
    }

    /** The bytes appended since {@link #clear()}, in a new array. */
    byte[] take() {
        byte[] text = Arrays.copyOf(out, length);
        if (out.length > MAX_RETAINED_CAPACITY) {
            out = new byte[INITIAL_CAPACITY];
        }
        return text;
    }

    void appendDate(int year, int month, int day) {
        pad(year, 4);
        put('-');
        pad(month, 2);
        put('-');
        pad(day, 2);
    }

    void appendTime(int hour, int min, int sec, int micros) {
        pad(hour, 2);
        put(':');
        pad(min, 2);
        put(':');
        pad(sec, 2);
        put('.');
        pad(micros, 6);
    }

    void pad(long v, int width) {
        for (int k = digitCount(v); k < width; k++) {
            put('0');
        }
        putLong(v);
    }

    /**
     * A JSON string's stored UTF-8 bytes, quoted, with MySQL's escapes. Bytes of multi-byte
     * characters are all 0x80 or above, so they never look like a character to escape.
     */
    void quote(byte[] b, int start, int count) {
        int end = start + count;
        if (end > b.length || count < 0) {
            throw new IndexOutOfBoundsException();
        }
        put('"');
        int run = start; // start of the bytes not yet copied
        for (int k = start; k < end; k++) {
            int c = b[k];
            if (c >= 0x20 ? c != '"' && c != '\\' : c < 0) {
                continue; // printable ASCII or part of a multi-byte character
            }
            putBytes(b, run, k - run);
            run = k + 1;
            switch (c) {
                case '"':
                    put("\\\"");
                    break;
                case '\\':
                    put("\\\\");
                    break;
                case '\b':
                    put("\\b");
                    break;
                case '\f':
                    put("\\f");
                    break;
                case '\n':
                    put("\\n");
                    break;
                case '\r':
                    put("\\r");
                    break;
                case '\t':
                    put("\\t");
                    break;
                default:
                    put("\\u00");
                    put((char) HEX[c >> 4]);
                    put((char) HEX[c & 0xF]);
            }
        }
        putBytes(b, run, end - run);
        put('"');
    }

    private static int digitCount(long v) {
        int n = v < 0 ? 2 : 1;
        for (long x = Math.abs(v); x >= 10; x /= 10) {
            n++;
        }
        return n;
    }

    private void ensure(int extra) {
        if (length + extra > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, length + extra));
        }
    }

    /** An ASCII character. */
    void put(char c) {
        ensure(1);
        out[length++] = (byte) c;
    }

    /** ASCII text. */
    void put(CharSequence ascii) {
        int n = ascii.length();
        ensure(n);
        for (int k = 0; k < n; k++) {
            out[length++] = (byte) ascii.charAt(k);
        }
    }

    void putBytes(byte[] b, int from, int count) {
        ensure(count);
        System.arraycopy(b, from, out, length, count);
        length += count;
    }

    void putLong(long v) {
        if (v == Long.MIN_VALUE) {
            put(Long.toString(v));
            return;
        }
        int n = digitCount(v);
        ensure(n);
        int end = length + n;
        long x = Math.abs(v);
        for (int k = end - 1; k >= length; k--) {
            out[k] = (byte) ('0' + x % 10);
            x /= 10;
        }
        if (v < 0) {
            out[length] = '-';
        }
        length = end;
    }
}

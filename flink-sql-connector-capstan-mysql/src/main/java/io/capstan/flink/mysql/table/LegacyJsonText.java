package io.capstan.flink.mysql.table;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * mysql-cdc's legacy JSON text ({@code use.legacy.json.format = true}, its default): MySQL's own
 * printing without the space after {@code ,} and {@code :}, e.g. {@code {"a":[1,2]}} for MySQL's
 * {@code {"a": [1, 2]}}. Only separators change; keys, numbers, strings and their escapes stay as
 * MySQL prints them. Pure function.
 */
final class LegacyJsonText {

    private LegacyJsonText() {}

    /** As {@link #compact(byte[])}, for text. */
    static String compact(String json) {
        return new String(compact(json.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    /**
     * {@code utf8} (MySQL's printing, whose only whitespace outside strings is one space after each
     * separator) without whitespace outside strings; the same array when there is none. Works on
     * the bytes: quote, backslash and whitespace are ASCII, and no byte of a multi-byte UTF-8
     * character is.
     */
    static byte[] compact(byte[] utf8) {
        byte[] out = null;
        int n = 0;
        boolean inString = false;
        for (int i = 0; i < utf8.length; i++) {
            byte c = utf8[i];
            boolean keep = true;
            if (inString) {
                if (c == '\\') {
                    // The escaped character is part of the string, whatever it is.
                    if (out != null) {
                        out[n++] = c;
                    }
                    if (++i >= utf8.length) {
                        break;
                    }
                    c = utf8[i];
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
                keep = false;
            }
            if (!keep && out == null) {
                out = new byte[utf8.length - 1];
                System.arraycopy(utf8, 0, out, 0, i);
                n = i;
            } else if (keep && out != null) {
                out[n++] = c;
            }
        }
        return out == null ? utf8 : Arrays.copyOf(out, n);
    }
}

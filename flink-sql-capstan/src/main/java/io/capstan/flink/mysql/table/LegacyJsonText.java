package io.capstan.flink.mysql.table;

/**
 * mysql-cdc's legacy JSON text ({@code use.legacy.json.format = true}, its default): MySQL's own
 * printing without the space after {@code ,} and {@code :}, e.g. {@code {"a":[1,2]}} for MySQL's
 * {@code {"a": [1, 2]}}. Only separators change; keys, numbers, strings and their escapes stay as
 * MySQL prints them. Pure function.
 */
final class LegacyJsonText {

    private LegacyJsonText() {}

    /**
     * {@code json} (MySQL's printing, whose only whitespace outside strings is one space after each
     * separator) without whitespace outside strings.
     */
    static String compact(String json) {
        StringBuilder out = new StringBuilder(json.length());
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                out.append(c);
                if (c == '\\') {
                    // The escaped character is part of the string, whatever it is.
                    if (++i < json.length()) {
                        out.append(json.charAt(i));
                    }
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
                out.append(c);
            } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
                out.append(c);
            }
        }
        return out.toString();
    }
}

package io.capstan.flink.mysql.snapshot.ddl;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits MySQL statement text into words, quoted identifiers and punctuation; enough to find the
 * tables a DDL names. String literals become one opaque token. Comments are dropped, except the
 * executable {@code /*! ... *}{@code /} form, whose content MySQL runs and so is kept.
 */
@Internal
public final class SqlTokenizer {

    public enum Type {
        WORD, // unquoted identifier or keyword
        QUOTED, // `identifier`
        STRING, // '...' or "..."
        SYMBOL // any other single character
    }

    public static final class Token {
        public final Type type;
        public final String text;

        Token(Type type, String text) {
            this.type = type;
            this.text = text;
        }

        public boolean isWord(String keyword) {
            return type == Type.WORD && text.equalsIgnoreCase(keyword);
        }

        public boolean isSymbol(char c) {
            return type == Type.SYMBOL && text.length() == 1 && text.charAt(0) == c;
        }

        public boolean isIdentifier() {
            return type == Type.WORD || type == Type.QUOTED;
        }

        @Override
        public String toString() {
            return type + ":" + text;
        }
    }

    private SqlTokenizer() {}

    /**
     * Tokens of {@code sql}; throws IllegalArgumentException on an unterminated quote or comment.
     */
    public static List<Token> tokenize(String sql) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#'
                    || (c == '-'
                            && sql.startsWith("--", i)
                            && (i + 2 == n || Character.isWhitespace(sql.charAt(i + 2))))) {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated comment");
                }
                if (i + 2 < n && sql.charAt(i + 2) == '!') {
                    int start = i + 3;
                    while (start < end && Character.isDigit(sql.charAt(start))) {
                        start++; // version number of /*!50100 ... */
                    }
                    out.addAll(tokenize(sql.substring(start, end)));
                }
                i = end + 2;
            } else if (c == '`') {
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= n) {
                        throw new IllegalArgumentException("unterminated quoted identifier");
                    }
                    char d = sql.charAt(j);
                    if (d == '`') {
                        if (j + 1 < n && sql.charAt(j + 1) == '`') {
                            sb.append('`');
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    sb.append(d);
                    j++;
                }
                out.add(new Token(Type.QUOTED, sb.toString()));
                i = j + 1;
            } else if (c == '\'' || c == '"') {
                int j = i + 1;
                while (true) {
                    if (j >= n) {
                        throw new IllegalArgumentException("unterminated string");
                    }
                    char d = sql.charAt(j);
                    if (d == '\\') {
                        j += 2;
                        continue;
                    }
                    if (d == c) {
                        if (j + 1 < n && sql.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                out.add(new Token(Type.STRING, "")); // the content is never needed, nor kept
                i = j + 1;
            } else if (isWordChar(c)) {
                int j = i;
                while (j < n && isWordChar(sql.charAt(j))) {
                    j++;
                }
                out.add(new Token(Type.WORD, sql.substring(i, j)));
                i = j;
            } else {
                out.add(new Token(Type.SYMBOL, String.valueOf(c)));
                i++;
            }
        }
        return out;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 0x7f;
    }
}

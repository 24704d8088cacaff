package io.capstan.flink.mysql.preflight;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the lines MySQL prints for {@code SHOW GRANTS} ({@code GRANT privs ON target TO account}
 * and, with partial revokes, {@code REVOKE privs ON schema.* FROM account}).
 *
 * <p>Lines that grant roles or proxy rights (no {@code ON} clause, or a non-table target) yield a
 * grant of level {@link Grant.Level#OTHER} or nothing: ignoring them can only make preflight
 * stricter, never let a missing privilege pass. Identifiers may be quoted with backticks or, under
 * {@code ANSI_QUOTES}, double quotes.
 */
@Internal
public final class GrantParser {

    private GrantParser() {}

    /** Parses one line; empty for a line that grants no object privileges (a role grant). */
    public static Optional<Grant> parse(String line) {
        Scanner s = new Scanner(line.trim());
        boolean revoke;
        if (s.keyword("GRANT")) {
            revoke = false;
        } else if (s.keyword("REVOKE")) {
            revoke = true;
        } else {
            return Optional.empty();
        }
        Set<String> privileges = new LinkedHashSet<>();
        if (!s.privilegesUntilOn(privileges)) {
            return Optional.empty(); // role grant: GRANT `r`@`%` TO `u`@`%`
        }
        return Optional.of(s.target(revoke, privileges));
    }

    /** Parses every line that grants object privileges. */
    public static List<Grant> parseAll(Iterable<String> lines) {
        List<Grant> grants = new ArrayList<>();
        for (String line : lines) {
            parse(line).ifPresent(grants::add);
        }
        return grants;
    }

    /** A minimal cursor over one SHOW GRANTS line. */
    private static final class Scanner {
        private final String text;
        private int pos;

        Scanner(String text) {
            this.text = text;
        }

        boolean keyword(String word) {
            skipSpaces();
            int end = pos + word.length();
            if (end <= text.length()
                    && text.regionMatches(true, pos, word, 0, word.length())
                    && (end == text.length() || !isWordChar(text.charAt(end)))) {
                pos = end;
                return true;
            }
            return false;
        }

        /**
         * Collects privilege names up to the top-level {@code ON}; column-level privileges (with a
         * parenthesised column list) are dropped. False when no {@code ON} follows.
         */
        boolean privilegesUntilOn(Set<String> out) {
            StringBuilder current = new StringBuilder();
            boolean columnLevel = false;
            int depth = 0;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c == '`' || c == '"' || c == '\'') {
                    if (depth == 0) {
                        return false; // a quoted name before ON: a role grant
                    }
                    skipQuoted(c);
                    continue;
                }
                if (c == '(') {
                    depth++;
                    columnLevel = true;
                } else if (c == ')') {
                    depth--;
                } else if (depth == 0 && c == ',') {
                    addPrivilege(out, current, columnLevel);
                    current.setLength(0);
                    columnLevel = false;
                } else if (depth == 0 && atWord("ON")) {
                    addPrivilege(out, current, columnLevel);
                    pos += 2;
                    return true;
                } else if (depth == 0) {
                    current.append(c);
                }
                pos++;
            }
            return false;
        }

        private boolean atWord(String word) {
            boolean startOk = pos == 0 || !isWordChar(text.charAt(pos - 1));
            int end = pos + word.length();
            return startOk
                    && end < text.length()
                    && text.regionMatches(true, pos, word, 0, word.length())
                    && !isWordChar(text.charAt(end));
        }

        private static void addPrivilege(Set<String> out, StringBuilder name, boolean columnLevel) {
            String p = name.toString().trim();
            if (!p.isEmpty() && !columnLevel) {
                out.add(p);
            }
        }

        Grant target(boolean revoke, Set<String> privileges) {
            skipSpaces();
            if (keyword("FUNCTION") || keyword("PROCEDURE")) {
                return new Grant(revoke, Grant.Level.OTHER, null, null, privileges);
            }
            keyword("TABLE");
            String first = nameOrStar();
            if (first == null) {
                return new Grant(revoke, Grant.Level.OTHER, null, null, privileges);
            }
            skipSpaces();
            if (pos >= text.length() || text.charAt(pos) != '.') {
                // "ON tbl" relative to a default schema never appears in SHOW GRANTS output.
                return new Grant(revoke, Grant.Level.OTHER, null, null, privileges);
            }
            pos++;
            String second = nameOrStar();
            if (second == null) {
                return new Grant(revoke, Grant.Level.OTHER, null, null, privileges);
            }
            if (first.equals("*") && second.equals("*")) {
                return new Grant(revoke, Grant.Level.GLOBAL, null, null, privileges);
            }
            if (second.equals("*") && !first.equals("*")) {
                return new Grant(revoke, Grant.Level.SCHEMA, first, null, privileges);
            }
            if (!first.equals("*")) {
                return new Grant(revoke, Grant.Level.TABLE, first, second, privileges);
            }
            return new Grant(revoke, Grant.Level.OTHER, null, null, privileges);
        }

        /** A quoted or bare identifier, or "*" for a wildcard; null if neither is there. */
        private String nameOrStar() {
            skipSpaces();
            if (pos >= text.length()) {
                return null;
            }
            char c = text.charAt(pos);
            if (c == '*') {
                pos++;
                return "*";
            }
            if (c == '`' || c == '"') {
                return quoted(c);
            }
            int start = pos;
            while (pos < text.length()
                    && (isWordChar(text.charAt(pos)) || text.charAt(pos) == '$')) {
                pos++;
            }
            return pos == start ? null : text.substring(start, pos);
        }

        private String quoted(char quote) {
            StringBuilder sb = new StringBuilder();
            pos++;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c == quote) {
                    if (pos + 1 < text.length() && text.charAt(pos + 1) == quote) {
                        sb.append(quote);
                        pos += 2;
                        continue;
                    }
                    pos++;
                    return sb.toString();
                }
                sb.append(c);
                pos++;
            }
            return null; // unterminated: treat as no target
        }

        private void skipQuoted(char quote) {
            quoted(quote);
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private static boolean isWordChar(char c) {
            return Character.isLetterOrDigit(c) || c == '_';
        }
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer;
import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer.Token;
import io.capstan.flink.mysql.snapshot.ddl.TokenCursor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The tables a data-changing statement logged as text (a QUERY event, written by a session with
 * {@code binlog_format} STATEMENT or MIXED) may write to: the target of INSERT, REPLACE and LOAD
 * DATA/XML, and every table an UPDATE or DELETE names before its SET or WHERE (for a multi-table
 * statement that is more than it writes, never less). A stored function that writes is logged as
 * the SELECT or DO that called it: its tables cannot be told. Pure; names as written, unresolved.
 */
final class StatementDmlTargets extends TokenCursor {

    /** A table as the statement names it; {@code database} null when unqualified. */
    record Name(String database, String table) {}

    /**
     * What a DML statement may write: {@code names}, or, when {@code complete} is false, also
     * tables that could not be told.
     */
    record Targets(List<Name> names, boolean complete) {
        static Targets unknown() {
            return new Targets(List.of(), false);
        }
    }

    private static final Set<String> DML_HEADS =
            Set.of("INSERT", "REPLACE", "UPDATE", "DELETE", "LOAD", "SELECT", "DO", "WITH");
    private static final Set<String> JOIN_WORDS =
            Set.of("JOIN", "INNER", "CROSS", "LEFT", "RIGHT", "NATURAL", "STRAIGHT_JOIN", "OUTER");
    private static final Set<String> SUBQUERY_HEADS = Set.of("SELECT", "WITH", "VALUES", "TABLE");

    private StatementDmlTargets(List<Token> tokens) {
        super(tokens);
    }

    /** The tables {@code sql} may write, or empty when it is not a data-changing statement. */
    static Optional<Targets> of(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlTokenizer.tokenize(sql);
        } catch (IllegalArgumentException e) {
            // Unterminated quote or comment: if it reads like DML, its tables cannot be told.
            String head = leadingWord(sql);
            return DML_HEADS.contains(head) ? Optional.of(Targets.unknown()) : Optional.empty();
        }
        if (tokens.isEmpty() || tokens.get(0).type != SqlTokenizer.Type.WORD) {
            return Optional.empty();
        }
        if (!DML_HEADS.contains(upper(tokens.get(0).text))) {
            return Optional.empty();
        }
        StatementDmlTargets p = new StatementDmlTargets(tokens);
        try {
            return p.statement();
        } catch (IndexOutOfBoundsException e) {
            return Optional.of(Targets.unknown());
        }
    }

    private Optional<Targets> statement() {
        String head = upper(next().text);
        if (head.equals("WITH")) {
            skipCommonTableExpressions();
            head = upper(next().text);
        }
        List<Name> out = new ArrayList<>();
        switch (head) {
            case "INSERT":
            case "REPLACE":
                skipWords("LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE", "INTO");
                out.add(targetName());
                return complete(out);
            case "UPDATE":
                skipWords("LOW_PRIORITY", "IGNORE");
                tableReferences(out, Set.of("SET"));
                return complete(out);
            case "DELETE":
                skipWords("LOW_PRIORITY", "QUICK", "IGNORE");
                if (skipWord("FROM")) {
                    targetList(out);
                    if (skipWord("USING")) {
                        tableReferences(out, Set.of("WHERE", "ORDER", "LIMIT"));
                    }
                } else {
                    targetList(out);
                    expectWord("FROM");
                    tableReferences(out, Set.of("WHERE", "ORDER", "LIMIT"));
                }
                return complete(out);
            case "LOAD":
                while (!(peekWord("INTO") && peekWordAt(pos + 1, "TABLE"))) {
                    next();
                }
                pos += 2;
                out.add(targetName());
                return complete(out);
            case "SELECT":
            case "DO":
                // Logged only when it calls a stored function that writes: which tables, unknown.
                return Optional.of(Targets.unknown());
            default:
                return Optional.empty(); // WITH ... SELECT and the like: reads only
        }
    }

    private static Optional<Targets> complete(List<Name> names) {
        return Optional.of(new Targets(List.copyOf(names), true));
    }

    /** {@code name [(columns)] AS (subquery)} separated by commas, after WITH [RECURSIVE]. */
    private void skipCommonTableExpressions() {
        skipWord("RECURSIVE");
        do {
            identifier();
            if (peekSymbol('(')) {
                skipParentheses();
            }
            expectWord("AS");
            skipParentheses();
        } while (skipSymbol(','));
    }

    /** DELETE's list of tables to delete from: {@code [db.]t[.*]}, comma separated. */
    private void targetList(List<Name> out) {
        do {
            out.add(targetName());
        } while (skipSymbol(','));
    }

    /**
     * Table references up to one of {@code stops} (at this nesting level) or the end: each table
     * factor's name, including those joined; derived tables and subqueries in join conditions are
     * read-only and skipped.
     */
    private void tableReferences(List<Name> out, Set<String> stops) {
        while (true) {
            tableFactor(out);
            // alias, PARTITION (...), index hints, ON / USING conditions: up to the next factor
            while (pos < tokens.size()) {
                Token t = tokens.get(pos);
                if (t.isSymbol('(')) {
                    skipParentheses();
                } else if (t.isSymbol(')')
                        || t.isSymbol(',')
                        || isJoinWord(pos)
                        || stops.contains(upperWord(t))) {
                    break;
                } else {
                    pos++;
                }
            }
            if (pos >= tokens.size() || tokens.get(pos).isSymbol(')')) {
                return;
            }
            if (stops.contains(upperWord(tokens.get(pos)))) {
                return;
            }
            if (!skipSymbol(',')) {
                while (isJoinWord(pos)) {
                    pos++;
                }
            }
        }
    }

    private void tableFactor(List<Name> out) {
        if (skipSymbol('(')) {
            if (SUBQUERY_HEADS.contains(upperWord(tokens.get(pos)))) {
                pos--;
                skipParentheses(); // a derived table
            } else {
                tableReferences(out, Set.of());
                expectSymbol(')');
            }
            return;
        }
        if (skipWord("LATERAL")) {
            skipParentheses();
            return;
        }
        if (peekWord("JSON_TABLE") && peekSymbolAt(pos + 1, '(')) {
            pos++;
            skipParentheses();
            return;
        }
        out.add(targetName());
    }

    /** A join keyword; LEFT and RIGHT only when not the string functions LEFT(...), RIGHT(...). */
    private boolean isJoinWord(int i) {
        if (i >= tokens.size()) {
            return false;
        }
        String w = upperWord(tokens.get(i));
        boolean function = (w.equals("LEFT") || w.equals("RIGHT")) && peekSymbolAt(i + 1, '(');
        return JOIN_WORDS.contains(w) && !function;
    }

    /** {@code t}, {@code db.t}, either followed by {@code .*}. */
    private Name targetName() {
        String first = identifier();
        String db = null;
        String table = first;
        if (peekSymbol('.') && !peekSymbolAt(pos + 1, '*')) {
            pos++;
            db = first;
            table = identifier();
        }
        if (peekSymbol('.') && peekSymbolAt(pos + 1, '*')) {
            pos += 2;
        }
        return new Name(db, table);
    }

    private void skipParentheses() {
        expectSymbol('(');
        int depth = 1;
        while (depth > 0) {
            Token t = next();
            if (t.isSymbol('(')) {
                depth++;
            } else if (t.isSymbol(')')) {
                depth--;
            }
        }
    }
}

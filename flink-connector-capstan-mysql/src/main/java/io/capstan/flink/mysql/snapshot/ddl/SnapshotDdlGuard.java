package io.capstan.flink.mysql.snapshot.ddl;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer.Token;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Decides whether a DDL statement from the binlog (a query event's default database and SQL text)
 * touches a table whose snapshot is in progress, which must halt the job as {@code
 * snapshot_schema_drifted}: chunks read before and after the change would not fit one schema.
 *
 * <p>Recognised: ALTER TABLE (and its RENAME TO), DROP TABLE(S), RENAME TABLE, TRUNCATE, CREATE
 * TABLE, CREATE/DROP INDEX ... ON, OPTIMIZE/REPAIR TABLE, DROP DATABASE. Statements known not to
 * change a table (GRANT, CREATE VIEW, ANALYZE TABLE, BEGIN, ...) never touch one. Anything else is
 * treated conservatively: it touches an in-progress table when it runs in that table's database or
 * names it anywhere. Names compare case-insensitively (a needless halt is better than a missed
 * one). Pure.
 */
@Internal
public final class SnapshotDdlGuard {

    private SnapshotDdlGuard() {}

    /**
     * The in-progress table the statement touches (the first one, in table order), or empty.
     *
     * @param database the query event's default database (may be empty or null)
     */
    public static Optional<TableId> touchedTable(
            String database, String sql, Collection<TableId> inProgress) {
        if (inProgress.isEmpty()) {
            return Optional.empty();
        }
        String db = database == null ? "" : database;
        List<Token> tokens;
        try {
            tokens = SqlTokenizer.tokenize(sql);
        } catch (IllegalArgumentException e) {
            return conservative(db, List.of(), inProgress);
        }
        if (tokens.isEmpty()) {
            return Optional.empty();
        }
        Optional<Targets> targets = Parser.targets(tokens);
        if (targets.isEmpty()) {
            return conservative(db, tokens, inProgress);
        }
        for (TableId t : new TreeSet<>(inProgress)) {
            if (targets.get().touches(db, t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** Halts with {@code snapshot_schema_drifted} when {@link #touchedTable} finds a table. */
    public static void check(String database, String sql, Collection<TableId> inProgress) {
        Optional<TableId> t = touchedTable(database, sql, inProgress);
        if (t.isPresent()) {
            throw new CapstanHaltException(
                    HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                    "a DDL statement changed table "
                            + t.get()
                            + " while its snapshot was in"
                            + " progress, so its chunks would not fit one schema; restart the job"
                            + " to snapshot the table again under its new schema (avoid DDL on"
                            + " tables being snapshotted)");
        }
    }

    private static Optional<TableId> conservative(
            String db, List<Token> tokens, Collection<TableId> inProgress) {
        for (TableId t : new TreeSet<>(inProgress)) {
            if (t.database().equalsIgnoreCase(db)) {
                return Optional.of(t);
            }
            for (Token tok : tokens) {
                if (tok.isIdentifier() && tok.text.equalsIgnoreCase(t.table())) {
                    return Optional.of(t);
                }
            }
        }
        // An unparseable text without tokens: halt if anything is in progress.
        return tokens.isEmpty() ? inProgress.stream().sorted().findFirst() : Optional.empty();
    }

    /** Tables (possibly unqualified) and whole databases a statement changes. */
    static final class Targets {
        final List<String[]> tables = new ArrayList<>(); // {database or null, table}
        final List<String> databases = new ArrayList<>();
        final List<String[]> truncated = new ArrayList<>(); // emptied: TRUNCATE
        // gone under this name: DROP, RENAME, CREATE OR REPLACE
        final List<String[]> removed = new ArrayList<>();
        // rows removed or replaced without row events: ALTER TABLE ... TRUNCATE/DROP/EXCHANGE
        // PARTITION, DISCARD/IMPORT TABLESPACE, ENGINE = BLACKHOLE
        final List<String[]> rowsReplaced = new ArrayList<>();
        // made system-versioned (MariaDB): CREATE TABLE ... WITH SYSTEM VERSIONING, ALTER TABLE ...
        // ADD SYSTEM VERSIONING; their row events then hold history rows, not the table's changes
        final List<String[]> versioned = new ArrayList<>();
        // given a column of MariaDB's UUID, INET4 or INET6 (ALTER TABLE), which the binlog writes
        // as plain BINARY(n)
        final List<String[]> mariaDbTyped = new ArrayList<>();
        // new under this name: CREATE TABLE, and the new names of RENAME TABLE and ALTER ... RENAME
        final List<TableArrivals.Creation> created = new ArrayList<>();
        final List<String[]> renamedInto = new ArrayList<>();

        boolean touches(String defaultDb, TableId t) {
            for (String d : databases) {
                if (d.equalsIgnoreCase(t.database())) {
                    return true;
                }
            }
            for (String[] name : tables) {
                if (!name[1].equalsIgnoreCase(t.table())) {
                    continue;
                }
                String d = name[0] != null ? name[0] : defaultDb;
                // no default database: an unqualified name could be anywhere
                if (d.isEmpty() || d.equalsIgnoreCase(t.database())) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A tiny recursive-descent reader of the statement heads that matter. */
    static final class Parser extends TokenCursor {

        private Parser(List<Token> tokens) {
            super(tokens);
        }

        /** The targets, or empty when the statement is not understood. */
        static Optional<Targets> targets(List<Token> tokens) {
            try {
                return new Parser(tokens).statement();
            } catch (IndexOutOfBoundsException e) {
                return Optional.empty();
            }
        }

        private Optional<Targets> statement() {
            Targets out = new Targets();
            Token head = next();
            String h = upperWord(head);
            if (StatementWords.HARMLESS_LEADING.contains(h)) {
                return Optional.of(out);
            }
            switch (h) {
                case "ALTER":
                    return alter(out);
                case "DROP":
                    return drop(out);
                case "CREATE":
                    return create(out);
                case "RENAME":
                    if (peekWord("USER")) {
                        return Optional.of(out);
                    }
                    expectWord("TABLE", "TABLES");
                    do {
                        String[] from = name();
                        out.tables.add(from);
                        out.removed.add(from);
                        expectWord("TO", "AS");
                        String[] to = name();
                        out.tables.add(to);
                        out.renamedInto.add(to);
                    } while (skipSymbol(','));
                    return Optional.of(out);
                case "TRUNCATE":
                    skipWord("TABLE");
                    out.tables.add(name());
                    out.truncated.add(out.tables.get(0));
                    return Optional.of(out);
                case "OPTIMIZE":
                case "REPAIR":
                    skipWord("NO_WRITE_TO_BINLOG", "LOCAL");
                    expectWord("TABLE", "TABLES");
                    nameList(out);
                    return Optional.of(out);
                default:
                    return Optional.empty();
            }
        }

        private Optional<Targets> alter(Targets out) {
            skipWord("ONLINE", "OFFLINE");
            skipWord("IGNORE");
            if (skipWord("TABLE")) {
                String[] altered = name();
                out.tables.add(altered);
                // ALTER TABLE t ... RENAME [TO|AS] u: u is touched too, t is gone
                while (pos < tokens.size()) {
                    Token t = next();
                    if (t.isWord("RENAME")
                            && !(peekWord("COLUMN") || peekWord("INDEX") || peekWord("KEY"))) {
                        skipWord("TO", "AS");
                        out.removed.add(altered);
                        String[] to = name();
                        out.tables.add(to);
                        out.renamedInto.add(to);
                    } else if (replacesRows(t)) {
                        out.rowsReplaced.add(altered);
                    } else if (addsSystemVersioning(t)) {
                        out.versioned.add(altered);
                    } else if (MariaDbTypeWords.isOwnTypeAt(tokens, pos - 1)) {
                        out.mariaDbTyped.add(altered);
                    } else if (t.isWord("WITH") && skipWord("TABLE")) {
                        // EXCHANGE PARTITION p WITH TABLE u: u's rows are replaced too
                        String[] other = name();
                        out.tables.add(other);
                        out.rowsReplaced.add(other);
                    }
                }
                return Optional.of(out);
            }
            if (skipWord("DATABASE", "SCHEMA")) {
                return Optional.of(out); // defaults for new tables only
            }
            return otherObjectOrUnknown(out);
        }

        /**
         * At {@code t}: {@code SYSTEM VERSIONING} other than after {@code DROP} or {@code WITHOUT}
         * (of the table or of a column: either way the table is versioned after it).
         */
        private boolean addsSystemVersioning(Token t) {
            if (!t.isWord("SYSTEM") || !peekWord("VERSIONING")) {
                return false;
            }
            Token before = pos >= 2 ? tokens.get(pos - 2) : t;
            return !before.isWord("DROP") && !before.isWord("WITHOUT");
        }

        /** At {@code t}: a clause that removes or replaces rows without logging them as rows. */
        private boolean replacesRows(Token t) {
            if (t.isWord("TRUNCATE") || t.isWord("DROP") || t.isWord("EXCHANGE")) {
                return peekWord("PARTITION");
            }
            if (t.isWord("DISCARD") || t.isWord("IMPORT")) {
                return peekWord("PARTITION") || peekWord("TABLESPACE");
            }
            if (t.isWord("ENGINE")) {
                skipSymbol('=');
                return peekWord("BLACKHOLE");
            }
            return false;
        }

        private Optional<Targets> drop(Targets out) {
            boolean temporary = skipWord("TEMPORARY");
            if (skipWord("TABLE", "TABLES")) {
                skipIfExists();
                nameList(out);
                // a temporary table only hides a base table of its name
                out.removed.addAll(temporary ? List.of() : out.tables);
                return Optional.of(out);
            }
            if (skipWord("INDEX")) {
                name();
                expectWord("ON");
                out.tables.add(name());
                return Optional.of(out);
            }
            if (skipWord("DATABASE", "SCHEMA")) {
                skipIfExists();
                out.databases.add(identifier());
                return Optional.of(out);
            }
            return otherObjectOrUnknown(out);
        }

        private Optional<Targets> create(Targets out) {
            boolean orReplace = skipWord("OR") && skipWord("REPLACE");
            boolean temporary = skipWord("TEMPORARY");
            skipWord("UNIQUE", "FULLTEXT");
            if (peekWord("SPATIAL")) {
                next();
                if (peekWord("REFERENCE")) {
                    return Optional.of(out);
                }
            }
            if (skipWord("TABLE")) {
                boolean ifNotExists = skipWord("IF");
                if (ifNotExists) {
                    expectWord("NOT");
                    expectWord("EXISTS");
                }
                String[] name = name();
                out.tables.add(name);
                if (orReplace && !temporary) {
                    out.removed.add(name); // MariaDB's CREATE OR REPLACE TABLE drops it first
                }
                TableArrivals.Name likeSource = null;
                int like = peekSymbol('(') ? pos + 1 : pos; // LIKE s, or (LIKE s)
                if (peekWordAt(like, "LIKE")) {
                    pos = like + 1;
                    String[] source = name();
                    likeSource = new TableArrivals.Name(source[0], source[1]);
                }
                boolean versioned = false;
                boolean mariaDbTyped = false;
                while (pos < tokens.size()) {
                    versioned |= addsSystemVersioning(next());
                    mariaDbTyped |= MariaDbTypeWords.isOwnTypeAt(tokens, pos - 1);
                }
                out.created.add(
                        new TableArrivals.Creation(
                                name[0],
                                name[1],
                                ifNotExists,
                                temporary,
                                versioned,
                                mariaDbTyped,
                                likeSource));
                return Optional.of(out);
            }
            if (skipWord("INDEX")) {
                name();
                while (!peekWord("ON")) {
                    next(); // USING BTREE and the like
                }
                next();
                out.tables.add(name());
                return Optional.of(out);
            }
            if (skipWord("DATABASE", "SCHEMA")) {
                return Optional.of(out);
            }
            return otherObjectOrUnknown(out);
        }

        /**
         * Views, routines, users...: harmless. The object keyword may follow clauses like {@code
         * ALGORITHM=MERGE DEFINER=`u`@`h` SQL SECURITY DEFINER}, so look for it in the head.
         */
        private Optional<Targets> otherObjectOrUnknown(Targets out) {
            for (int i = pos; i < tokens.size() && i < pos + 16; i++) {
                Token t = tokens.get(i);
                if (t.type == SqlTokenizer.Type.WORD) {
                    String w = upper(t.text);
                    if (StatementWords.OTHER_OBJECTS.contains(w)) {
                        return Optional.of(out);
                    }
                    if (w.equals("TABLE") || w.equals("INDEX")) {
                        return Optional.empty();
                    }
                }
            }
            return Optional.empty();
        }

        private void nameList(Targets out) {
            do {
                out.tables.add(name());
            } while (skipSymbol(','));
        }

        private void skipIfExists() {
            if (skipWord("IF")) {
                expectWord("EXISTS");
            }
        }

        /** {@code name} or {@code db.name}, as {database or null, name}. */
        private String[] name() {
            String first = identifier();
            if (pos < tokens.size() && tokens.get(pos).isSymbol('.')) {
                pos++;
                return new String[] {first, identifier()};
            }
            return new String[] {null, first};
        }
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.ddl.SnapshotDdlGuard;
import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which DDL statements of the stream are schema changes of captured tables, to be emitted as
 * records of their own (the DataStream builder's {@code includeSchemaChanges(true)}), and the
 * table's columns right after each.
 *
 * <p>A schema change is an {@code ALTER TABLE}, {@code CREATE TABLE}, {@code CREATE INDEX}, {@code
 * DROP INDEX} or a followed {@code RENAME TABLE} swap naming a captured table. TRUNCATE has its own
 * record; DROP and other RENAMEs halt before they get here. The statement's text never leaves this
 * class: a DEFAULT clause, a CHECK constraint, a comment or a partition's VALUES may hold values
 * (the no-values rule), so a record carries its kind only.
 *
 * <p>The columns: a DDL changes the server's data dictionary and its binlog event at once (MySQL 8
 * DDL is atomic), so the table's columns read over JDBC at time T are those after the last DDL of
 * the table logged before T. The stream reads the DDL later than the server ran it, maybe much
 * later; the read is exact only if no other statement touching the table was logged between the DDL
 * and T. {@link ColumnsSource#columnsAfter} reads the columns, then the binlog's end, then looks at
 * the statements logged between the DDL's end and that end: if one touches the table, the columns
 * after this DDL are gone from the server and the record carries none (the rows after it still
 * carry their own, from their table maps). A statement logged after the end cannot show in columns
 * read before it. Pure apart from the source; single-threaded.
 */
@Internal
public final class SchemaChangeEvents {

    /** Reads the columns a table has right after a DDL, if that can be known exactly. */
    @FunctionalInterface
    public interface ColumnsSource extends java.io.Serializable {
        /**
         * @param table the changed table
         * @param ddlFile the binlog file holding the DDL
         * @param ddlEnd the position right after the DDL's event in that file
         * @return the table's columns, or empty when a statement touching it was logged after the
         *     DDL before the columns could be read
         */
        Optional<TableSchema> columnsAfter(TableId table, String ddlFile, long ddlEnd)
                throws IOException;
    }

    /** One schema change of one captured table. */
    public record Change(TableId table, String kind) {}

    /** The columns could not be read: the stream fails and restarts from its last checkpoint. */
    static final class ColumnsUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ColumnsUnavailable(TableId table, IOException cause) {
            super(
                    "could not read the columns of "
                            + table
                            + " after a schema change ("
                            + cause.getClass().getName()
                            + ")",
                    cause);
        }
    }

    private final ColumnsSource source;
    private String file; // the binlog file being read (from ROTATE); null until known
    private long ddlEnd = -1; // the end of the last QUERY event; -1 unknown

    public SchemaChangeEvents(ColumnsSource source) {
        this.source = source;
    }

    /** A ROTATE event (also the one the server sends first): the file being read. */
    void onRotate(String binlogFile) {
        this.file = binlogFile;
    }

    /** A QUERY event's header: where the statement ends in the file. */
    void onQuery(EventHeader header) {
        ddlEnd = header instanceof EventHeaderV4 ? ((EventHeaderV4) header).getNextPosition() : -1;
    }

    /** The schema changes of captured tables that {@code sql} makes, in table order. */
    List<Change> onDdl(String database, String sql, TableFilter filter) {
        Optional<String> kind = kindOf(sql);
        Optional<Set<TableId>> listed = filter.listed();
        if (kind.isEmpty() || listed.isEmpty()) {
            return List.of();
        }
        List<Change> changes = new ArrayList<>();
        for (TableId t : new TreeSet<>(listed.get())) {
            if (SnapshotDdlGuard.touchedTable(database, sql, Set.of(t)).isPresent()) {
                changes.add(new Change(t, kind.get()));
            }
        }
        return changes;
    }

    /** The table's columns right after the change; null when they cannot be known exactly. */
    TableSchema columns(Change change) {
        if (file == null || ddlEnd <= 0) {
            return null; // where the DDL is cannot be told, so nothing can prove the read exact
        }
        try {
            return source.columnsAfter(change.table(), file, ddlEnd).orElse(null);
        } catch (IOException e) {
            throw new ColumnsUnavailable(change.table(), e);
        }
    }

    /**
     * Whether a statement as {@code SHOW BINLOG EVENTS} shows it ({@code use `db`; ...} when it ran
     * with a default database) may touch {@code table}; a doubt counts as touching.
     */
    public static boolean loggedStatementTouches(String info, TableId table) {
        if (info == null) {
            return true;
        }
        String db = "";
        String sql = info;
        if (info.startsWith("use `")) {
            StringBuilder name = new StringBuilder();
            int i = 5;
            while (true) {
                if (i >= info.length()) {
                    return true;
                }
                char ch = info.charAt(i);
                if (ch == '`') {
                    if (i + 1 < info.length() && info.charAt(i + 1) == '`') {
                        name.append('`');
                        i += 2;
                        continue;
                    }
                    break;
                }
                name.append(ch);
                i++;
            }
            if (!info.startsWith("; ", i + 1)) {
                return true;
            }
            db = name.toString();
            sql = info.substring(i + 3);
        }
        return SnapshotDdlGuard.touchedTable(db, sql, Set.of(table)).isPresent();
    }

    /**
     * The kind of a statement that changes a table's schema: {@code ALTER TABLE}, {@code CREATE
     * TABLE}, {@code CREATE INDEX}, {@code DROP INDEX}, {@code RENAME TABLE}; empty otherwise.
     */
    static Optional<String> kindOf(String sql) {
        List<SqlTokenizer.Token> tokens;
        try {
            tokens = SqlTokenizer.tokenize(sql);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (tokens.size() < 2) {
            return Optional.empty();
        }
        SqlTokenizer.Token head = tokens.get(0);
        if (head.isWord("ALTER")) {
            return after(tokens, 1, Set.of("ONLINE", "OFFLINE", "IGNORE"), "TABLE", "ALTER TABLE");
        }
        if (head.isWord("RENAME")) {
            return after(tokens, 1, Set.of(), "TABLE", "RENAME TABLE");
        }
        if (head.isWord("DROP")) {
            return after(tokens, 1, Set.of("ONLINE", "OFFLINE"), "INDEX", "DROP INDEX");
        }
        if (head.isWord("CREATE")) {
            Optional<String> table = after(tokens, 1, Set.of(), "TABLE", "CREATE TABLE");
            return table.isPresent()
                    ? table
                    : after(
                            tokens,
                            1,
                            Set.of("ONLINE", "OFFLINE", "UNIQUE", "FULLTEXT", "SPATIAL"),
                            "INDEX",
                            "CREATE INDEX");
        }
        return Optional.empty();
    }

    /**
     * {@code kind} when the words from {@code i}, past any of {@code skipped}, reach {@code word}.
     */
    private static Optional<String> after(
            List<SqlTokenizer.Token> tokens, int i, Set<String> skipped, String word, String kind) {
        int j = i;
        while (j < tokens.size() && skipped.stream().anyMatch(tokens.get(j)::isWord)) {
            j++;
        }
        return j < tokens.size() && tokens.get(j).isWord(word)
                ? Optional.of(kind)
                : Optional.empty();
    }
}

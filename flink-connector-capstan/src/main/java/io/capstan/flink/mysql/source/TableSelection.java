package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.schema.TableId;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which tables a job captures, as the user wrote them: database names and {@code db.table} names,
 * each an exact name or a Java regular expression matched against the whole name.
 *
 * <p>An entry of {@code tableList} splits at its first dot that is not escaped ({@code \.}); the
 * part before matches the database, the part after the table. A table is captured when it matches
 * some {@code databaseList} entry (or that list is empty) and some {@code tableList} entry (or that
 * list is empty). System schemas are never captured. Pure logic: resolution against the server is
 * {@link TableDiscovery}'s job.
 */
public final class TableSelection implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Schemas that hold server metadata, never user data. */
    public static final Set<String> SYSTEM_SCHEMAS =
            Set.of("mysql", "information_schema", "performance_schema", "sys");

    private final List<String> databaseList;
    private final List<String> tableList;

    private transient List<Pattern> databasePatterns;
    private transient List<Pattern[]> tablePatterns;

    private TableSelection(List<String> databaseList, List<String> tableList) {
        this.databaseList = List.copyOf(databaseList);
        this.tableList = List.copyOf(tableList);
        compile();
    }

    /**
     * Validates and compiles the lists.
     *
     * @throws IllegalArgumentException naming the option and entry when an entry is malformed
     */
    public static TableSelection of(List<String> databaseList, List<String> tableList) {
        if (databaseList.isEmpty() && tableList.isEmpty()) {
            throw new IllegalArgumentException(
                    "databaseList/tableList: at least one must be set, e.g. databaseList(\"shop\")"
                            + " or tableList(\"shop.orders\", \"shop.order_line_.*\")");
        }
        return new TableSelection(databaseList, tableList);
    }

    public List<String> databaseList() {
        return databaseList;
    }

    public List<String> tableList() {
        return tableList;
    }

    /** Whether the table is in scope (system schemas never are). */
    public boolean matches(TableId table) {
        if (databasePatterns == null) {
            compile();
        }
        if (SYSTEM_SCHEMAS.contains(table.database().toLowerCase(Locale.ROOT))) {
            return false;
        }
        if (!databasePatterns.isEmpty()
                && databasePatterns.stream().noneMatch(p -> p.matcher(table.database()).matches())) {
            return false;
        }
        return tablePatterns.isEmpty()
                || tablePatterns.stream()
                        .anyMatch(
                                p ->
                                        p[0].matcher(table.database()).matches()
                                                && p[1].matcher(table.table()).matches());
    }

    private void compile() {
        List<Pattern> dbs = new ArrayList<>();
        for (String entry : databaseList) {
            dbs.add(compile("databaseList", entry, entry));
        }
        List<Pattern[]> tables = new ArrayList<>();
        for (String entry : tableList) {
            int dot = firstUnescapedDot(entry);
            if (dot <= 0 || dot == entry.length() - 1) {
                throw new IllegalArgumentException(
                        "tableList: entry '" + entry + "' must be database.table (either part may be"
                                + " a regular expression; escape a literal dot as \\.)");
            }
            tables.add(
                    new Pattern[] {
                        compile("tableList", entry, entry.substring(0, dot)),
                        compile("tableList", entry, entry.substring(dot + 1))
                    });
        }
        this.databasePatterns = Collections.unmodifiableList(dbs);
        this.tablePatterns = Collections.unmodifiableList(tables);
    }

    private static Pattern compile(String option, String entry, String regex) {
        if (regex.isBlank()) {
            throw new IllegalArgumentException(option + ": empty entry");
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    option + ": entry '" + entry + "' is not a valid regular expression: "
                            + e.getDescription(),
                    e);
        }
    }

    private static int firstUnescapedDot(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++; // skip the escaped character
            } else if (c == '.') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableSelection
                && ((TableSelection) o).databaseList.equals(databaseList)
                && ((TableSelection) o).tableList.equals(tableList);
    }

    @Override
    public int hashCode() {
        return databaseList.hashCode() * 31 + tableList.hashCode();
    }

    @Override
    public String toString() {
        return "databaseList=" + databaseList + ", tableList=" + tableList;
    }
}

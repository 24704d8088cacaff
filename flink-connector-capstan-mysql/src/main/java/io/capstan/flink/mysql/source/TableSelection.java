package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

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
 * <p>An entry of {@code tableList} is matched against the whole {@code database.table} text (as in
 * Flink CDC): {@code shop.orders} is exact enough in practice, {@code shop\.order_line_.*} or
 * {@code .*\.orders} are patterns. A table is captured when it matches some {@code databaseList}
 * entry (or that list is empty) and some {@code tableList} entry (or that list is empty). System
 * schemas are never captured. Pure logic: resolution against the server is {@link TableDiscovery}'s
 * job.
 */
@Internal
public final class TableSelection implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Schemas that hold server metadata, never user data. */
    public static final Set<String> SYSTEM_SCHEMAS =
            Set.of("mysql", "information_schema", "performance_schema", "sys");

    private final List<String> databaseList;
    private final List<String> tableList;

    private transient List<Pattern> databasePatterns;
    private transient List<Pattern> tablePatterns;

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
                && databasePatterns.stream()
                        .noneMatch(p -> p.matcher(table.database()).matches())) {
            return false;
        }
        if (tablePatterns.isEmpty()) {
            return true;
        }
        String qualified = table.database() + "." + table.table();
        return tablePatterns.stream().anyMatch(p -> p.matcher(qualified).matches());
    }

    private void compile() {
        List<Pattern> dbs = new ArrayList<>();
        for (String entry : databaseList) {
            dbs.add(compile("databaseList", entry, entry));
        }
        List<Pattern> tables = new ArrayList<>();
        for (String entry : tableList) {
            if (entry == null || entry.indexOf('.') < 0) {
                throw new IllegalArgumentException(
                        "tableList: entry '"
                                + entry
                                + "' must be database.table (a regular"
                                + " expression over the whole name, e.g. shop.orders or"
                                + " shop\\.order_line_.*)");
            }
            tables.add(compile("tableList", entry, entry));
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
                    option
                            + ": entry '"
                            + entry
                            + "' is not a valid regular expression: "
                            + e.getDescription(),
                    e);
        }
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

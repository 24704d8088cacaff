package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Objects;

/** A table by database and name. Identifiers may appear in messages; values never do. */
@Internal
public record TableId(String database, String table) implements Serializable, Comparable<TableId> {
    private static final long serialVersionUID = 1L;

    public TableId {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
    }

    public static TableId of(String database, String table) {
        return new TableId(database, table);
    }

    /** The quoted identifier {@code `db`.`table`} for SQL text. */
    public String quoted() {
        return quote(database) + "." + quote(table);
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public int compareTo(TableId o) {
        int c = database.compareTo(o.database);
        return c != 0 ? c : table.compareTo(o.table);
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}

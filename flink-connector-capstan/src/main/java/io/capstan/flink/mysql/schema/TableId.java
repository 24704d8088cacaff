package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Objects;

/** A table by database and name. Identifiers may appear in messages; values never do. */
@Internal
public final class TableId implements Serializable, Comparable<TableId> {
    private static final long serialVersionUID = 1L;

    private final String database;
    private final String table;

    public TableId(String database, String table) {
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
    }

    public static TableId of(String database, String table) {
        return new TableId(database, table);
    }

    public String database() {
        return database;
    }

    public String table() {
        return table;
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
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof TableId)) {
            return false;
        }
        TableId other = (TableId) o;
        return database.equals(other.database) && table.equals(other.table);
    }

    @Override
    public int hashCode() {
        return 31 * database.hashCode() + table.hashCode();
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}

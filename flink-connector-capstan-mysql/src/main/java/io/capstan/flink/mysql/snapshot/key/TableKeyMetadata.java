package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * What information_schema says about a table's columns and unique indexes: the input of {@link
 * ChunkKeyResolver}. Pure data, no values.
 */
@Internal
public final class TableKeyMetadata {

    /** One column as information_schema.COLUMNS describes it. */
    public static final class Column {
        final String name;
        final int ordinalPosition; // 1-based
        final String dataType; // lower case, e.g. "bigint"
        final String columnType; // e.g. "bigint unsigned"
        final boolean nullable;
        final long numericPrecision;
        final long numericScale;
        final long octetLength;
        final long datetimePrecision;

        /** The collation of a character column, lower case; null for other columns. */
        final String collation;

        private final String collationAsRead;

        /**
         * How the server weighs a CHAR/VARCHAR column's values; null for other columns, and when
         * the server could not say (then the column cannot be a chunk key).
         */
        @Nullable final KeyCollation weighing;

        public Column(
                String name,
                int ordinalPosition,
                String dataType,
                String columnType,
                boolean nullable,
                long numericPrecision,
                long numericScale,
                long octetLength,
                long datetimePrecision,
                String collation) {
            this(
                    name,
                    ordinalPosition,
                    dataType,
                    columnType,
                    nullable,
                    numericPrecision,
                    numericScale,
                    octetLength,
                    datetimePrecision,
                    collation,
                    null);
        }

        public Column(
                String name,
                int ordinalPosition,
                String dataType,
                String columnType,
                boolean nullable,
                long numericPrecision,
                long numericScale,
                long octetLength,
                long datetimePrecision,
                String collation,
                @Nullable KeyCollation weighing) {
            this.name = Objects.requireNonNull(name);
            this.ordinalPosition = ordinalPosition;
            this.dataType = dataType.toLowerCase(java.util.Locale.ROOT);
            this.columnType = columnType.toLowerCase(java.util.Locale.ROOT);
            this.nullable = nullable;
            this.numericPrecision = numericPrecision;
            this.numericScale = numericScale;
            this.octetLength = octetLength;
            this.datetimePrecision = datetimePrecision;
            this.collationAsRead = collation;
            this.collation =
                    collation == null ? null : collation.toLowerCase(java.util.Locale.ROOT);
            this.weighing = weighing;
        }

        public String name() {
            return name;
        }

        /** The collation as information_schema spells it, or null. */
        public String collationName() {
            return collationAsRead;
        }

        /** This column with how the server weighs it (only a CHAR/VARCHAR column keeps one). */
        public Column withWeighing(@Nullable KeyCollation weighing) {
            boolean text = dataType.equals("char") || dataType.equals("varchar");
            return new Column(
                    name,
                    ordinalPosition,
                    dataType,
                    columnType,
                    nullable,
                    numericPrecision,
                    numericScale,
                    octetLength,
                    datetimePrecision,
                    collationAsRead,
                    text ? weighing : null);
        }
    }

    /** One index: its name, uniqueness and columns in index order (prefix parts flagged). */
    public static final class Index {
        final String name;
        final boolean unique;
        final List<String> columns;
        final boolean hasPrefixPart;

        public Index(String name, boolean unique, List<String> columns, boolean hasPrefixPart) {
            this.name = Objects.requireNonNull(name);
            this.unique = unique;
            this.columns = List.copyOf(columns);
            this.hasPrefixPart = hasPrefixPart;
        }

        public boolean isPrimary() {
            return "PRIMARY".equals(name);
        }
    }

    private final TableId table;
    private final List<Column> columns;
    private final List<Index> indexes;

    public TableKeyMetadata(TableId table, List<Column> columns, List<Index> indexes) {
        this.table = Objects.requireNonNull(table);
        this.columns = List.copyOf(columns);
        this.indexes = List.copyOf(indexes);
    }

    public TableId table() {
        return table;
    }

    public List<Column> columns() {
        return columns;
    }

    public List<Index> indexes() {
        return indexes;
    }

    /**
     * The unique indexes without prefix parts on exactly {@code columnNames}, in that order (names
     * compare ignoring case, as MySQL's do), each as {@code name(column,...)}, sorted: the indexes
     * that make a chunk key on those columns a key.
     */
    public List<String> uniqueIndexesOn(List<String> columnNames) {
        List<String> out = new java.util.ArrayList<>();
        for (Index index : indexes) {
            if (!index.unique
                    || index.hasPrefixPart
                    || index.columns.size() != columnNames.size()) {
                continue;
            }
            boolean same = true;
            for (int i = 0; i < columnNames.size(); i++) {
                same &= index.columns.get(i).equalsIgnoreCase(columnNames.get(i));
            }
            if (same) {
                out.add(index.name + "(" + String.join(",", index.columns) + ")");
            }
        }
        java.util.Collections.sort(out);
        return out;
    }
}

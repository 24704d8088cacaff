package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the planning-time checks need to know of one MySQL table: its columns in table order, each
 * with its MySQL type as the server names it and the Flink type its values arrive as (nullable when
 * the column allows NULL), and its primary key. Built from the connector's {@code TableSchema}; a
 * plain value so the checks are pure.
 */
@Internal
public final class MySqlTableShape {

    /** One column. {@code mysqlType} is for messages, e.g. {@code decimal(12,2) unsigned}. */
    public static final class Column {
        private final String name;
        private final String mysqlType;
        private final LogicalType flinkType;

        @Nullable private final ColumnSchema mysqlColumn;

        public Column(String name, String mysqlType, LogicalType flinkType) {
            this(name, mysqlType, flinkType, null);
        }

        /**
         * @param mysqlColumn the column as the connector read it, for the declarations that keep
         *     MySQL's meaning (see {@link DeclaredTypeRule#isMySqlMeaning}); null if unknown
         */
        public Column(
                String name,
                String mysqlType,
                LogicalType flinkType,
                @Nullable ColumnSchema mysqlColumn) {
            this.name = name;
            this.mysqlType = mysqlType;
            this.flinkType = flinkType;
            this.mysqlColumn = mysqlColumn;
        }

        /** The column as the connector read it, or null if unknown. */
        @Nullable
        public ColumnSchema mysqlColumn() {
            return mysqlColumn;
        }

        public String name() {
            return name;
        }

        public String mysqlType() {
            return mysqlType;
        }

        public LogicalType flinkType() {
            return flinkType;
        }
    }

    private final TableId tableId;
    private final List<Column> columns;
    private final List<String> keyColumns;
    private final boolean chunkKeyIdentifiesRows;

    public MySqlTableShape(TableId tableId, List<Column> columns, List<String> keyColumns) {
        this(tableId, columns, keyColumns, true);
    }

    /**
     * @param chunkKeyIdentifiesRows false when the table has no primary key and its configured
     *     chunk key column no UNIQUE index of its own: it is chunked by ranges of that column's
     *     values, which do not identify a row
     */
    public MySqlTableShape(
            TableId tableId,
            List<Column> columns,
            List<String> keyColumns,
            boolean chunkKeyIdentifiesRows) {
        this.tableId = tableId;
        this.columns = List.copyOf(columns);
        this.keyColumns = List.copyOf(keyColumns);
        this.chunkKeyIdentifiesRows = chunkKeyIdentifiesRows;
    }

    /** Whether the configured chunk key column (if any) identifies a row. */
    public boolean chunkKeyIdentifiesRows() {
        return chunkKeyIdentifiesRows;
    }

    public TableId tableId() {
        return tableId;
    }

    public List<Column> columns() {
        return columns;
    }

    /** Primary key column names in key order; empty for a table without a primary key. */
    public List<String> keyColumns() {
        return keyColumns;
    }

    /** The column of this name; MySQL column names are case-insensitive. */
    public Optional<Column> column(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return columns.stream()
                .filter(c -> c.name().toLowerCase(Locale.ROOT).equals(lower))
                .findFirst();
    }
}

package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The columns and primary key of one table, and the Flink row type its rows have. Equal schemas
 * come from {@code schema.read.JdbcSchemaReader} and {@code BinlogSchemaReader} for the same table.
 */
@Internal
public final class TableSchema implements Serializable {
    private static final long serialVersionUID = 1L;

    private final TableId tableId;
    private final List<ColumnSchema> columns;
    private final int[] keyColumnIndexes;
    private final RowType rowType;
    private final Map<String, Integer> indexByName;

    /**
     * @param keyColumnIndexes the primary key's column indexes in key order (empty if none)
     */
    public TableSchema(TableId tableId, List<ColumnSchema> columns, int[] keyColumnIndexes) {
        this.tableId = Objects.requireNonNull(tableId, "tableId");
        this.columns = List.copyOf(columns);
        this.keyColumnIndexes = keyColumnIndexes.clone();
        for (int k : this.keyColumnIndexes) {
            if (k < 0 || k >= this.columns.size()) {
                throw new IllegalArgumentException(
                        "table " + tableId + ": key column index out of range");
            }
        }
        List<RowType.RowField> fields = new ArrayList<>(this.columns.size());
        this.indexByName = new HashMap<>();
        for (int i = 0; i < this.columns.size(); i++) {
            ColumnSchema c = this.columns.get(i);
            LogicalType t = c.logicalType();
            fields.add(new RowType.RowField(c.name(), t));
            indexByName.put(c.name().toLowerCase(Locale.ROOT), i);
        }
        this.rowType = new RowType(false, fields);
    }

    public TableId tableId() {
        return tableId;
    }

    public List<ColumnSchema> columns() {
        return columns;
    }

    /** The primary key's column indexes, in key order; empty if the table has no primary key. */
    public int[] keyColumnIndexes() {
        return keyColumnIndexes.clone();
    }

    public boolean hasPrimaryKey() {
        return keyColumnIndexes.length > 0;
    }

    /** The Flink row type: one field per column, same names and order. */
    public RowType rowType() {
        return rowType;
    }

    /** The index of a column by name (MySQL column names are case-insensitive), or -1. */
    public int columnIndex(String name) {
        Integer i = indexByName.get(name.toLowerCase(Locale.ROOT));
        return i == null ? -1 : i;
    }

    public ColumnSchema column(int index) {
        return columns.get(index);
    }

    public int columnCount() {
        return columns.size();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof TableSchema)) {
            return false;
        }
        TableSchema t = (TableSchema) o;
        return tableId.equals(t.tableId)
                && columns.equals(t.columns)
                && Arrays.equals(keyColumnIndexes, t.keyColumnIndexes);
    }

    @Override
    public int hashCode() {
        return 31 * tableId.hashCode() + columns.hashCode();
    }

    /** Table, column names and types, key: never values (the no-values rule). */
    @Override
    public String toString() {
        return "TableSchema{"
                + tableId
                + ", columns="
                + columns
                + ", key="
                + Arrays.toString(keyColumnIndexes)
                + "}";
    }
}

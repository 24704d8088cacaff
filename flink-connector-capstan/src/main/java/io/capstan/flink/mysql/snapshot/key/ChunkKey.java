package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * The key a table is chunked and gated by: its primary key, or a configured UNIQUE NOT NULL chunk
 * key column. Built by {@link ChunkKeyResolver}; carries no values.
 */
@Internal
public final class ChunkKey implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Where the key comes from, for messages and docs. */
    public enum Source {
        PRIMARY_KEY,
        CHUNK_KEY_COLUMN
    }

    private final TableId table;
    private final List<KeyColumn> columns;
    private final Source source;

    public ChunkKey(TableId table, List<KeyColumn> columns, Source source) {
        this.table = Objects.requireNonNull(table, "table");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a chunk key has at least one column");
        }
        this.columns = List.copyOf(columns);
        this.source = Objects.requireNonNull(source, "source");
    }

    public TableId table() {
        return table;
    }

    public List<KeyColumn> columns() {
        return columns;
    }

    public int arity() {
        return columns.size();
    }

    public KeyColumn column(int i) {
        return columns.get(i);
    }

    public Source source() {
        return source;
    }

    /** Field positions of the key columns in the table's rows, in key order. */
    public int[] rowIndexes() {
        return columns.stream().mapToInt(KeyColumn::rowIndex).toArray();
    }

    /** A single integer column: eligible for arithmetic splitting. */
    public boolean isSingleInteger() {
        return columns.size() == 1 && columns.get(0).kind() == KeyKind.INTEGER;
    }

    /** {@code `a`, `b`} for SQL text. */
    public String quotedColumnList() {
        StringBuilder sb = new StringBuilder();
        for (KeyColumn c : columns) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(c.quotedName());
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ChunkKey)) {
            return false;
        }
        ChunkKey k = (ChunkKey) o;
        return table.equals(k.table) && columns.equals(k.columns) && source == k.source;
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, columns, source);
    }

    @Override
    public String toString() {
        return "ChunkKey{table=" + table + ", source=" + source + ", columns=" + columns + "}";
    }
}

package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * The key a table is chunked and gated by: its primary key, or a configured UNIQUE NOT NULL chunk
 * key column; or no key at all ({@link Source#KEYLESS}, no columns) for a table without a usable
 * unique key, which is read as one unsplit chunk (one read view at one G), so its gate has one
 * chunk and places every change in it without a key. Built by {@link ChunkKeyResolver}; carries no
 * values.
 */
@Internal
public record ChunkKey(TableId table, List<KeyColumn> columns, Source source)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Where the key comes from, for messages and docs. */
    public enum Source {
        PRIMARY_KEY,
        CHUNK_KEY_COLUMN,
        /** No UNIQUE NOT NULL key: the table is one chunk over all its rows (appended: ordinal). */
        KEYLESS,
        /**
         * The configured column of a table whose primary key cannot be a chunk key (appended:
         * ordinal). A row is identified by its primary key but placed in a chunk by this column, so
         * an update of the column while the snapshot runs can show one row in two chunks: the gate
         * halts when it does ({@link #rowsCanMoveBetweenChunks}).
         */
        CHUNK_KEY_COLUMN_BESIDE_PRIMARY_KEY
    }

    public ChunkKey {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(source, "source");
        if (columns.isEmpty() != (source == Source.KEYLESS)) {
            throw new IllegalArgumentException(
                    "a chunk key has at least one column, a keyless table's none");
        }
        columns = List.copyOf(columns);
    }

    /** The key of a table without a usable unique key: one chunk holds all its rows. */
    public static ChunkKey keyless(TableId table) {
        return new ChunkKey(table, List.of(), Source.KEYLESS);
    }

    /** Whether the table has no key: it is planned, read and gated as one unsplit chunk. */
    public boolean isKeyless() {
        return source == Source.KEYLESS;
    }

    /**
     * Whether a row's chunk can change while its identity (primary key) stays: then an update that
     * moves a row from a chunk read before it to a chunk read after it leaves the row in both
     * chunks' snapshots, under one primary key.
     */
    public boolean rowsCanMoveBetweenChunks() {
        return source == Source.CHUNK_KEY_COLUMN_BESIDE_PRIMARY_KEY;
    }

    public int arity() {
        return columns.size();
    }

    public KeyColumn column(int i) {
        return columns.get(i);
    }

    /** Field positions of the key columns in the table's rows, in key order. */
    public int[] rowIndexes() {
        return columns.stream().mapToInt(KeyColumn::rowIndex).toArray();
    }

    /**
     * Whether a column is ordered by the server's weights ({@link KeyKind#STRING_COLLATED}): a
     * row's key is then placed only with weights asked of the server.
     */
    public boolean needsWeights() {
        return columns.stream().anyMatch(c -> c.kind() == KeyKind.STRING_COLLATED);
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

    /**
     * The select list that reads a key: {@link #quotedColumnList()}, then the server's weight of
     * each {@link KeyKind#STRING_COLLATED} column in key order (read back by {@code
     * JdbcKeyValues.read}).
     */
    public String selectList() {
        StringBuilder sb = new StringBuilder(quotedColumnList());
        for (KeyColumn c : columns) {
            if (c.collation() != null) {
                sb.append(", ").append(c.collation().weightOf(c.quotedName()));
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "ChunkKey{table=" + table + ", source=" + source + ", columns=" + columns + "}";
    }
}

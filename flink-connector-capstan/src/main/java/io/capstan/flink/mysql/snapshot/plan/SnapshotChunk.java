package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * One planned chunk: the {@code index}-th key range of a table, numbered from 0 in key order.
 * {@link #id()} ({@code db.table#index}) identifies it in splits and metrics without a value.
 */
@Internal
public final class SnapshotChunk {
    private final TableId table;
    private final int index;
    private final ChunkRange range;

    public SnapshotChunk(TableId table, int index, ChunkRange range) {
        this.table = Objects.requireNonNull(table, "table");
        if (index < 0) {
            throw new IllegalArgumentException("chunk index must be >= 0");
        }
        this.index = index;
        this.range = Objects.requireNonNull(range, "range");
    }

    public TableId table() {
        return table;
    }

    public int index() {
        return index;
    }

    public ChunkRange range() {
        return range;
    }

    public String id() {
        return table + "#" + index;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SnapshotChunk)) {
            return false;
        }
        SnapshotChunk c = (SnapshotChunk) o;
        return index == c.index && table.equals(c.table) && range.equals(c.range);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, index, range);
    }

    @Override
    public String toString() {
        return "SnapshotChunk{" + id() + ", " + range + "}";
    }
}

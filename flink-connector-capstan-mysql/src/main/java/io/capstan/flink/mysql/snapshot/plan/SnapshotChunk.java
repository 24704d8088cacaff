package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * One planned chunk: the {@code index}-th key range of a table, numbered from 0 in key order.
 * {@link #id()} ({@code db.table#index}) identifies it in splits and metrics without a value.
 */
@Internal
public record SnapshotChunk(TableId table, int index, ChunkRange range) {

    public SnapshotChunk {
        Objects.requireNonNull(table, "table");
        if (index < 0) {
            throw new IllegalArgumentException("chunk index must be >= 0");
        }
        Objects.requireNonNull(range, "range");
    }

    public String id() {
        return table + "#" + index;
    }

    /**
     * The range's bounds are key values (the no-values rule): {@link ChunkRange#toString()} hides
     * them.
     */
    @Override
    public String toString() {
        return "SnapshotChunk{" + id() + ", " + range + "}";
    }
}

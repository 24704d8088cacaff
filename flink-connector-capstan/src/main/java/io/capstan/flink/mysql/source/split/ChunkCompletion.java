package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * What reading a chunk produced, apart from its rows: its G (the transactions whose effects the
 * rows hold) and how many rows were emitted. A position and a count, never a value.
 */
@Internal
public final class ChunkCompletion {
    private final GtidSet gtidSet;
    private final long rowCount;

    public ChunkCompletion(GtidSet gtidSet, long rowCount) {
        this.gtidSet = Objects.requireNonNull(gtidSet, "gtidSet");
        if (rowCount < 0) {
            throw new IllegalArgumentException("rowCount must be >= 0");
        }
        this.rowCount = rowCount;
    }

    public GtidSet gtidSet() {
        return gtidSet;
    }

    public long rowCount() {
        return rowCount;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkCompletion
                && rowCount == ((ChunkCompletion) o).rowCount
                && gtidSet.equals(((ChunkCompletion) o).gtidSet);
    }

    @Override
    public int hashCode() {
        return Objects.hash(gtidSet, rowCount);
    }

    @Override
    public String toString() {
        return "ChunkCompletion{G=" + gtidSet + ", rows=" + rowCount + "}";
    }
}

package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/** A chunk that has been read and emitted: its key range and its G. Value-free toString. */
@Internal
public record FinishedChunk(ChunkRange range, GtidSet gtidSet) {

    public FinishedChunk {
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(gtidSet, "gtidSet");
    }

    /**
     * The range's bounds are key values (the no-values rule): {@link ChunkRange#toString()} hides
     * them.
     */
    @Override
    public String toString() {
        return "FinishedChunk{" + range + "}";
    }
}

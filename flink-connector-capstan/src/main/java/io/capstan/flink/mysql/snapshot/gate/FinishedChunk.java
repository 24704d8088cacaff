package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/** A chunk that has been read and emitted: its key range and its G. Value-free toString. */
@Internal
public final class FinishedChunk {
    private final ChunkRange range;
    private final GtidSet gtidSet;

    public FinishedChunk(ChunkRange range, GtidSet gtidSet) {
        this.range = Objects.requireNonNull(range, "range");
        this.gtidSet = Objects.requireNonNull(gtidSet, "gtidSet");
    }

    public ChunkRange range() {
        return range;
    }

    public GtidSet gtidSet() {
        return gtidSet;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FinishedChunk)) {
            return false;
        }
        FinishedChunk f = (FinishedChunk) o;
        return range.equals(f.range) && gtidSet.equals(f.gtidSet);
    }

    @Override
    public int hashCode() {
        return Objects.hash(range, gtidSet);
    }

    @Override
    public String toString() {
        return "FinishedChunk{" + range + "}";
    }
}

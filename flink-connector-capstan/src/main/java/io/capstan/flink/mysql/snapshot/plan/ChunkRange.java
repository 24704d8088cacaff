package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import java.util.Comparator;
import java.util.Objects;

/**
 * A half-open key range {@code [low, high)}; a null {@code low} is open towards the smallest key
 * (the table's first chunk), a null {@code high} towards the largest (its last chunk). By Rule 1
 * {@link #toString()} says only which ends are bounded.
 */
@Internal
public final class ChunkRange {
    private static final ChunkRange ALL = new ChunkRange(null, null);

    private final KeyTuple low; // inclusive, null = unbounded
    private final KeyTuple high; // exclusive, null = unbounded

    private ChunkRange(KeyTuple low, KeyTuple high) {
        this.low = low;
        this.high = high;
    }

    public static ChunkRange of(KeyTuple lowInclusive, KeyTuple highExclusive) {
        return lowInclusive == null && highExclusive == null
                ? ALL
                : new ChunkRange(lowInclusive, highExclusive);
    }

    /** The whole key space: the single chunk of an empty or small table. */
    public static ChunkRange all() {
        return ALL;
    }

    /** Inclusive lower bound, or null when open. */
    public KeyTuple low() {
        return low;
    }

    /** Exclusive upper bound, or null when open. */
    public KeyTuple high() {
        return high;
    }

    public boolean isFirst() {
        return low == null;
    }

    public boolean isLast() {
        return high == null;
    }

    public boolean contains(KeyTuple key, Comparator<KeyTuple> order) {
        return (low == null || order.compare(low, key) <= 0)
                && (high == null || order.compare(key, high) < 0);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ChunkRange)) {
            return false;
        }
        ChunkRange r = (ChunkRange) o;
        return Objects.equals(low, r.low) && Objects.equals(high, r.high);
    }

    @Override
    public int hashCode() {
        return Objects.hash(low, high);
    }

    @Override
    public String toString() {
        return "ChunkRange{low="
                + (low == null ? "open" : "bounded")
                + ", high="
                + (high == null ? "open" : "bounded")
                + "}";
    }
}

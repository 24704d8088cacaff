package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import java.util.Comparator;

/**
 * A half-open key range {@code [low, high)}; a null {@code low} is open towards the smallest key
 * (the table's first chunk), a null {@code high} towards the largest (its last chunk). By the
 * no-values rule {@link #toString()} says only which ends are bounded.
 *
 * @param low inclusive lower bound, or null when open
 * @param high exclusive upper bound, or null when open
 */
@Internal
public record ChunkRange(KeyTuple low, KeyTuple high) {
    private static final ChunkRange ALL = new ChunkRange(null, null);

    public static ChunkRange of(KeyTuple lowInclusive, KeyTuple highExclusive) {
        return lowInclusive == null && highExclusive == null
                ? ALL
                : new ChunkRange(lowInclusive, highExclusive);
    }

    /** The whole key space: the single chunk of an empty or small table. */
    public static ChunkRange all() {
        return ALL;
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
    public String toString() {
        return "ChunkRange{low="
                + (low == null ? "open" : "bounded")
                + ", high="
                + (high == null ? "open" : "bounded")
                + "}";
    }
}

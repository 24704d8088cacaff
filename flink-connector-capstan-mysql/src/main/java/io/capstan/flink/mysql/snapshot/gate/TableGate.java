package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate of one table: its finished chunks, which tile the whole key space, sorted by range, with
 * each chunk's G. Immutable.
 */
final class TableGate {
    private final ChunkKey key;
    private final KeyComparator order;

    /** lows[i] is chunk i's inclusive lower bound; lows[0] is null (open). */
    private final KeyTuple[] lows;

    private final GtidSet[] gtidSets;
    private final GtidSet union;

    private TableGate(ChunkKey key, KeyTuple[] lows, GtidSet[] gtidSets) {
        this.key = key;
        this.order = KeyComparator.of(key);
        this.lows = lows;
        this.gtidSets = gtidSets;
        GtidSet.Builder u = GtidSet.builder();
        for (GtidSet g : new java.util.LinkedHashSet<>(java.util.Arrays.asList(gtidSets))) {
            u.addAll(g);
        }
        this.union = u.build();
    }

    /**
     * Sorts the chunks and checks that they tile the key space: the first open below, each upper
     * bound equal to the next lower bound, the last open above.
     */
    static TableGate of(ChunkKey key, List<FinishedChunk> chunks) {
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("table " + key.table() + " has no finished chunk");
        }
        KeyComparator order = KeyComparator.of(key);
        List<FinishedChunk> sorted = new ArrayList<>(chunks);
        sorted.sort(
                (a, b) -> {
                    if (a.range().low() == null) {
                        return b.range().low() == null ? 0 : -1;
                    }
                    return b.range().low() == null
                            ? 1
                            : order.compare(a.range().low(), b.range().low());
                });
        Map<GtidSet, GtidSet> distinct = new HashMap<>(); // share equal Gs between chunks
        KeyTuple[] lows = new KeyTuple[sorted.size()];
        GtidSet[] gs = new GtidSet[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
            FinishedChunk c = sorted.get(i);
            boolean first = i == 0;
            boolean last = i == sorted.size() - 1;
            if ((c.range().low() == null) != first
                    || (c.range().high() == null) != last
                    || (!first
                            && order.compare(sorted.get(i - 1).range().high(), c.range().low())
                                    != 0)) {
                throw new IllegalArgumentException(
                        "the finished chunks of table "
                                + key.table()
                                + " do not cover its key"
                                + " space exactly once (chunk "
                                + i
                                + " of "
                                + sorted.size()
                                + ")");
            }
            lows[i] = c.range().low();
            gs[i] = distinct.computeIfAbsent(c.gtidSet(), g -> g);
        }
        return new TableGate(key, lows, gs);
    }

    ChunkKey key() {
        return key;
    }

    int chunkCount() {
        return lows.length;
    }

    KeyTuple low(int i) {
        return lows[i];
    }

    GtidSet gtidSet(int i) {
        return gtidSets[i];
    }

    GtidSet union() {
        return union;
    }

    /** True when some chunk's G holds {@code g} and another's does not. */
    boolean straddles(Gtid g) {
        boolean in = false;
        boolean out = false;
        for (GtidSet s : gtidSets) {
            if (s.contains(g)) {
                in = true;
            } else {
                out = true;
            }
            if (in && out) {
                return true;
            }
        }
        return false;
    }

    /** The index of the chunk whose range holds {@code k}: the last chunk with low <= k. */
    int chunkOf(KeyTuple k) {
        int lo = 1;
        int hi = lows.length - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare(lows[mid], k) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    boolean suppress(KeyTuple k, Gtid g) {
        return gtidSets[chunkOf(k)].contains(g);
    }

    List<GtidSet> gtidSets() {
        return Collections.unmodifiableList(java.util.Arrays.asList(gtidSets));
    }
}

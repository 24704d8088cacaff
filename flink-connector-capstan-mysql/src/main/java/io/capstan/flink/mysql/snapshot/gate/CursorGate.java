package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidModeChange;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyExtractor;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cursor gate at the handoff from snapshot to binlog. A row change of key {@code k} in table
 * {@code t} within transaction {@code g} is already in the snapshot exactly when {@code g} is in
 * the G of the chunk of {@code t} whose range holds {@code k}; {@link #suppress} says so, by binary
 * search over the table's chunk boundaries.
 *
 * <p><b>Row images.</b> Gate each image separately: an INSERT by its after image, a DELETE by its
 * before image, an UPDATE by both. For an UPDATE with before key {@code kb} and after key {@code
 * ka}: neither suppressed, forward the UPDATE; both suppressed, drop it; only the before image
 * suppressed (its chunk already lacks the old row) forward an INSERT of the after image; only the
 * after image suppressed (its chunk already holds the new row) forward a DELETE of the before
 * image. When {@code kb} equals {@code ka} both answers are equal. {@link GatedChange} applies this
 * rule to a row change.
 *
 * <p><b>Retiring.</b> Once the binlog's processed set contains the G of every chunk of a table, no
 * later transaction can be in any of them, so {@link #retire} drops that table: its changes are
 * then forwarded without a lookup and its chunk list leaves the state. A table that was never gated
 * is always forwarded. Immutable: {@link #retire} returns a new gate.
 */
@Internal
public final class CursorGate {
    private final Map<TableId, TableGate> tables;
    private final Map<TableId, KeyExtractor> extractors;

    /**
     * The checkpoint form, kept once written or read: the reader checkpoints the gate unchanged
     * until it retires a table, and at 10^6 chunks encoding takes seconds (docs/adr/0007).
     */
    private volatile byte[] stateBytes;

    CursorGate(Map<TableId, TableGate> tables) {
        this.tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        Map<TableId, KeyExtractor> ex = new HashMap<>();
        for (TableGate t : tables.values()) {
            ex.put(t.key().table(), KeyExtractor.of(t.key()));
        }
        this.extractors = ex;
    }

    /** A gate that forwards everything. */
    public static CursorGate empty() {
        return new CursorGate(Map.of());
    }

    /**
     * Builds the gate from every finished chunk of each table. The chunks of a table must cover its
     * whole key space exactly once (all its chunks finished), else IllegalArgumentException.
     */
    public static CursorGate of(Map<ChunkKey, ? extends Collection<FinishedChunk>> finished) {
        Map<TableId, TableGate> gates = new LinkedHashMap<>();
        for (Map.Entry<ChunkKey, ? extends Collection<FinishedChunk>> e : finished.entrySet()) {
            gates.put(e.getKey().table(), TableGate.of(e.getKey(), new ArrayList<>(e.getValue())));
        }
        return new CursorGate(gates);
    }

    /**
     * Where the binlog must start: the intersection of every chunk's G. Every transaction outside
     * it is missing from at least one chunk, so the stream must see it. Empty when there is no
     * chunk.
     */
    public static Optional<GtidSet> startPosition(Collection<GtidSet> chunkGtidSets) {
        GtidSet acc = null;
        for (GtidSet g : chunkGtidSets) {
            if (acc != null) {
                GtidModeChange.requireSameKind(acc, g, "a chunk's read view");
            }
            acc = acc == null ? g : acc.intersect(g);
        }
        return Optional.ofNullable(acc);
    }

    /** {@link #startPosition(Collection)} over the chunks still in this gate. */
    public Optional<GtidSet> startPosition() {
        List<GtidSet> all = new ArrayList<>();
        for (TableGate t : tables.values()) {
            all.addAll(new java.util.LinkedHashSet<>(t.gtidSets()));
        }
        return startPosition(all);
    }

    /** True when the change of {@code key} in {@code table} by {@code g} is already snapshotted. */
    public boolean suppress(TableId table, KeyTuple key, Gtid g) {
        TableGate t = tables.get(table);
        return t != null && t.suppress(key, g);
    }

    /**
     * {@link #suppress(TableId, KeyTuple, Gtid)} for a row image, its key extracted by the key
     * columns' positions (the image is a GenericRowData from the table's RowConverter).
     */
    public boolean suppress(TableId table, RowData image, Gtid g) {
        TableGate t = tables.get(table);
        return t != null && t.suppress(extractors.get(table).extract(image), g);
    }

    /**
     * The tables whose snapshot was in progress when transaction {@code g} committed: some of their
     * chunks were read before {@code g} (their G lacks it) and some after (their G holds it). A DDL
     * in {@code g} on one of these tables means their chunks do not share one schema: pass this set
     * to {@code SnapshotDdlGuard.check} for every DDL query event of the binlog.
     */
    public Set<TableId> tablesInProgressAt(Gtid g) {
        Set<TableId> out = new TreeSet<>();
        for (Map.Entry<TableId, TableGate> e : tables.entrySet()) {
            if (e.getValue().straddles(g)) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    /**
     * True when every chunk of {@code table} was read after transaction {@code g} (each chunk's G
     * holds it): the snapshot already shows what {@code g} did to the table.
     */
    public boolean snapshotHolds(TableId table, Gtid g) {
        TableGate t = tables.get(table);
        return t != null && t.gtidSets().stream().allMatch(s -> s.contains(g));
    }

    /**
     * The key of a table while it is gated: if {@link ChunkKey#needsWeights()}, its changes need
     * {@link GateKeys} to pass the gate.
     */
    public Optional<ChunkKey> key(TableId table) {
        TableGate t = tables.get(table);
        return t == null ? Optional.empty() : Optional.of(t.key());
    }

    /** True while changes of the table are gated (not yet retired, and snapshotted at all). */
    public boolean isGated(TableId table) {
        return tables.containsKey(table);
    }

    /**
     * The gate without the tables whose every chunk G is contained in {@code processed}; returns
     * {@code this} when none retires.
     */
    public CursorGate retire(GtidSet processed) {
        Map<TableId, TableGate> kept = new LinkedHashMap<>();
        for (Map.Entry<TableId, TableGate> e : tables.entrySet()) {
            if (!processed.containsAll(e.getValue().union())) {
                kept.put(e.getKey(), e.getValue());
            }
        }
        return kept.size() == tables.size() ? this : new CursorGate(kept);
    }

    /**
     * The gate without {@code dropped}'s entries (tables no longer captured); returns {@code this}
     * when none of them is gated.
     */
    public CursorGate without(Collection<TableId> dropped) {
        Map<TableId, TableGate> kept = new LinkedHashMap<>(tables);
        kept.keySet().removeAll(dropped);
        return kept.size() == tables.size() ? this : new CursorGate(kept);
    }

    /**
     * This gate and {@code added}'s entries (tables joining a streaming split with their finished
     * chunks); a table may be gated by one of them only.
     */
    public CursorGate with(CursorGate added) {
        if (added.tables.isEmpty()) {
            return this;
        }
        Map<TableId, TableGate> all = new LinkedHashMap<>(tables);
        for (Map.Entry<TableId, TableGate> e : added.tables.entrySet()) {
            if (all.putIfAbsent(e.getKey(), e.getValue()) != null) {
                throw new IllegalArgumentException("table " + e.getKey() + " is gated already");
            }
        }
        return new CursorGate(all);
    }

    public Set<TableId> gatedTables() {
        return Collections.unmodifiableSet(new TreeSet<>(tables.keySet()));
    }

    /** How many chunk boundaries the gate holds (its size in state is about proportional). */
    public int chunkCount() {
        int n = 0;
        for (TableGate t : tables.values()) {
            n += t.chunkCount();
        }
        return n;
    }

    Map<TableId, TableGate> tableGates() {
        return tables;
    }

    /** The bytes this gate was encoded to or read from in the current format, if any. */
    byte[] stateBytes() {
        return stateBytes;
    }

    void rememberStateBytes(byte[] bytes) {
        this.stateBytes = bytes;
    }

    @Override
    public String toString() {
        return "CursorGate{tables=" + tables.size() + ", chunks=" + chunkCount() + "}";
    }
}

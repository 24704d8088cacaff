package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.annotation.Internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The enumerator's record of the snapshot: the tables and their chunk keys, how far planning got
 * per table, the planned chunks not yet handed out, and the completion (G, row count) of every
 * finished chunk, by table and chunk index. Pure and single-threaded (the coordinator thread).
 *
 * <p>A completion for a chunk already recorded replaces it: the same chunk completes twice only
 * when its first read was rolled back (its reader restored a checkpoint from before it) and it was
 * read again at a new G, and only the new read's rows reached the output. Resent completions of the
 * same read are equal, so they are counted once.
 */
@Internal
public final class SnapshotBook {

    private final Map<TableId, SnapshotTable> tables = new LinkedHashMap<>();
    private final Map<String, TableId> tablesByName = new LinkedHashMap<>();
    private final Map<TableId, ChunkPlannerState> planning = new LinkedHashMap<>();
    private final Deque<SnapshotChunkSplit> pending = new ArrayDeque<>();
    private final Map<TableId, TreeMap<Integer, Finished>> finished = new LinkedHashMap<>();
    private int finishedCount;

    /** The rows of every finished chunk, kept as completions come and go (read per completion). */
    private long finishedRows;

    /** A finished chunk: its range and completion. */
    public record Finished(SnapshotChunk chunk, ChunkCompletion completion) {}

    public SnapshotBook(List<SnapshotTable> snapshotTables) {
        for (SnapshotTable t : snapshotTables) {
            ChunkKey k = t.key();
            tables.put(k.table(), t);
            tablesByName.put(k.table().toString(), k.table());
            planning.put(k.table(), ChunkPlannerState.start(k.table()));
            finished.put(k.table(), new TreeMap<>());
        }
    }

    // ---- planning ----

    public List<ChunkKey> keys() {
        List<ChunkKey> out = new ArrayList<>();
        tables.values().forEach(t -> out.add(t.key()));
        return out;
    }

    public List<SnapshotTable> tables() {
        return new ArrayList<>(tables.values());
    }

    public List<ChunkPlannerState> plannerStates() {
        return new ArrayList<>(planning.values());
    }

    /** Installs planning progress (from the planning task or a restore). */
    public void planned(Collection<SnapshotChunk> chunks, Collection<ChunkPlannerState> states) {
        for (ChunkPlannerState s : states) {
            if (!planning.containsKey(s.table())) {
                throw new IllegalArgumentException(
                        "planner state of a table not snapshotted: " + s.table());
            }
            planning.put(s.table(), s);
        }
        for (SnapshotChunk c : chunks) {
            SnapshotTable t = tables.get(c.table());
            pending.addLast(SnapshotChunkSplit.unread(t.key(), c, t.schemaFingerprint()));
        }
    }

    public boolean planningFinished() {
        return planning.values().stream().allMatch(ChunkPlannerState::isFinished);
    }

    // ---- assignment ----

    public int pendingCount() {
        return pending.size();
    }

    public List<SnapshotChunkSplit> pending() {
        return new ArrayList<>(pending);
    }

    public Optional<SnapshotChunkSplit> takePending() {
        return Optional.ofNullable(pending.pollFirst());
    }

    /**
     * A chunk came back from a failed reader (assigned after its last checkpoint): it is read
     * again, and whatever completion arrived for it is void.
     */
    public void addBack(SnapshotChunkSplit split) {
        dropCompletion(split.splitId());
        pending.addFirst(split.unread());
    }

    // ---- completions ----

    /**
     * Records a completion; returns true when the book changed (a new chunk, or a re-read one).
     *
     * @throws IllegalArgumentException for a split without completion or of an unknown table
     */
    public boolean complete(SnapshotChunkSplit split) {
        ChunkCompletion c = split.completion();
        if (c == null) {
            throw new IllegalArgumentException("chunk " + split.splitId() + " has no completion");
        }
        TreeMap<Integer, Finished> t = finished.get(split.chunk().table());
        if (t == null) {
            throw new IllegalArgumentException(
                    "completion of a table not snapshotted: " + split.splitId());
        }
        Finished previous = t.put(split.chunk().index(), new Finished(split.chunk(), c));
        finishedRows += c.rowCount() - (previous == null ? 0 : previous.completion.rowCount());
        if (previous == null) {
            finishedCount++;
            return true;
        }
        return !previous.completion.equals(c);
    }

    /** Drops the completion of a chunk that its reader will read again; true when one was held. */
    public boolean dropCompletion(String splitId) {
        int hash = splitId.lastIndexOf('#');
        if (hash < 0) {
            return false;
        }
        TableId table = tablesByName.get(splitId.substring(0, hash));
        if (table == null) {
            return false;
        }
        int index;
        try {
            index = Integer.parseInt(splitId.substring(hash + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        Finished removed = finished.get(table).remove(index);
        if (removed != null) {
            finishedCount--;
            finishedRows -= removed.completion.rowCount();
            return true;
        }
        return false;
    }

    public int finishedCount() {
        return finishedCount;
    }

    /**
     * One table's chunks for the enumerator's metrics: planned so far (every chunk once {@code
     * planningFinished}), planned but not handed out, and finished.
     */
    public record TableChunkCounts(
            TableId table, int planned, int pending, int finished, boolean planningFinished) {}

    /** The chunk counts of every table, in table order. */
    public List<TableChunkCounts> chunkCounts() {
        Map<TableId, Integer> pendingByTable = new HashMap<>();
        for (SnapshotChunkSplit s : pending) {
            pendingByTable.merge(s.chunk().table(), 1, Integer::sum);
        }
        List<TableChunkCounts> out = new ArrayList<>(planning.size());
        planning.forEach(
                (t, state) ->
                        out.add(
                                new TableChunkCounts(
                                        t,
                                        state.nextIndex(),
                                        pendingByTable.getOrDefault(t, 0),
                                        finished.get(t).size(),
                                        state.isFinished())));
        return out;
    }

    /** Every finished chunk, table by table in index order. */
    public Map<TableId, List<Finished>> finished() {
        Map<TableId, List<Finished>> out = new LinkedHashMap<>();
        finished.forEach((t, m) -> out.put(t, new ArrayList<>(m.values())));
        return out;
    }

    /** Every chunk of every table is planned, handed out, read and recorded. */
    public boolean allFinished() {
        if (!planningFinished() || !pending.isEmpty()) {
            return false;
        }
        for (Map.Entry<TableId, ChunkPlannerState> e : planning.entrySet()) {
            if (finished.get(e.getKey()).size() != e.getValue().nextIndex()) {
                return false;
            }
        }
        return true;
    }

    /** The gate over every finished chunk (all must be finished). */
    public CursorGate gate() {
        requireAllFinished();
        Map<ChunkKey, List<FinishedChunk>> byKey = new LinkedHashMap<>();
        finished.forEach(
                (t, m) -> {
                    List<FinishedChunk> list = new ArrayList<>(m.size());
                    for (Finished f : m.values()) {
                        list.add(new FinishedChunk(f.chunk.range(), f.completion.gtidSet()));
                    }
                    byKey.put(tables.get(t).key(), list);
                });
        return CursorGate.of(byKey);
    }

    /** Where the binlog starts: the intersection of every chunk's G. */
    public GtidSet binlogStart() {
        requireAllFinished();
        List<GtidSet> all = new ArrayList<>();
        finished.values().forEach(m -> m.values().forEach(f -> all.add(f.completion.gtidSet())));
        return CursorGate.startPosition(all).orElseThrow();
    }

    /** The intersection of the G of the chunks finished so far; empty before the first. */
    public Optional<GtidSet> startSoFar() {
        List<GtidSet> all = new ArrayList<>();
        finished.values().forEach(m -> m.values().forEach(f -> all.add(f.completion.gtidSet())));
        return CursorGate.startPosition(new java.util.LinkedHashSet<>(all));
    }

    /** Rows emitted by all finished chunks. */
    public long rowCount() {
        return finishedRows;
    }

    private void requireAllFinished() {
        if (!allFinished()) {
            throw new IllegalStateException("the snapshot is not finished");
        }
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The snapshot part of the enumerator's checkpoint: a copy of the {@link SnapshotBook} plus the
 * handoff bookkeeping (the last checkpoint the enumerator took, and the checkpoint after which the
 * latest completion was recorded). Immutable. Its size grows with finished chunks only; planning
 * progress is a few dozen bytes per table, and at most a few planned chunks wait per reader.
 */
public final class SnapshotProgress {

    private final List<SnapshotTable> tables;
    private final List<ChunkPlannerState> plannerStates;
    private final List<SnapshotChunkSplit> pending;
    private final Map<TableId, List<SnapshotBook.Finished>> finished;
    private final long lastSnapshotCheckpoint;
    private final long completionsAfterCheckpoint;

    public SnapshotProgress(
            List<SnapshotTable> tables,
            List<ChunkPlannerState> plannerStates,
            List<SnapshotChunkSplit> pending,
            Map<TableId, List<SnapshotBook.Finished>> finished,
            long lastSnapshotCheckpoint,
            long completionsAfterCheckpoint) {
        this.tables = List.copyOf(tables);
        this.plannerStates = List.copyOf(plannerStates);
        this.pending = List.copyOf(pending);
        this.finished = new LinkedHashMap<>(finished);
        this.lastSnapshotCheckpoint = lastSnapshotCheckpoint;
        this.completionsAfterCheckpoint = completionsAfterCheckpoint;
    }

    static SnapshotProgress of(SnapshotBook book, long lastSnapshotCheckpoint, long completionsAfter) {
        return new SnapshotProgress(
                book.tables(), book.plannerStates(), book.pending(), book.finished(),
                lastSnapshotCheckpoint, completionsAfter);
    }

    /** A book holding exactly this progress. */
    SnapshotBook toBook() {
        SnapshotBook book = new SnapshotBook(tables);
        book.planned(List.of(), plannerStates);
        for (SnapshotChunkSplit s : pending) {
            book.planned(List.of(s.chunk()), List.of());
        }
        for (List<SnapshotBook.Finished> list : finished.values()) {
            for (SnapshotBook.Finished f : list) {
                SnapshotTable t = tableOf(f.chunk().table());
                book.complete(SnapshotChunkSplit.unread(t.key(), f.chunk(), t.schemaFingerprint())
                        .withCompletion(f.completion()));
            }
        }
        return book;
    }

    private SnapshotTable tableOf(TableId id) {
        for (SnapshotTable t : tables) {
            if (t.key().table().equals(id)) {
                return t;
            }
        }
        throw new IllegalStateException("no key for table " + id);
    }

    public List<SnapshotTable> tables() {
        return tables;
    }

    public List<ChunkPlannerState> plannerStates() {
        return plannerStates;
    }

    public List<SnapshotChunkSplit> pending() {
        return pending;
    }

    public Map<TableId, List<SnapshotBook.Finished>> finished() {
        return finished;
    }

    public int finishedCount() {
        int n = 0;
        for (List<SnapshotBook.Finished> l : finished.values()) {
            n += l.size();
        }
        return n;
    }

    public long lastSnapshotCheckpoint() {
        return lastSnapshotCheckpoint;
    }

    public long completionsAfterCheckpoint() {
        return completionsAfterCheckpoint;
    }

    /** Structural comparison for tests (chunks by id, range and completion). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SnapshotProgress)) {
            return false;
        }
        SnapshotProgress p = (SnapshotProgress) o;
        return tables.equals(p.tables)
                && plannerStates.equals(p.plannerStates)
                && pending.equals(p.pending)
                && flat(finished).equals(flat(p.finished))
                && lastSnapshotCheckpoint == p.lastSnapshotCheckpoint
                && completionsAfterCheckpoint == p.completionsAfterCheckpoint;
    }

    private static List<Object> flat(Map<TableId, List<SnapshotBook.Finished>> m) {
        List<Object> out = new ArrayList<>();
        m.forEach((t, l) -> l.forEach(f -> {
            out.add(f.chunk());
            out.add(f.completion());
        }));
        return out;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tables, plannerStates, pending.size(), lastSnapshotCheckpoint);
    }

    @Override
    public String toString() {
        return "SnapshotProgress{tables=" + tables.size() + ", pending=" + pending.size()
                + ", finished=" + finishedCount() + ", lastSnapshotCheckpoint="
                + lastSnapshotCheckpoint + ", completionsAfterCheckpoint="
                + completionsAfterCheckpoint + "}";
    }
}

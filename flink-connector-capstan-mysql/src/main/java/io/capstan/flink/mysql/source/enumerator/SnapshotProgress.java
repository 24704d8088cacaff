package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.annotation.Internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The snapshot part of the enumerator's checkpoint: a copy of the {@link SnapshotBook} plus the
 * handoff bookkeeping (the last checkpoint the enumerator took, and the checkpoint after which the
 * latest completion was recorded; empty when none had been taken). Immutable. Its size grows with
 * finished chunks only; planning progress is a few dozen bytes per table, and at most a few planned
 * chunks wait per reader.
 */
@Internal
public record SnapshotProgress(
        List<SnapshotTable> tables,
        List<ChunkPlannerState> plannerStates,
        List<SnapshotChunkSplit> pending,
        Map<TableId, List<SnapshotBook.Finished>> finished,
        OptionalLong lastCheckpointTaken,
        OptionalLong latestCompletionAfter) {

    /** What the checkpoint format stores for "no checkpoint" (ids are positive). */
    static final long NO_CHECKPOINT = -1;

    public SnapshotProgress {
        tables = List.copyOf(tables);
        plannerStates = List.copyOf(plannerStates);
        pending = List.copyOf(pending);
        finished = Collections.unmodifiableMap(new LinkedHashMap<>(finished));
    }

    /** With the checkpoint ids as the checkpoint format stores them ({@code -1}: none). */
    public SnapshotProgress(
            List<SnapshotTable> tables,
            List<ChunkPlannerState> plannerStates,
            List<SnapshotChunkSplit> pending,
            Map<TableId, List<SnapshotBook.Finished>> finished,
            long lastCheckpointTaken,
            long latestCompletionAfter) {
        this(
                tables,
                plannerStates,
                pending,
                finished,
                fromStored(lastCheckpointTaken),
                fromStored(latestCompletionAfter));
    }

    static SnapshotProgress of(
            SnapshotBook book,
            OptionalLong lastCheckpointTaken,
            OptionalLong latestCompletionAfter) {
        return new SnapshotProgress(
                book.tables(),
                book.plannerStates(),
                book.pending(),
                book.finished(),
                lastCheckpointTaken,
                latestCompletionAfter);
    }

    private static OptionalLong fromStored(long checkpointId) {
        return checkpointId < 0 ? OptionalLong.empty() : OptionalLong.of(checkpointId);
    }

    static long toStored(OptionalLong checkpointId) {
        return checkpointId.orElse(NO_CHECKPOINT);
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
                book.complete(
                        SnapshotChunkSplit.unread(t.key(), f.chunk(), t.schemaFingerprint())
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

    public int finishedCount() {
        int n = 0;
        for (List<SnapshotBook.Finished> l : finished.values()) {
            n += l.size();
        }
        return n;
    }

    /** Counts and checkpoint ids only: chunk ranges hold key values. */
    @Override
    public String toString() {
        return "SnapshotProgress{tables="
                + tables.size()
                + ", pending="
                + pending.size()
                + ", finished="
                + finishedCount()
                + ", lastCheckpointTaken="
                + lastCheckpointTaken
                + ", latestCompletionAfter="
                + latestCompletionAfter
                + "}";
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * What every {@link EnumeratorState} reads and changes besides its own data: what follows the
 * snapshot, the handoff checkpoints, the captured tables, the readers' last report on checkpointing
 * and which readers may read chunks. Owned by the {@link SplitAssignmentTracker}; single-threaded.
 */
final class AssignmentContext {

    private final AfterSnapshot afterSnapshot;
    private HandoffCheckpoints checkpoints = HandoffCheckpoints.none();

    /** The tables the job captures, once known; checkpointed for the restore check. */
    private List<TableId> capturedTables = List.of();

    private boolean readersCheckpoint = true;
    private boolean readersUnaligned;

    /** Which subtasks read chunks (scan.snapshot.max-concurrent-chunk-reads); others wait. */
    private IntPredicate readsChunks = subtask -> true;

    AssignmentContext(AfterSnapshot afterSnapshot) {
        this.afterSnapshot = afterSnapshot;
    }

    AfterSnapshot afterSnapshot() {
        return afterSnapshot;
    }

    HandoffCheckpoints checkpoints() {
        return checkpoints;
    }

    /** A new book gets checkpoints of its own (restored with it, or none for new tables). */
    void useCheckpoints(HandoffCheckpoints checkpoints) {
        this.checkpoints = checkpoints;
    }

    List<TableId> capturedTables() {
        return capturedTables;
    }

    void captureOnly(List<TableId> tables) {
        capturedTables = List.copyOf(tables);
    }

    void capture(Collection<TableId> more) {
        Set<TableId> all = new LinkedHashSet<>(capturedTables);
        all.addAll(more);
        capturedTables = List.copyOf(all);
    }

    void stopCapturing(Collection<TableId> removed) {
        Set<TableId> kept = new LinkedHashSet<>(capturedTables);
        kept.removeAll(removed);
        capturedTables = List.copyOf(kept);
    }

    /** What readers see of checkpointing; unaligned may halt ({@link HandoffCheckpoints}). */
    void readersReported(
            boolean enabled, boolean unaligned, boolean handoffAhead, int parallelism) {
        readersCheckpoint = enabled;
        readersUnaligned = unaligned;
        checkpoints.readersReported(enabled, unaligned, handoffAhead, parallelism);
    }

    /** A handoff is ahead again (tables are added): the readers' last report is checked again. */
    void handoffAhead(int parallelism) {
        checkpoints.readersReported(readersCheckpoint, readersUnaligned, true, parallelism);
    }

    void limitChunkReaders(IntPredicate readsChunks) {
        this.readsChunks = readsChunks;
    }

    /** A pending chunk of {@code book} for {@code subtask}, if it reads chunks. */
    Optional<SnapshotChunkSplit> takePendingFor(SnapshotBook book, int subtask) {
        return readsChunks.test(subtask) ? book.takePending() : Optional.empty();
    }
}

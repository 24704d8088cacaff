package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Where the enumerator is, with the data of that place: each kind of state owns what exists only
 * there (the book of chunks, the binlog split not yet handed out, the table addition), and each
 * event is a method returning the next state. An event a state does not expect fails loudly ({@link
 * IllegalStateException}): it would be a wiring error, never bad input.
 *
 * <ol>
 *   <li>{@link ResolvingTables} → {@link Snapshotting} (the snapshot modes);
 *   <li>{@link PreparingBinlogSplit} → {@link BinlogSplitReady} (the stream-only modes);
 *   <li>{@link Snapshotting} → {@link Streaming} once the handoff is allowed ({@code initial}), or
 *       ends in {@link EnumeratorPhase#FINISHED} ({@code snapshot});
 *   <li>{@link BinlogSplitReady} → {@link Streaming} when a reader asks;
 *   <li>{@link Streaming} ↔ {@link AddingTables} after a restore whose table list selects new
 *       tables;
 *   <li>a binlog split returned by a failed reader leads back to {@link Snapshotting} while the
 *       book is kept, else to {@link BinlogSplitReady}.
 * </ol>
 *
 * <p>The {@link EnumeratorPhase} each state reports is what metrics, logs and the enumerator's I/O
 * read; {@link Snapshotting} derives its phase from its book.
 */
sealed interface EnumeratorState
        permits ResolvingTables,
                PreparingBinlogSplit,
                BinlogSplitReady,
                Snapshotting,
                Streaming,
                AddingTables {

    EnumeratorPhase phase();

    /** The chunks this state keeps: planned, handed out and finished. */
    default Optional<SnapshotBook> book() {
        return Optional.empty();
    }

    /** The binlog split planned but not yet handed out (checkpointed as such). */
    default Optional<BinlogSplit> pendingBinlogSplit() {
        return Optional.empty();
    }

    /** Where the next binlog read will start, as far as known ({@link HandoffStartWatch}). */
    default Optional<GtidSet> handoffStartSoFar() {
        return Optional.empty();
    }

    /** The reply to {@code subtask}'s request; empty when it must wait. */
    Transition<Optional<SplitReply>> answer(int subtask, int parallelism, AssignmentContext ctx);

    default EnumeratorState tablesResolved(List<SnapshotTable> tables, AssignmentContext ctx) {
        throw illegal("tables resolved");
    }

    default EnumeratorState binlogSplitPrepared(BinlogSplit split, AssignmentContext ctx) {
        throw illegal("binlog split prepared");
    }

    /** A failed reader's binlog split came back: only a split that went out can. */
    default EnumeratorState binlogSplitReturned(BinlogSplit split, AssignmentContext ctx) {
        throw illegal("binlog split returned");
    }

    /** Chunks completed; the book already holds them. */
    default void chunksCompleted() {}

    /**
     * The restore handshake of the reader holding the binlog split (already without the {@code
     * removed} tables in {@code ctx}); see {@link SplitAssignmentTracker#restoredSplitChecked}.
     */
    default Transition<HandshakeAnswer> restoredSplitChecked(
            int subtask,
            List<TableId> inSplit,
            Set<TableId> removed,
            List<SnapshotTable> added,
            int parallelism,
            AssignmentContext ctx) {
        throw illegal("binlog split handshake");
    }

    default EnumeratorState binlogPaused(int subtask, GtidSet p) {
        throw unaskedPause(subtask, "");
    }

    /**
     * Only the holder pauses, once asked; a pause from elsewhere would leave a split held that
     * nobody resumes.
     */
    default IllegalStateException unaskedPause(int subtask, String holder) {
        return new IllegalStateException(
                "subtask "
                        + subtask
                        + " paused its binlog split, which it was not asked to (phase "
                        + phase()
                        + holder
                        + ")");
    }

    default EnumeratorState readerRegistered(int subtask) {
        return this;
    }

    /** The split the held binlog split goes on with, once the table addition may end. */
    default Transition<Optional<AddedToSplit>> resumeIfReady(
            IntPredicate registered, int parallelism, AssignmentContext ctx) {
        return Transition.stay(this, Optional.empty());
    }

    /**
     * Checkpoint {@code checkpointId} completed; true when it newly confirms the handoff (waiting
     * readers may be served).
     */
    default Transition<Boolean> checkpointCompleted(long checkpointId, AssignmentContext ctx) {
        Optional<SnapshotBook> book = book();
        return Transition.stay(
                this,
                book.isPresent()
                        && ctx.checkpoints()
                                .checkpointCompleted(checkpointId, book.get().allFinished()));
    }

    default IllegalStateException illegal(String event) {
        return new IllegalStateException(event + " in phase " + phase());
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A reader holds the binlog split; every other reader is told no more splits.
 *
 * @param keptBook the finished chunks, kept until a checkpoint that follows the split's assignment
 *     completes: until then a restore may bring the split back, and it must be rebuilt from them
 * @param assignedAfter the mark taken when the split went out ({@link HandoffCheckpoints})
 * @param awaitingHandshake restored with the split in a reader's state: requests wait for its
 *     restore handshake, which may lead to {@link AddingTables}
 */
record Streaming(
        @Nullable SnapshotBook keptBook, OptionalLong assignedAfter, boolean awaitingHandshake)
        implements EnumeratorState {

    private static final Logger LOG = LoggerFactory.getLogger(Streaming.class);

    /** The split just went out; {@code keptBook} the chunks it was built from, if any. */
    static Streaming assigned(@Nullable SnapshotBook keptBook, AssignmentContext ctx) {
        return new Streaming(keptBook, ctx.checkpoints().lastTaken(), false);
    }

    /** Restored with the split in a reader's state. */
    static Streaming restored() {
        return new Streaming(null, OptionalLong.empty(), true);
    }

    @Override
    public EnumeratorPhase phase() {
        return EnumeratorPhase.STREAMING;
    }

    @Override
    public Optional<SnapshotBook> book() {
        return Optional.ofNullable(keptBook);
    }

    @Override
    public Transition<Optional<SplitReply>> answer(
            int subtask, int parallelism, AssignmentContext ctx) {
        if (awaitingHandshake) {
            return Transition.stay(this, Optional.empty()); // tables may be added: chunks may come
        }
        // The one binlog split is out: this reader will never get a split.
        return Transition.stay(this, Optional.of(new SplitReply.NoMoreSplits(subtask)));
    }

    @Override
    public Transition<HandshakeAnswer> restoredSplitChecked(
            int subtask,
            List<TableId> inSplit,
            Set<TableId> removed,
            List<SnapshotTable> added,
            int parallelism,
            AssignmentContext ctx) {
        Set<TableId> addedIds = TableAdditionStart.idsOf(added);
        if (keptBook != null && !inSplit.isEmpty()) {
            // The book of an addition that ended before the restore; STREAMING drops it after the
            // next checkpoint, as it would have.
            Streaming held = new Streaming(keptBook, assignedAfter, false);
            return TableAdditionStart.withBook(
                    keptBook, () -> held, subtask, inSplit, removed, addedIds, parallelism, ctx);
        }
        if (added.isEmpty()) {
            return new Transition<>(
                    new Streaming(keptBook, assignedAfter, false),
                    new HandshakeAnswer.Resume(removed));
        }
        ctx.useCheckpoints(HandoffCheckpoints.none());
        return new Transition<>(
                TableAdditionStart.start(
                        subtask, List.copyOf(addedIds), new SnapshotBook(added), parallelism, ctx),
                new HandshakeAnswer.Pause(removed));
    }

    /**
     * A failed reader's split came back. While the book is kept, the split is rebuilt from it (a
     * reader restore may re-read chunks, and the gate must hold the G of the read that counts).
     */
    @Override
    public EnumeratorState binlogSplitReturned(BinlogSplit split, AssignmentContext ctx) {
        return keptBook == null
                ? new BinlogSplitReady(split)
                : new Snapshotting(keptBook, ctx.afterSnapshot());
    }

    /** A checkpoint that follows the split's assignment drops the kept book. */
    @Override
    public Transition<Boolean> checkpointCompleted(long checkpointId, AssignmentContext ctx) {
        if (keptBook != null && HandoffCheckpoints.follows(checkpointId, assignedAfter)) {
            LOG.info(
                    "Binlog split checkpointed by its reader; dropping {} finished chunks from the"
                            + " enumerator state",
                    keptBook.finishedCount());
            return new Transition<>(new Streaming(null, assignedAfter, awaitingHandshake), false);
        }
        return EnumeratorState.super.checkpointCompleted(checkpointId, ctx);
    }
}

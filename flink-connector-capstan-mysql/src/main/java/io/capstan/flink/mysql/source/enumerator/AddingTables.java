package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * A restored job snapshots tables added to its list: the reader holding the binlog split pauses it
 * at a transaction boundary P, the added tables' chunks go to any reader that asks, and once every
 * chunk is finished and the handoff's checkpoint rule allows it, the split resumes from P with the
 * added tables and their finished chunks in its gate ({@link TableAddition}).
 *
 * @param chunks the added tables' chunks
 * @param addition the holder and P; null until the holder's handshake named it, and again when the
 *     holder restarted (its new handshake starts the addition anew)
 * @param awaitingHandshake restored in the middle of an addition: requests wait for the holder's
 *     restore handshake
 */
record AddingTables(
        SnapshotBook chunks, @Nullable TableAddition addition, boolean awaitingHandshake)
        implements EnumeratorState {

    private static final Logger LOG = LoggerFactory.getLogger(AddingTables.class);

    AddingTables {
        Objects.requireNonNull(chunks, "chunks");
    }

    /** Restored in the middle of an addition: its progress is in {@code chunks}. */
    static AddingTables restored(SnapshotBook chunks) {
        return new AddingTables(chunks, null, true);
    }

    @Override
    public EnumeratorPhase phase() {
        return EnumeratorPhase.ADDING_TABLES;
    }

    @Override
    public Optional<SnapshotBook> book() {
        return Optional.of(chunks);
    }

    /** The held split resumes from P: the binlog from P on must stay on the server. */
    @Override
    public Optional<GtidSet> handoffStartSoFar() {
        return addition == null ? Optional.empty() : addition.pausedAt();
    }

    @Override
    public Transition<Optional<SplitReply>> answer(
            int subtask, int parallelism, AssignmentContext ctx) {
        if (awaitingHandshake) {
            return Transition.stay(this, Optional.empty());
        }
        return Transition.stay(
                this,
                ctx.takePendingFor(chunks, subtask).map(c -> new SplitReply.Assign(subtask, c)));
    }

    @Override
    public Transition<HandshakeAnswer> restoredSplitChecked(
            int subtask,
            List<TableId> inSplit,
            Set<TableId> removed,
            List<SnapshotTable> added,
            int parallelism,
            AssignmentContext ctx) {
        return TableAdditionStart.withBook(
                chunks,
                () -> {
                    LOG.info("The binlog split already holds the added tables: streaming");
                    return new Streaming(null, OptionalLong.empty(), false);
                },
                subtask,
                inSplit,
                removed,
                TableAdditionStart.idsOf(added),
                parallelism,
                ctx);
    }

    @Override
    public EnumeratorState binlogPaused(int subtask, GtidSet p) {
        if (addition == null || addition.holder() != subtask) {
            throw unaskedPause(
                    subtask,
                    addition == null ? "" : ", split held by subtask " + addition.holder());
        }
        addition.paused(p, chunks.startSoFar());
        LOG.info(
                "Binlog split paused at {} while {} table(s) are added",
                p,
                addition.tables().size());
        return this;
    }

    /**
     * The holder of a paused split restarted: its split is restored from a checkpoint, not at P, so
     * the pause heard from its predecessor is void (a resume sent now would reach a split not at
     * P).
     */
    @Override
    public EnumeratorState readerRegistered(int subtask) {
        if (addition == null || addition.holder() != subtask) {
            return this;
        }
        LOG.info(
                "Subtask {} holding the paused binlog split restarted: the addition waits for its"
                        + " handshake",
                subtask);
        return new AddingTables(chunks, null, awaitingHandshake);
    }

    /**
     * {@code registered} tells whether the holder is up: a failed one is answered after restore.
     */
    @Override
    public Transition<Optional<AddedToSplit>> resumeIfReady(
            IntPredicate registered, int parallelism, AssignmentContext ctx) {
        if (addition == null || !registered.test(addition.holder())) {
            return Transition.stay(this, Optional.empty());
        }
        Optional<BinlogSplit> added =
                addition.resumeWith(chunks, ctx.checkpoints().handoffAllowed(parallelism));
        if (added.isEmpty()) {
            return Transition.stay(this, Optional.empty());
        }
        ctx.capture(addition.tables());
        LOG.info(
                "Added tables snapshotted: {} chunks, {} rows; the binlog split resumes with them",
                chunks.finishedCount(),
                chunks.rowCount());
        // the book goes after a checkpoint that follows the resume
        return new Transition<>(
                Streaming.assigned(chunks, ctx),
                Optional.of(new AddedToSplit(addition.holder(), added.get())));
    }

    @Override
    public void chunksCompleted() {
        if (addition != null) {
            chunks.startSoFar().ifPresent(addition::requireChunksHoldPause);
        }
    }
}

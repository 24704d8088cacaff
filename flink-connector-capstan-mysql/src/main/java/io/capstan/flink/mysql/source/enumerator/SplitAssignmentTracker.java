package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The enumerator's rules without Flink: it holds the {@link EnumeratorState} and dispatches each
 * event to it (which waiting request gets a chunk, the binlog split, "no more splits" or must wait;
 * completions, reopened and returned splits; the restore handshake and table additions), and keeps
 * what every state shares ({@link AssignmentContext}), the waiting readers and whether planning
 * runs. {@link CapstanEnumerator} runs the I/O and carries out the replies. Single-threaded (the
 * coordinator thread).
 */
final class SplitAssignmentTracker {

    private static final Logger LOG = LoggerFactory.getLogger(SplitAssignmentTracker.class);

    /** Planned chunks kept waiting per reader, so that a request is answered without JDBC. */
    static final int CHUNKS_AHEAD_PER_READER = 2;

    /** Input for planning more chunks (immutable, so it may run off the coordinator thread). */
    record PlanRequest(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) {}

    private final AssignmentContext ctx;
    private EnumeratorState state;

    /** Restored with captured tables: they are checked against the configured list at start. */
    private final boolean restored;

    private boolean planningInFlight;

    /** Readers that asked and have no answer yet, in order of asking. */
    private final Set<Integer> waiting = new LinkedHashSet<>();

    private SplitAssignmentTracker(AssignmentContext ctx, EnumeratorState state, boolean restored) {
        this.ctx = ctx;
        this.state = state;
        this.restored = restored;
    }

    /**
     * The tracker of a new job ({@link EnumState#initial()}) or a restored one. A restored job
     * resumes as its state says, whatever start mode is configured now; the mode decides only how a
     * new job starts and whether a snapshot is followed by streaming.
     */
    static SplitAssignmentTracker restore(StartupMode mode, EnumState saved) {
        AssignmentContext ctx =
                new AssignmentContext(mode.isBounded() ? AfterSnapshot.END : AfterSnapshot.STREAM);
        EnumeratorState state;
        SnapshotProgress progress = saved.snapshot();
        if (saved.addingTables()) {
            // Tables were being added: the holder's handshake says whether the resume is in its
            // split (then STREAMING) or the addition continues from this progress.
            state = AddingTables.restored(restoreBook(progress, ctx));
        } else if (saved.binlogSplitAssigned()) {
            state = Streaming.restored(); // the split (with its gate) is in a reader's state
        } else if (progress != null) {
            state = new Snapshotting(restoreBook(progress, ctx), ctx.afterSnapshot());
        } else if (saved.unassignedBinlogSplit() != null) {
            // Planned before the restore: its preflight runs again before it goes out.
            state = new PreparingBinlogSplit(saved.unassignedBinlogSplit());
        } else if (mode.readsSnapshot()) {
            state = new ResolvingTables();
        } else {
            state = new PreparingBinlogSplit(null);
        }
        ctx.captureOnly(saved.knownTables());
        return new SplitAssignmentTracker(ctx, state, !saved.knownTables().isEmpty());
    }

    private static SnapshotBook restoreBook(SnapshotProgress progress, AssignmentContext ctx) {
        SnapshotBook book = progress.toBook();
        ctx.useCheckpoints(
                HandoffCheckpoints.restored(
                        progress.lastCheckpointTaken(),
                        progress.latestCompletionAfter(),
                        book.allFinished()));
        return book;
    }

    EnumeratorPhase phase() {
        return state.phase();
    }

    /**
     * While the snapshot of an {@code initial} job runs, the intersection of the G of the chunks
     * finished so far; while tables are added, P: where the next binlog read will start ({@link
     * HandoffStartWatch}).
     */
    Optional<GtidSet> handoffStartSoFar() {
        return state.handoffStartSoFar();
    }

    /**
     * The tables of the restored state, to check against the configured list before anything is
     * read; empty for a new job, or when the state does not name them, and while STREAMING: the
     * binlog split's own table list is then the truth (tables may join it as they are created), and
     * its reader's restore handshake checks that list instead ({@link #restoredSplitChecked}).
     */
    Optional<List<TableId>> restoredTables() {
        EnumeratorPhase phase = state.phase();
        return restored
                        && phase != EnumeratorPhase.STREAMING
                        && phase != EnumeratorPhase.ADDING_TABLES
                ? Optional.of(ctx.capturedTables())
                : Optional.empty();
    }

    /**
     * The restore handshake of {@code subtask}, whose binlog split captures {@code inSplit}, after
     * the server was asked: tables the list no longer selects leave the split (and this state);
     * tables it newly selects ({@code added}, resolved) are snapshotted in ADDING_TABLES. A restore
     * in the middle of an addition continues it, unless the split already holds the added tables
     * (the resume reached the reader's checkpoint).
     *
     * @throws CapstanHaltException {@code table_list_changed} when the list changed again while
     *     tables were being added
     */
    HandshakeAnswer restoredSplitChecked(
            int subtask,
            List<TableId> inSplit,
            Set<TableId> removed,
            List<SnapshotTable> added,
            int parallelism) {
        ctx.stopCapturing(removed);
        return apply(
                state.restoredSplitChecked(subtask, inSplit, removed, added, parallelism, ctx));
    }

    /**
     * The holder's binlog split stopped at P (a transaction boundary): the added tables' chunks
     * must hold P, and the split resumes from it.
     */
    void binlogPaused(int subtask, GtidSet p) {
        state = state.binlogPaused(subtask, p);
    }

    /** A reader (re)registered. */
    void readerRegistered(int subtask) {
        state = state.readerRegistered(subtask);
    }

    /**
     * Once the addition may end: the split the holder's paused split is extended by (the added
     * tables at P with their gate), and the holder; back to STREAMING. {@code registered} tells
     * whether a reader is up: a failed holder asks again after its restore, and is answered then.
     */
    Optional<AddedToSplit> resumeIfReady(IntPredicate registered, int parallelism) {
        return apply(state.resumeIfReady(registered, parallelism, ctx));
    }

    /** In PREPARING_BINLOG_SPLIT: the restored split to verify; empty when one must be planned. */
    Optional<BinlogSplit> binlogSplitToVerify() {
        // the split pending while its preflight runs again is the one to verify
        return state.phase() == EnumeratorPhase.PREPARING_BINLOG_SPLIT
                ? state.pendingBinlogSplit()
                : Optional.empty();
    }

    void tablesResolved(List<SnapshotTable> tables) {
        state = state.tablesResolved(tables, ctx);
    }

    /** The binlog split is planned, or the restored one verified: it may go out. */
    void binlogSplitPrepared(BinlogSplit split) {
        state = state.binlogSplitPrepared(split, ctx);
    }

    // ---- planning ----

    /** What to plan next, if planning should run now; marks planning as running. */
    Optional<PlanRequest> startPlanning(int parallelism) {
        Optional<SnapshotBook> maybeBook = state.book();
        if (maybeBook.isEmpty() || planningInFlight || maybeBook.get().planningFinished()) {
            return Optional.empty();
        }
        SnapshotBook book = maybeBook.get();
        int target = CHUNKS_AHEAD_PER_READER * Math.max(1, parallelism);
        if (book.pendingCount() >= target) {
            return Optional.empty();
        }
        planningInFlight = true;
        return Optional.of(
                new PlanRequest(book.keys(), book.plannerStates(), target - book.pendingCount()));
    }

    /** Installs planned chunks; returns true when planning is finished for every table. */
    boolean planned(List<SnapshotChunk> chunks, List<ChunkPlannerState> states) {
        planningInFlight = false;
        Optional<SnapshotBook> book = state.book();
        if (book.isEmpty()) {
            return true; // the snapshot is over: nothing more to plan
        }
        book.get().planned(chunks, states);
        return book.get().planningFinished();
    }

    void planningFailed() {
        planningInFlight = false;
    }

    // ---- requests ----

    /** Only the subtasks {@code readsChunks} accepts are given chunks; the others wait. */
    void limitChunkReaders(IntPredicate readsChunks) {
        ctx.limitChunkReaders(readsChunks);
    }

    void splitRequested(int subtask) {
        waiting.add(subtask);
    }

    /**
     * Answers every waiting reader that can be answered now, in order of asking. A reader that is
     * no longer registered failed: it is forgotten and asks again after its restart.
     */
    List<SplitReply> serveWaiting(IntPredicate registered, int parallelism) {
        List<SplitReply> replies = new ArrayList<>();
        for (Iterator<Integer> it = waiting.iterator(); it.hasNext(); ) {
            int subtask = it.next();
            if (!registered.test(subtask)) {
                it.remove();
                continue;
            }
            Optional<SplitReply> reply = apply(state.answer(subtask, parallelism, ctx));
            if (reply.isPresent()) {
                replies.add(reply.get());
                it.remove();
            }
        }
        return replies;
    }

    // ---- reader events ----

    /**
     * Records completions; returns true when the book changed. Without a book the binlog split
     * already holds every completion: the caller just acknowledges them.
     */
    boolean chunksCompleted(List<SnapshotChunkSplit> completed) {
        Optional<SnapshotBook> book = state.book();
        if (book.isEmpty()) {
            return false;
        }
        boolean changed = false;
        for (SnapshotChunkSplit s : completed) {
            changed |= book.get().complete(s);
        }
        if (changed) {
            ctx.checkpoints().completionsChanged();
            state.chunksCompleted();
        }
        return changed;
    }

    /**
     * A restored reader will read these chunks again: their completions are void. Nothing more can
     * be handed out because of it, so the caller has nothing to do.
     */
    void chunksReopened(List<String> splitIds) {
        Optional<SnapshotBook> book = state.book();
        if (book.isEmpty()) {
            return;
        }
        boolean changed = false;
        for (String id : splitIds) {
            changed |= book.get().dropCompletion(id);
        }
        if (changed) {
            LOG.info("{} chunk(s) will be read again after a reader restore", splitIds.size());
            ctx.checkpoints().completionsChanged();
        }
    }

    /** What readers see of checkpointing; unaligned may halt ({@link HandoffCheckpoints}). */
    void readersCheckpointing(boolean enabled, boolean unaligned, int parallelism) {
        EnumeratorPhase phase = state.phase();
        boolean handoffAhead =
                (ctx.afterSnapshot() == AfterSnapshot.STREAM && phase.precedesHandoff())
                        || phase == EnumeratorPhase.ADDING_TABLES;
        ctx.readersReported(enabled, unaligned, handoffAhead, parallelism);
    }

    /** Splits of a failed reader assigned after its last successful checkpoint. */
    void splitsAddedBack(List<CapstanSplit> splits, int subtask) {
        for (CapstanSplit split : splits) {
            switch (split.kind()) {
                case SNAPSHOT_CHUNK:
                    // Chunks go out only while the book is kept, and it goes only after a
                    // checkpoint that follows all of them: none can come back without it.
                    SnapshotBook book =
                            state.book()
                                    .orElseThrow(
                                            () ->
                                                    new IllegalStateException(
                                                            "snapshot chunk "
                                                                    + split.splitId()
                                                                    + " came back, but the"
                                                                    + " enumerator keeps no"
                                                                    + " snapshot"));
                    book.addBack(split.asSnapshotChunkSplit());
                    ctx.checkpoints().completionsChanged();
                    break;
                case BINLOG:
                    LOG.info("Binlog split returned by subtask {}", subtask);
                    state = state.binlogSplitReturned(split.asBinlogSplit(), ctx);
                    break;
                default:
                    throw new IllegalStateException("unknown split kind " + split.kind());
            }
        }
    }

    // ---- checkpoints ----

    EnumState checkpoint(long checkpointId) {
        HandoffCheckpoints checkpoints = ctx.checkpoints();
        checkpoints.taken(checkpointId);
        SnapshotProgress progress =
                state.book()
                        .map(
                                b ->
                                        SnapshotProgress.of(
                                                b,
                                                checkpoints.lastTaken(),
                                                checkpoints.latestChangeAfter()))
                        .orElse(null);
        EnumeratorPhase phase = state.phase();
        boolean adding = phase == EnumeratorPhase.ADDING_TABLES;
        return new EnumState(
                state.pendingBinlogSplit().orElse(null),
                phase == EnumeratorPhase.STREAMING || adding,
                progress,
                ctx.capturedTables(),
                adding);
    }

    /**
     * Returns true when checkpoint {@code checkpointId}, now complete, newly confirms the handoff:
     * waiting readers may be served. A checkpoint that follows the binlog split's assignment drops
     * the book instead.
     */
    boolean checkpointCompleted(long checkpointId) {
        return apply(state.checkpointCompleted(checkpointId, ctx));
    }

    private <T> T apply(Transition<T> transition) {
        state = transition.next();
        return transition.result();
    }

    // ---- read-only views (enumerator logs and tests) ----

    Optional<SnapshotBook> book() {
        return state.book();
    }

    boolean handoffConfirmed() {
        return ctx.checkpoints().confirmed();
    }
}

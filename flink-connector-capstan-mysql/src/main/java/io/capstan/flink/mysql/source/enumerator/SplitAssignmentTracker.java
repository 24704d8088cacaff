package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.StreamOrigin;
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

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * The enumerator's rules without Flink: its {@link EnumeratorPhase}, which waiting request gets a
 * chunk, the binlog split, "no more splits" or must wait; the bookkeeping of completions, reopened
 * and returned splits; when the handoff is allowed; and when the finished chunks may be forgotten.
 * {@link CapstanEnumerator} runs the I/O and carries out the replies. Single-threaded (the
 * coordinator thread).
 *
 * <p>The {@link SnapshotBook} is held from the resolved tables until a checkpoint that follows the
 * binlog split's assignment completes: until then a restore may bring the binlog split back, and it
 * must then be rebuilt from the book.
 *
 * <p>Longer than 400 lines because every reply reads the phase, the book, the handoff checkpoints
 * and the captured tables together: split across classes, one state machine's transitions would no
 * longer be readable in one place.
 */
final class SplitAssignmentTracker {

    private static final Logger LOG = LoggerFactory.getLogger(SplitAssignmentTracker.class);

    /** Planned chunks kept waiting per reader, so that a request is answered without JDBC. */
    static final int CHUNKS_AHEAD_PER_READER = 2;

    /** What follows the snapshot. */
    enum AfterSnapshot {
        /** {@code initial}: the binlog split, with the cursor gate over the finished chunks. */
        STREAM,
        /** {@code snapshot}: nothing; every reader ends. */
        END
    }

    /** Input for planning more chunks (immutable, so it may run off the coordinator thread). */
    record PlanRequest(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) {}

    private final AfterSnapshot afterSnapshot;
    private EnumeratorPhase phase;

    /** From the resolved tables until a checkpoint after the binlog assignment completes. */
    @Nullable private SnapshotBook book;

    private HandoffCheckpoints checkpoints;

    /** The binlog split being verified (PREPARING_BINLOG_SPLIT after a restore) or ready to go. */
    @Nullable private BinlogSplit binlogSplit;

    /** STREAMING with the book kept: the mark taken when the binlog split went out. */
    private OptionalLong binlogAssignedAfter = OptionalLong.empty();

    private boolean planningInFlight;

    /** The tables the job captures, once known; checkpointed for the restore check. */
    private List<TableId> capturedTables = List.of();

    /** Restored with captured tables: they are checked against the configured list at start. */
    private boolean restored;

    /**
     * Restored with the binlog split held by a reader: requests wait for its restore handshake,
     * which may lead to ADDING_TABLES (whose chunks go to any reader that asks).
     */
    private boolean awaitingHandshake;

    /** In ADDING_TABLES once the handshake named the holder; null otherwise. */
    @Nullable private TableAddition adding;

    /** The readers' last report on checkpointing, for the check when tables are added. */
    private boolean readersCheckpoint = true;

    private boolean readersUnaligned;

    /** Readers that asked and have no answer yet, in order of asking. */
    private final Set<Integer> waiting = new LinkedHashSet<>();

    /** Which subtasks read chunks (scan.snapshot.max-concurrent-chunk-reads); others wait. */
    private IntPredicate readsChunks = subtask -> true;

    private SplitAssignmentTracker(AfterSnapshot afterSnapshot, EnumeratorPhase phase) {
        this.afterSnapshot = afterSnapshot;
        this.phase = phase;
        this.checkpoints = HandoffCheckpoints.none();
    }

    /**
     * The tracker of a new job ({@link EnumState#initial()}) or a restored one. A restored job
     * resumes as its state says, whatever start mode is configured now; the mode decides only how a
     * new job starts and whether a snapshot is followed by streaming.
     */
    static SplitAssignmentTracker restore(StartupMode mode, EnumState state) {
        AfterSnapshot after = mode.isBounded() ? AfterSnapshot.END : AfterSnapshot.STREAM;
        SplitAssignmentTracker t;
        if (state.addingTables()) {
            // Tables were being added: the holder's handshake says whether the resume is in its
            // split (then STREAMING) or the addition continues from this progress.
            SnapshotProgress progress = state.snapshot();
            t = new SplitAssignmentTracker(after, EnumeratorPhase.ADDING_TABLES);
            t.book = progress.toBook();
            t.checkpoints =
                    HandoffCheckpoints.restored(
                            progress.lastCheckpointTaken(),
                            progress.latestCompletionAfter(),
                            t.book.allFinished());
            t.awaitingHandshake = true;
        } else if (state.binlogSplitAssigned()) {
            // The binlog split (with its gate) is in a reader's restored state.
            t = new SplitAssignmentTracker(after, EnumeratorPhase.STREAMING);
            t.awaitingHandshake = true;
        } else if (state.snapshot() != null) {
            SnapshotProgress progress = state.snapshot();
            t = new SplitAssignmentTracker(after, EnumeratorPhase.SNAPSHOTTING);
            t.book = progress.toBook();
            t.checkpoints =
                    HandoffCheckpoints.restored(
                            progress.lastCheckpointTaken(),
                            progress.latestCompletionAfter(),
                            t.book.allFinished());
            t.settleSnapshotPhase();
        } else if (state.unassignedBinlogSplit() != null) {
            // Planned before the restore: its preflight runs again before it goes out.
            t = new SplitAssignmentTracker(after, EnumeratorPhase.PREPARING_BINLOG_SPLIT);
            t.binlogSplit = state.unassignedBinlogSplit();
        } else if (mode.readsSnapshot()) {
            t = new SplitAssignmentTracker(after, EnumeratorPhase.RESOLVING_TABLES);
        } else {
            t = new SplitAssignmentTracker(after, EnumeratorPhase.PREPARING_BINLOG_SPLIT);
        }
        t.capturedTables = state.knownTables();
        t.restored = !t.capturedTables.isEmpty();
        return t;
    }

    /**
     * While the snapshot of an {@code initial} job runs: the intersection of the G of the chunks
     * finished so far, which holds where the handoff will start ({@link HandoffStartWatch}).
     */
    Optional<GtidSet> handoffStartSoFar() {
        if (phase == EnumeratorPhase.ADDING_TABLES) {
            // The held split resumes from P: the binlog from P on must stay on the server.
            return adding == null ? Optional.empty() : adding.pausedAt();
        }
        if (book == null
                || afterSnapshot != AfterSnapshot.STREAM
                || (phase != EnumeratorPhase.SNAPSHOTTING
                        && phase != EnumeratorPhase.AWAITING_HANDOFF_CHECKPOINT)) {
            return Optional.empty();
        }
        return book.startSoFar();
    }

    /**
     * The tables of the restored state, to check against the configured list before anything is
     * read; empty for a new job, or when the state does not name them, and while STREAMING: the
     * binlog split's own table list is then the truth (tables may join it as they are created), and
     * its reader's restore handshake checks that list instead ({@link #tablesRemoved}).
     */
    Optional<List<TableId>> restoredTables() {
        return restored
                        && phase != EnumeratorPhase.STREAMING
                        && phase != EnumeratorPhase.ADDING_TABLES
                ? Optional.of(capturedTables)
                : Optional.empty();
    }

    /** The answer to the restore handshake of the reader holding the binlog split. */
    sealed interface HandshakeAnswer {
        /** The tables the reader drops from the split before anything else. */
        Set<TableId> removed();
    }

    /** Stream on (without {@code removed}). */
    record Resume(Set<TableId> removed) implements HandshakeAnswer {}

    /** Stop at the next transaction boundary (without {@code removed}) and report P. */
    record Pause(Set<TableId> removed) implements HandshakeAnswer {}

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
        awaitingHandshake = false;
        List<TableId> kept = new ArrayList<>(capturedTables);
        kept.removeAll(removed);
        capturedTables = List.copyOf(kept);
        Set<TableId> addedIds = new TreeSet<>();
        added.forEach(t -> addedIds.add(t.key().table()));
        boolean bookOfAddition =
                book != null
                        && (phase == EnumeratorPhase.ADDING_TABLES
                                || (phase == EnumeratorPhase.STREAMING && !inSplit.isEmpty()));
        if (bookOfAddition) {
            Set<TableId> inBook = new TreeSet<>();
            book.keys().forEach(k -> inBook.add(k.table()));
            if (Set.copyOf(inSplit).containsAll(inBook)) {
                if (phase == EnumeratorPhase.ADDING_TABLES) {
                    LOG.info("The binlog split already holds the added tables: streaming");
                    book = null;
                    adding = null;
                    phase = EnumeratorPhase.STREAMING;
                } // else STREAMING drops the book after the next checkpoint, as it would
                capturedTables = union(capturedTables, inBook);
                return new Resume(removed);
            }
            if (!inBook.equals(addedIds)) {
                throw new CapstanHaltException(
                        HaltReason.TABLE_LIST_CHANGED,
                        "the configured table list changed again while "
                                + inBook.size()
                                + " table(s) were being added to the restored job (now adds "
                                + addedIds
                                + ", was adding "
                                + inBook
                                + "). Remedy: restore with the table list of the addition, let it"
                                + " finish, then change the list.");
            }
            startAdding(subtask, List.copyOf(inBook), parallelism);
            return new Pause(removed);
        }
        if (phase != EnumeratorPhase.STREAMING) {
            throw new IllegalStateException("binlog split handshake in phase " + phase);
        }
        if (added.isEmpty()) {
            return new Resume(removed);
        }
        book = new SnapshotBook(added);
        checkpoints = HandoffCheckpoints.none();
        startAdding(subtask, List.copyOf(addedIds), parallelism);
        return new Pause(removed);
    }

    private void startAdding(int holder, List<TableId> tables, int parallelism) {
        phase = EnumeratorPhase.ADDING_TABLES;
        binlogAssignedAfter = OptionalLong.empty();
        adding = new TableAddition(holder, tables);
        // The resume is a handoff like the first one: unaligned checkpoints cannot carry it.
        checkpoints.readersReported(readersCheckpoint, readersUnaligned, true, parallelism);
        LOG.info(
                "Adding {} table(s): the binlog split pauses at a transaction boundary while they"
                        + " are snapshotted",
                tables.size());
    }

    /**
     * The holder's binlog split stopped at P (a transaction boundary): the added tables' chunks
     * must hold P, and the split resumes from it.
     */
    void binlogPaused(int subtask, GtidSet p) {
        if (phase != EnumeratorPhase.ADDING_TABLES
                || adding == null
                || adding.holder() != subtask) {
            // Only the holder pauses, once asked; a pause from elsewhere would leave a split
            // held that nobody resumes.
            throw new IllegalStateException(
                    "subtask "
                            + subtask
                            + " paused its binlog split, which it was not asked to (phase "
                            + phase
                            + (adding == null ? "" : ", split held by subtask " + adding.holder())
                            + ")");
        }
        adding.paused(p, book.startSoFar());
        LOG.info(
                "Binlog split paused at {} while {} table(s) are added", p, adding.tables().size());
    }

    /**
     * A reader (re)registered. The holder of a paused split restarted: its split is restored from a
     * checkpoint, not at P, and the handshake it sends starts the addition anew, so the pause heard
     * from its predecessor is void (a resume sent now would reach a split not at P).
     */
    void readerRegistered(int subtask) {
        if (adding != null && adding.holder() == subtask) {
            LOG.info(
                    "Subtask {} holding the paused binlog split restarted: the addition waits for"
                            + " its handshake",
                    subtask);
            adding = null;
        }
    }

    /**
     * Once the addition may end: the split the holder's paused split is extended by (the added
     * tables at P with their gate), and the holder; back to STREAMING. {@code registered} tells
     * whether a reader is up: a failed holder asks again after its restore, and is answered then.
     */
    Optional<AddedToSplit> resumeIfReady(IntPredicate registered, int parallelism) {
        if (phase != EnumeratorPhase.ADDING_TABLES
                || adding == null
                || !registered.test(adding.holder())) {
            return Optional.empty();
        }
        Optional<BinlogSplit> added =
                adding.resumeWith(book, checkpoints.handoffAllowed(parallelism));
        if (added.isEmpty()) {
            return Optional.empty();
        }
        AddedToSplit resume = new AddedToSplit(adding.holder(), added.get());
        capturedTables = union(capturedTables, Set.copyOf(adding.tables()));
        LOG.info(
                "Added tables snapshotted: {} chunks, {} rows; the binlog split resumes with them",
                book.finishedCount(),
                book.rowCount());
        phase = EnumeratorPhase.STREAMING;
        binlogAssignedAfter = checkpoints.lastTaken(); // the book goes after a later checkpoint
        adding = null;
        return Optional.of(resume);
    }

    /** The holder's paused split goes on with {@code added}'s tables and gate. */
    record AddedToSplit(int holder, BinlogSplit added) {}

    private static List<TableId> union(List<TableId> a, Set<TableId> b) {
        Set<TableId> all = new java.util.LinkedHashSet<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    EnumeratorPhase phase() {
        return phase;
    }

    /** In PREPARING_BINLOG_SPLIT: the restored split to verify; empty when one must be planned. */
    Optional<BinlogSplit> binlogSplitToVerify() {
        return phase == EnumeratorPhase.PREPARING_BINLOG_SPLIT
                ? Optional.ofNullable(binlogSplit)
                : Optional.empty();
    }

    void tablesResolved(List<SnapshotTable> tables) {
        requirePhase(EnumeratorPhase.RESOLVING_TABLES);
        book = new SnapshotBook(tables);
        List<TableId> ids = new ArrayList<>();
        tables.forEach(t -> ids.add(t.key().table()));
        capturedTables = List.copyOf(ids);
        phase = EnumeratorPhase.SNAPSHOTTING;
        settleSnapshotPhase();
    }

    /** The binlog split is planned, or the restored one verified: it may go out. */
    void binlogSplitPrepared(BinlogSplit split) {
        requirePhase(EnumeratorPhase.PREPARING_BINLOG_SPLIT);
        binlogSplit = split;
        capturedTables = split.tables();
        phase = EnumeratorPhase.BINLOG_SPLIT_READY;
    }

    // ---- planning ----

    /** What to plan next, if planning should run now; marks planning as running. */
    Optional<PlanRequest> startPlanning(int parallelism) {
        if (book == null || planningInFlight || book.planningFinished()) {
            return Optional.empty();
        }
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
        if (book == null) {
            return true; // the snapshot is over: nothing more to plan
        }
        book.planned(chunks, states);
        settleSnapshotPhase();
        return book.planningFinished();
    }

    void planningFailed() {
        planningInFlight = false;
    }

    // ---- requests ----

    /** Only the subtasks {@code readsChunks} accepts are given chunks; the others wait. */
    void limitChunkReaders(IntPredicate readsChunks) {
        this.readsChunks = readsChunks;
    }

    /** A pending chunk for {@code subtask}, if it reads chunks. */
    private Optional<SnapshotChunkSplit> takePendingFor(int subtask) {
        return readsChunks.test(subtask) ? book.takePending() : Optional.empty();
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
            Optional<SplitReply> reply = answer(subtask, parallelism);
            if (reply.isPresent()) {
                replies.add(reply.get());
                it.remove();
            }
        }
        return replies;
    }

    /** A chunk, the binlog split or "no more splits"; empty when the reader must wait. */
    private Optional<SplitReply> answer(int subtask, int parallelism) {
        switch (phase) {
            case RESOLVING_TABLES:
            case PREPARING_BINLOG_SPLIT:
                return Optional.empty();
            case BINLOG_SPLIT_READY:
                BinlogSplit split = binlogSplit;
                binlogSplit = null;
                return Optional.of(assignBinlog(split, subtask));
            case STREAMING:
                if (awaitingHandshake) {
                    return Optional.empty(); // tables may be added: chunks may come
                }
                // The one binlog split is out: this reader will never get a split.
                return Optional.of(new SplitReply.NoMoreSplits(subtask));
            case ADDING_TABLES:
                if (awaitingHandshake) {
                    return Optional.empty();
                }
                return takePendingFor(subtask).map(c -> new SplitReply.Assign(subtask, c));
            case FINISHED:
                // Not before every completion is in (and acknowledged; SNAPSHOTTING waits): a
                // reader told "no more splits" ends once its chunks are emitted, and an
                // acknowledgement sent to an ended reader fails the job (Flink: "An OperatorEvent
                // ... was lost"). Readers ask while they still hold chunks (SplitRequestPacer),
                // so the answer waits for them.
                return Optional.of(new SplitReply.NoMoreSplits(subtask));
            case SNAPSHOTTING:
            case AWAITING_HANDOFF_CHECKPOINT:
                return answerFromBook(subtask, parallelism);
            default:
                throw new IllegalStateException("unknown phase " + phase);
        }
    }

    private Optional<SplitReply> answerFromBook(int subtask, int parallelism) {
        Optional<SnapshotChunkSplit> chunk = takePendingFor(subtask);
        if (chunk.isPresent()) {
            return Optional.of(new SplitReply.Assign(subtask, chunk.get()));
        }
        if (phase == EnumeratorPhase.SNAPSHOTTING || !checkpoints.handoffAllowed(parallelism)) {
            return Optional.empty();
        }
        List<TableId> tables = new ArrayList<>();
        book.keys().forEach(k -> tables.add(k.table()));
        BinlogSplit split =
                new BinlogSplit(
                        tables,
                        BinlogStartPosition.of(book.binlogStart()),
                        book.gate(),
                        StreamOrigin.AFTER_SNAPSHOT);
        LOG.info(
                "Snapshot finished: {} chunks, {} rows; handing over to the binlog",
                book.finishedCount(),
                book.rowCount());
        return Optional.of(assignBinlog(split, subtask));
    }

    private SplitReply assignBinlog(BinlogSplit split, int subtask) {
        phase = EnumeratorPhase.STREAMING;
        binlogAssignedAfter = checkpoints.lastTaken();
        return new SplitReply.Assign(subtask, split);
    }

    // ---- reader events ----

    /**
     * Records completions; returns true when the book changed. Without a book the binlog split
     * already holds every completion: the caller just acknowledges them.
     */
    boolean chunksCompleted(List<SnapshotChunkSplit> completed) {
        if (book == null) {
            return false;
        }
        boolean changed = false;
        for (SnapshotChunkSplit s : completed) {
            changed |= book.complete(s);
        }
        if (changed) {
            completionsChanged();
            if (adding != null) {
                book.startSoFar().ifPresent(adding::requireChunksHoldPause);
            }
        }
        return changed;
    }

    /**
     * A restored reader will read these chunks again: their completions are void. Nothing more can
     * be handed out because of it, so the caller has nothing to do.
     */
    void chunksReopened(List<String> splitIds) {
        if (book == null) {
            return;
        }
        boolean changed = false;
        for (String id : splitIds) {
            changed |= book.dropCompletion(id);
        }
        if (changed) {
            LOG.info("{} chunk(s) will be read again after a reader restore", splitIds.size());
            completionsChanged();
        }
    }

    /** What readers see of checkpointing; unaligned may halt ({@link HandoffCheckpoints}). */
    void readersCheckpointing(boolean enabled, boolean unaligned, int parallelism) {
        readersCheckpoint = enabled;
        readersUnaligned = unaligned;
        boolean handoffAhead =
                (afterSnapshot == AfterSnapshot.STREAM && phase.precedesHandoff())
                        || phase == EnumeratorPhase.ADDING_TABLES;
        checkpoints.readersReported(enabled, unaligned, handoffAhead, parallelism);
    }

    /** Splits of a failed reader assigned after its last successful checkpoint. */
    void splitsAddedBack(List<CapstanSplit> splits, int subtask) {
        for (CapstanSplit split : splits) {
            switch (split.kind()) {
                case SNAPSHOT_CHUNK:
                    if (book == null) {
                        // Chunks go out only while the book is kept, and it goes only after a
                        // checkpoint that follows all of them: none can come back without it.
                        throw new IllegalStateException(
                                "snapshot chunk "
                                        + split.splitId()
                                        + " came back, but the enumerator keeps no snapshot");
                    }
                    book.addBack(split.asSnapshotChunkSplit());
                    completionsChanged();
                    break;
                case BINLOG:
                    LOG.info("Binlog split returned by subtask {}", subtask);
                    binlogAssignedAfter = OptionalLong.empty();
                    if (book != null) {
                        // While the book is kept, rebuild the split from it: a reader restore
                        // may re-read chunks, and the gate must hold the G of the read that counts.
                        binlogSplit = null;
                        phase = EnumeratorPhase.SNAPSHOTTING;
                        settleSnapshotPhase();
                    } else {
                        binlogSplit = split.asBinlogSplit();
                        phase = EnumeratorPhase.BINLOG_SPLIT_READY;
                    }
                    break;
                default:
                    throw new IllegalStateException("unknown split kind " + split.kind());
            }
        }
    }

    private void completionsChanged() {
        checkpoints.completionsChanged();
        settleSnapshotPhase();
    }

    /** The snapshot phase the book is in; STREAMING keeps its book only for a returned split. */
    private void settleSnapshotPhase() {
        if (book == null
                || phase == EnumeratorPhase.STREAMING
                || phase == EnumeratorPhase.ADDING_TABLES) {
            return;
        }
        if (!book.allFinished()) {
            phase = EnumeratorPhase.SNAPSHOTTING;
        } else if (afterSnapshot == AfterSnapshot.END) {
            phase = EnumeratorPhase.FINISHED;
        } else {
            phase = EnumeratorPhase.AWAITING_HANDOFF_CHECKPOINT;
        }
    }

    // ---- checkpoints ----

    EnumState checkpoint(long checkpointId) {
        checkpoints.taken(checkpointId);
        SnapshotProgress progress =
                book == null
                        ? null
                        : SnapshotProgress.of(
                                book, checkpoints.lastTaken(), checkpoints.latestChangeAfter());
        // binlogSplit is set only in PREPARING_BINLOG_SPLIT and BINLOG_SPLIT_READY: the pending one
        boolean adding = phase == EnumeratorPhase.ADDING_TABLES;
        return new EnumState(
                binlogSplit,
                phase == EnumeratorPhase.STREAMING || adding,
                progress,
                capturedTables,
                adding);
    }

    /**
     * Returns true when checkpoint {@code checkpointId}, now complete, newly confirms the handoff:
     * waiting readers may be served. A checkpoint that follows the binlog split's assignment drops
     * the book instead.
     */
    boolean checkpointCompleted(long checkpointId) {
        if (book == null) {
            return false;
        }
        if (phase == EnumeratorPhase.STREAMING
                && HandoffCheckpoints.follows(checkpointId, binlogAssignedAfter)) {
            LOG.info(
                    "Binlog split checkpointed by its reader; dropping {} finished chunks from the"
                            + " enumerator state",
                    book.finishedCount());
            book = null;
            return false;
        }
        return checkpoints.checkpointCompleted(checkpointId, book.allFinished());
    }

    // ---- read-only views (enumerator logs and tests) ----

    Optional<SnapshotBook> book() {
        return Optional.ofNullable(book);
    }

    boolean handoffConfirmed() {
        return checkpoints.confirmed();
    }

    private void requirePhase(EnumeratorPhase expected) {
        if (phase != expected) {
            throw new IllegalStateException("expected phase " + expected + " but is " + phase);
        }
    }
}

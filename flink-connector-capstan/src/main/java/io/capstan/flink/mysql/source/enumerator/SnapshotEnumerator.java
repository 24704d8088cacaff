package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.binlog.BinlogStartPosition;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.source.event.ChunksAcknowledgedEvent;
import io.capstan.flink.mysql.source.event.ChunksCompletedEvent;
import io.capstan.flink.mysql.source.event.ChunksReopenedEvent;
import io.capstan.flink.mysql.source.event.ReaderCheckpointingEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator of the {@code initial} and {@code snapshot} start modes: resolves the tables and
 * their chunk keys, plans chunks lazily a few ahead of the readers, hands them out one per
 * request, records their completions, and (in {@code initial} mode) hands out the binlog split
 * with the cursor gate once every chunk is finished and a checkpoint that follows the last
 * completion has completed.
 *
 * <p>Why the checkpoint: records of one key may travel through different reader subtasks; only a
 * completed checkpoint whose barriers followed every chunk's rows proves that all of them reached
 * every downstream operator before the first binlog record is emitted, and that no chunk will be
 * read again (a restore goes back at most to that checkpoint). With parallelism 1 one subtask
 * keeps the order; without checkpointing there is nothing to wait for (see docs/snapshot.md).
 *
 * <p>All fields are touched only on the coordinator thread: JDBC runs in {@code callAsync} with
 * immutable inputs, and only its result handler changes state.
 */
public final class SnapshotEnumerator implements SplitEnumerator<CapstanSplit, EnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotEnumerator.class);

    /** Planned chunks kept waiting per reader, so that a request is answered without JDBC. */
    static final int CHUNKS_AHEAD_PER_READER = 2;

    private final SplitEnumeratorContext<CapstanSplit> context;
    private final SnapshotPlanning planning;
    private final boolean streamAfterSnapshot;

    @Nullable private SnapshotBook book;
    @Nullable private BinlogSplit unassignedBinlogSplit;
    private boolean binlogSplitAssigned;
    /** The checkpoint the binlog split went out after: once a later one completes, the book goes. */
    private long binlogAssignedAfterCheckpoint = Long.MAX_VALUE;

    private long lastSnapshotCheckpoint = -1;
    /** The latest completion (or drop) is in checkpoints with a larger id than this. */
    private long completionsAfterCheckpoint = -1;
    /** A checkpoint holding every completion has completed. */
    private boolean handoffConfirmed;
    /** What the readers said about checkpointing; null until one has. */
    @Nullable private Boolean checkpointingEnabled;

    private boolean planningInFlight;
    private final Set<Integer> waitingReaders = new LinkedHashSet<>();

    public SnapshotEnumerator(
            SplitEnumeratorContext<CapstanSplit> context,
            SnapshotPlanning planning,
            boolean streamAfterSnapshot,
            EnumState state) {
        this.context = context;
        this.planning = planning;
        this.streamAfterSnapshot = streamAfterSnapshot;
        this.binlogSplitAssigned = state.binlogSplitAssigned();
        SnapshotProgress progress = state.snapshot();
        if (progress != null) {
            this.book = progress.toBook();
            this.lastSnapshotCheckpoint = progress.lastSnapshotCheckpoint();
            this.completionsAfterCheckpoint = progress.completionsAfterCheckpoint();
            // Restored from a completed checkpoint: if it held every completion, it confirms them.
            this.handoffConfirmed =
                    book.allFinished() && completionsAfterCheckpoint < lastSnapshotCheckpoint;
            // A pending binlog split is rebuilt from the book when the handoff is allowed.
            this.unassignedBinlogSplit = null;
        } else {
            this.unassignedBinlogSplit = state.unassignedBinlogSplit();
        }
        if (binlogSplitAssigned) {
            book = null; // the binlog split (with its gate) is in a reader's restored state
        }
    }

    @Override
    public void start() {
        if (book == null && !binlogSplitAssigned && unassignedBinlogSplit == null) {
            context.callAsync(planning::resolveTables, this::onTablesResolved);
        } else {
            maybePlan();
        }
    }

    private void onTablesResolved(@Nullable List<SnapshotTable> tables, @Nullable Throwable error) {
        if (error != null) {
            throw fail("cannot start the snapshot", error);
        }
        book = new SnapshotBook(tables);
        LOG.info("Snapshot of {} table(s) starts", tables.size());
        maybePlan();
        serveWaiting();
    }

    private void maybePlan() {
        if (book == null || planningInFlight || book.planningFinished()) {
            return;
        }
        int target = CHUNKS_AHEAD_PER_READER * Math.max(1, context.currentParallelism());
        if (book.pendingCount() >= target) {
            return;
        }
        planningInFlight = true;
        List<ChunkKey> keys = book.keys();
        List<io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState> states = book.plannerStates();
        int max = target - book.pendingCount();
        context.callAsync(() -> planning.planMore(keys, states, max), this::onPlanned);
    }

    private void onPlanned(@Nullable SnapshotPlanning.Planned planned, @Nullable Throwable error) {
        planningInFlight = false;
        if (error != null) {
            throw fail("cannot plan snapshot chunks", error);
        }
        if (book == null) {
            return;
        }
        book.planned(planned.chunks(), planned.states());
        if (book.planningFinished()) {
            planning.close(); // nothing more to ask the server; a restore reconnects if needed
        }
        serveWaiting();
        maybePlan();
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        waitingReaders.add(subtaskId);
        serveWaiting();
        maybePlan();
    }

    /** Answers every waiting reader that can be answered now, in order of asking. */
    private void serveWaiting() {
        for (Iterator<Integer> it = waitingReaders.iterator(); it.hasNext(); ) {
            int subtask = it.next();
            if (!context.registeredReaders().containsKey(subtask)) {
                it.remove(); // it failed; it asks again after its restart
                continue;
            }
            if (answer(subtask)) {
                it.remove();
            }
        }
    }

    /** Gives the reader a chunk, the binlog split or "no more splits"; false when it must wait. */
    private boolean answer(int subtask) {
        if (binlogSplitAssigned) {
            context.signalNoMoreSplits(subtask);
            return true;
        }
        if (book == null) {
            if (unassignedBinlogSplit != null) {
                assignBinlog(unassignedBinlogSplit, subtask);
                return true;
            }
            return false; // tables not resolved yet
        }
        Optional<SnapshotChunkSplit> chunk = book.takePending();
        if (chunk.isPresent()) {
            context.assignSplit(chunk.get(), subtask);
            return true;
        }
        if (!book.planningFinished()) {
            return false;
        }
        if (!streamAfterSnapshot) {
            // Not before every completion is in (and acknowledged): a reader told "no more
            // splits" ends once its chunks are emitted, and an acknowledgement sent to an ended
            // reader fails the job (Flink: "An OperatorEvent ... was lost"). Readers ask while
            // they still hold chunks (SplitRequestPacer), so the answer waits for them.
            if (!book.allFinished()) {
                return false;
            }
            context.signalNoMoreSplits(subtask);
            return true;
        }
        if (!book.allFinished() || !handoffAllowed()) {
            return false;
        }
        List<TableId> tables = new ArrayList<>();
        book.keys().forEach(k -> tables.add(k.table()));
        BinlogSplit split = new BinlogSplit(
                tables, BinlogStartPosition.of(book.binlogStart()), book.gate());
        LOG.info("Snapshot finished: {} chunks, {} rows; handing over to the binlog",
                book.finishedCount(), book.rowCount());
        assignBinlog(split, subtask);
        return true;
    }

    private boolean handoffAllowed() {
        return handoffConfirmed
                || context.currentParallelism() == 1
                || Boolean.FALSE.equals(checkpointingEnabled);
    }

    private void assignBinlog(BinlogSplit split, int subtask) {
        LOG.info("Assigning {} to subtask {}", split, subtask);
        context.assignSplit(split, subtask);
        unassignedBinlogSplit = null;
        binlogSplitAssigned = true;
        binlogAssignedAfterCheckpoint = lastSnapshotCheckpoint;
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (sourceEvent instanceof ChunksCompletedEvent) {
            onCompleted(subtaskId, ((ChunksCompletedEvent) sourceEvent).completed());
        } else if (sourceEvent instanceof ChunksReopenedEvent) {
            onReopened(((ChunksReopenedEvent) sourceEvent).splitIds());
        } else if (sourceEvent instanceof ReaderCheckpointingEvent) {
            checkpointingEnabled = ((ReaderCheckpointingEvent) sourceEvent).checkpointingEnabled();
            serveWaiting();
        } else {
            LOG.warn("Ignoring unknown source event {} from subtask {}", sourceEvent, subtaskId);
        }
    }

    private void onCompleted(int subtask, List<SnapshotChunkSplit> completed) {
        List<String> ids = new ArrayList<>(completed.size());
        boolean changed = false;
        for (SnapshotChunkSplit s : completed) {
            ids.add(s.splitId());
            if (book != null) {
                changed |= book.complete(s);
            }
            // else: the binlog split already holds every completion; just acknowledge.
        }
        if (changed) {
            completionsChanged();
        }
        if (context.registeredReaders().containsKey(subtask)) {
            context.sendEventToSourceReader(subtask, new ChunksAcknowledgedEvent(ids));
        } // else it failed: it resends the completions it restores, and is acknowledged then
        if (changed) {
            serveWaiting();
        }
    }

    private void onReopened(List<String> splitIds) {
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

    private void completionsChanged() {
        completionsAfterCheckpoint = lastSnapshotCheckpoint;
        handoffConfirmed = false;
    }

    @Override
    public void addSplitsBack(List<CapstanSplit> splits, int subtaskId) {
        // Only splits assigned after the reader's last successful checkpoint come back.
        for (CapstanSplit split : splits) {
            switch (split.kind()) {
                case SNAPSHOT_CHUNK:
                    if (book != null) {
                        book.addBack(split.asSnapshotChunkSplit());
                        completionsChanged();
                    }
                    break;
                case BINLOG:
                    LOG.info("Binlog split returned by subtask {}", subtaskId);
                    binlogSplitAssigned = false;
                    binlogAssignedAfterCheckpoint = Long.MAX_VALUE;
                    // While the book is kept, rebuild the split from it: a reader restore may
                    // re-read chunks, and the gate must hold the G of the read that counts.
                    unassignedBinlogSplit = book == null ? split.asBinlogSplit() : null;
                    break;
                default:
                    throw new IllegalStateException("unknown split kind " + split.kind());
            }
        }
    }

    @Override
    public void addReader(int subtaskId) {
        // Pull model: readers ask with sendSplitRequest() when they start.
    }

    @Override
    public EnumState snapshotState(long checkpointId) {
        lastSnapshotCheckpoint = checkpointId;
        SnapshotProgress progress = book == null
                ? null
                : SnapshotProgress.of(book, lastSnapshotCheckpoint, completionsAfterCheckpoint);
        return new EnumState(unassignedBinlogSplit, binlogSplitAssigned, progress);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (book != null && binlogSplitAssigned && checkpointId > binlogAssignedAfterCheckpoint) {
            LOG.info("Binlog split checkpointed by its reader; dropping {} finished chunks from the"
                    + " enumerator state", book.finishedCount());
            book = null;
            return;
        }
        if (book != null && !handoffConfirmed && book.allFinished()
                && checkpointId > completionsAfterCheckpoint) {
            handoffConfirmed = true;
            serveWaiting();
        }
    }

    @Override
    public void close() {
        planning.close();
    }

    private static RuntimeException fail(String what, Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        LOG.error("capstan-mysql {}: {}", what, cause.getMessage());
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        return new FlinkRuntimeException("capstan-mysql " + what, cause);
    }

    // ---- for tests ----

    boolean handoffConfirmed() {
        return handoffConfirmed;
    }

    @Nullable
    SnapshotBook book() {
        return book;
    }
}

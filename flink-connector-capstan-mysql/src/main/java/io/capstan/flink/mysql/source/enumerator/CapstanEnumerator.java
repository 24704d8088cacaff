package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.source.event.BinlogPausedEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitPauseEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitRestoredEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitResumeEvent;
import io.capstan.flink.mysql.source.event.ChunksAcknowledgedEvent;
import io.capstan.flink.mysql.source.event.ChunksCompletedEvent;
import io.capstan.flink.mysql.source.event.ChunksReopenedEvent;
import io.capstan.flink.mysql.source.event.ReaderCheckpointingEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * The enumerator of every start mode. The {@code initial} and {@code snapshot} modes resolve the
 * tables and their chunk keys, plan chunks lazily a few ahead of the readers, hand them out one per
 * request and record their completions; {@code initial} then hands out the binlog split with the
 * cursor gate once every chunk is finished and a checkpoint that follows the last completion has
 * completed (see {@link HandoffCheckpoints} for why). The stream-only modes have no table to
 * snapshot: they plan the binlog split (or re-run the preflight of a restored one) and hand it to
 * the first reader that asks. Readers that ask once the binlog split is out are told no more splits
 * will come.
 *
 * <p>The rules live in {@link SplitAssignmentTracker}; this class runs the I/O and carries out its
 * replies. All state is touched only on the coordinator thread: JDBC runs in {@code callAsync} with
 * immutable inputs, and only its result handler changes state.
 *
 * <p>A restored streaming job first answers its binlog reader's restore handshake, which may drop
 * tables from the split or add tables (ADDING_TABLES: pause, snapshot, resume; docs/adr/0009).
 *
 * <p>Longer than 400 lines because every Flink callback and every asynchronous answer lands here
 * and is carried out in the same few steps (tracker, events, assignments, metrics); split across
 * classes, the order of those steps, which the handoff's exactness rests on, would be spread out.
 */
@Internal
public final class CapstanEnumerator implements SplitEnumerator<CapstanSplit, EnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(CapstanEnumerator.class);

    private static final LongSupplier MONOTONIC = () -> System.nanoTime() / 1_000_000;

    private final SplitEnumeratorContext<CapstanSplit> context;
    private final SnapshotPlanning planning;
    private final BinlogSplitPlanner binlogPlanner;
    private final SplitAssignmentTracker tracker;
    private final CapstanEnumeratorMetrics metrics;
    private final Duration handoffStartWatchPeriod;
    private final SnapshotRetentionMonitor retentionMonitor;

    /**
     * Whether the worker still asks for gtid_purged: set for an {@code initial} job, cleared on the
     * coordinator thread once the snapshot is over, read by the worker.
     */
    private volatile boolean watchingHandoffStart;

    /**
     * Registrations per subtask (coordinator thread): an answer computed for a reader that has
     * since been replaced by a restarted one is not sent; the new reader asks again.
     */
    private final Map<Integer, Integer> registrations = new HashMap<>();

    /**
     * @param mode the configured start mode: how a new job starts, and whether a snapshot ends the
     *     job or is followed by streaming (a restored job resumes as {@code state} says)
     * @param planning asked only when there is a snapshot to run
     * @param binlogPlanner asked only when the job streams without a snapshot: to plan the split of
     *     a new job, or to re-run the preflight of a planned split restored before it went out
     */
    public CapstanEnumerator(
            SplitEnumeratorContext<CapstanSplit> context,
            StartupMode mode,
            SnapshotPlanning planning,
            BinlogSplitPlanner binlogPlanner,
            EnumState state) {
        this(context, mode, planning, binlogPlanner, state, HandoffStartWatch.DEFAULT_PERIOD);
    }

    /**
     * @param handoffStartWatchPeriod how often an {@code initial} snapshot checks that the binlog
     *     its handoff starts from is still on the server ({@link HandoffStartWatch})
     */
    public CapstanEnumerator(
            SplitEnumeratorContext<CapstanSplit> context,
            StartupMode mode,
            SnapshotPlanning planning,
            BinlogSplitPlanner binlogPlanner,
            EnumState state,
            Duration handoffStartWatchPeriod) {
        this(context, mode, planning, binlogPlanner, state, handoffStartWatchPeriod, MONOTONIC);
    }

    /**
     * @param clockMillis monotonic milliseconds, for the snapshot's duration estimate
     */
    CapstanEnumerator(
            SplitEnumeratorContext<CapstanSplit> context,
            StartupMode mode,
            SnapshotPlanning planning,
            BinlogSplitPlanner binlogPlanner,
            EnumState state,
            Duration handoffStartWatchPeriod,
            LongSupplier clockMillis) {
        this.context = context;
        this.planning = planning;
        this.binlogPlanner = binlogPlanner;
        this.tracker = SplitAssignmentTracker.restore(mode, state);
        this.tracker.limitChunkReaders(planning.loadLimits()::mayReadChunks);
        this.metrics =
                new CapstanEnumeratorMetrics(context.metricGroup(), System::currentTimeMillis);
        this.handoffStartWatchPeriod = handoffStartWatchPeriod;
        this.retentionMonitor = new SnapshotRetentionMonitor(clockMillis, metrics);
        this.retentionMonitor.rowsPerSecondLimit(planning.loadLimits().maxRowsPerSecond());
        this.watchingHandoffStart =
                !mode.isBounded()
                        && mode.readsSnapshot()
                        && tracker.phase() != EnumeratorPhase.STREAMING
                        && tracker.phase() != EnumeratorPhase.FINISHED;
    }

    @Override
    public void start() {
        LOG.info("Enumerator starts in phase {}", tracker.phase());
        refreshMetrics();
        // Queued first: the worker runs one call at a time, so this check precedes the restored
        // phase's own calls, and a changed table list halts before another chunk is planned.
        tracker.restoredTables()
                .ifPresent(
                        tables ->
                                context.callAsync(
                                        () -> {
                                            planning.checkRestoredTables(tables);
                                            return tables;
                                        },
                                        this::onRestoredTablesChecked));
        if (watchingHandoffStart) {
            long period = handoffStartWatchPeriod.toMillis();
            context.callAsync(this::lookWhileSnapshotting, this::onLooked, period, period);
            tracker.book().ifPresent(this::estimateSnapshot); // a restored snapshot
        }
        switch (tracker.phase()) {
            case RESOLVING_TABLES:
                context.callAsync(planning::resolveTables, this::onTablesResolved);
                break;
            case PREPARING_BINLOG_SPLIT:
                Optional<BinlogSplit> restored = tracker.binlogSplitToVerify();
                if (restored.isPresent()) {
                    BinlogSplit split = restored.get();
                    context.callAsync(
                            () -> {
                                binlogPlanner.verifyBeforeAssigning(split);
                                return split;
                            },
                            this::onBinlogSplitPrepared);
                } else {
                    context.callAsync(binlogPlanner::planNewSplit, this::onBinlogSplitPrepared);
                }
                break;
            default:
                // A restored snapshot plans on; a held binlog split is resumed by its reader.
                planMore();
        }
    }

    /** gtid_purged and the binlog retention while the snapshot runs; null (no query) after. */
    @Nullable
    private HandoffStartLook lookWhileSnapshotting() throws Exception {
        return watchingHandoffStart ? HandoffStartLook.take(planning) : null;
    }

    /** Starts the snapshot's duration estimate and asks for its row estimate and retention. */
    private void estimateSnapshot(SnapshotBook book) {
        retentionMonitor.snapshotRuns(book);
        List<ChunkKey> keys = book.keys();
        context.callAsync(() -> planning.retentionFacts(keys), retentionMonitor::factsRead);
    }

    private void onLooked(@Nullable HandoffStartLook look, @Nullable Throwable error) {
        if (look != null && look.facts() != null) {
            retentionMonitor.factsRead(look.facts(), null);
        }
        onPurgedChecked(look == null ? null : look.purged(), error);
    }

    private void onPurgedChecked(@Nullable GtidSet purged, @Nullable Throwable error) {
        if (error instanceof CapstanHaltException) {
            throw fail("cannot finish the snapshot", error); // never swallowed as a failed look
        }
        if (error != null) {
            // A failed look is not a gap: the next period asks again (planning reconnects).
            LOG.warn(
                    "Could not read gtid_purged to watch the handoff's start: {}",
                    error.toString());
            return;
        }
        if (tracker.phase() == EnumeratorPhase.STREAMING
                || tracker.phase() == EnumeratorPhase.FINISHED) {
            watchingHandoffStart = false; // the handoff happened (or a restore is past it)
            planning.close(); // the look just taken reopened the connection: nothing more to ask
            return;
        }
        Optional<GtidSet> start = tracker.handoffStartSoFar();
        if (purged != null && start.isPresent()) {
            try {
                HandoffStartWatch.requireAvailable(start.get(), purged, planning.serverAddress());
            } catch (RuntimeException e) {
                throw fail("cannot finish the snapshot", e);
            }
        }
    }

    private void onRestoredTablesChecked(
            @Nullable List<TableId> tables, @Nullable Throwable error) {
        if (error != null) {
            throw fail("cannot resume the restored job", error);
        }
        LOG.info("The configured table list still selects the {} restored table(s)", tables.size());
        if (tracker.phase() == EnumeratorPhase.STREAMING) {
            planning.close(); // nothing more to ask in this phase
        }
    }

    /**
     * The restore handshake's answer: the reader holding the restored binlog split streams on
     * without the tables the configured list no longer selects, or pauses while added tables are
     * snapshotted. Every handshake is answered or fails the job by name, so a reader never waits
     * for ever (Flink delivers the events or fails the tasks); one that failed meanwhile asks again
     * after its restart.
     */
    private void onRestoredSplitChecked(
            int subtask,
            int asker,
            List<TableId> inSplit,
            @Nullable SnapshotPlanning.RestoredSplitCheck check,
            @Nullable Throwable error) {
        if (error != null) {
            throw fail("cannot resume the restored binlog split", error);
        }
        if (!context.registeredReaders().containsKey(subtask)
                || registrations.getOrDefault(subtask, 0) != asker) {
            // Its restart restores the split and asks again: that question is answered. This
            // answer would reach the restarted reader as a second one (or nowhere).
            LOG.info(
                    "Subtask {} restarted since it asked about its binlog split: it asks again",
                    subtask);
            return;
        }
        for (TableId table : check.removed()) {
            LOG.info(
                    "Table {} is no longer selected by the configured table list: it leaves the"
                            + " binlog split",
                    table);
        }
        SplitAssignmentTracker.HandshakeAnswer answer;
        try {
            answer =
                    tracker.restoredSplitChecked(
                            subtask,
                            inSplit,
                            check.removed(),
                            check.added(),
                            context.currentParallelism());
        } catch (RuntimeException e) {
            throw fail("cannot resume the restored binlog split", e);
        }
        List<TableId> removed = new ArrayList<>(answer.removed());
        context.sendEventToSourceReader(
                subtask,
                answer instanceof SplitAssignmentTracker.Pause
                        ? new BinlogSplitPauseEvent(removed)
                        : new BinlogSplitResumeEvent(removed, null));
        if (tracker.phase() == EnumeratorPhase.ADDING_TABLES) {
            watchPauseStart();
            planMore();
        } else if (tracker.book().isEmpty()) {
            planning.close(); // nothing more to ask until another restore
        }
        serveWaiting();
    }

    /** While adding tables: the binlog from the pause on must stay on the server. */
    private void watchPauseStart() {
        if (watchingHandoffStart) {
            return;
        }
        watchingHandoffStart = true;
        long period = handoffStartWatchPeriod.toMillis();
        context.callAsync(this::lookWhileSnapshotting, this::onLooked, period, period);
    }

    /** Sends the held binlog split its added tables once the addition may end. */
    private void resumeBinlogIfReady() {
        tracker.resumeIfReady(
                        context.registeredReaders()::containsKey, context.currentParallelism())
                .ifPresent(
                        resume -> {
                            LOG.info(
                                    "Resuming the binlog split of subtask {} with {} added"
                                            + " table(s) ({})",
                                    resume.holder(),
                                    resume.added().tables().size(),
                                    resume.added());
                            context.sendEventToSourceReader(
                                    resume.holder(),
                                    new BinlogSplitResumeEvent(List.of(), resume.added()));
                            serveWaiting(); // readers waiting for chunks: no more splits
                        });
    }

    private void onTablesResolved(@Nullable List<SnapshotTable> tables, @Nullable Throwable error) {
        if (error != null) {
            throw fail("cannot start the snapshot", error);
        }
        tracker.tablesResolved(tables);
        LOG.info("Snapshot of {} table(s) starts", tables.size());
        planMore();
        serveWaiting();
        if (watchingHandoffStart) { // after the first chunks' planning: it may take a while
            tracker.book().ifPresent(this::estimateSnapshot);
        }
    }

    private void onBinlogSplitPrepared(@Nullable BinlogSplit split, @Nullable Throwable error) {
        if (error != null) {
            // Thrown from the handler, this fails the job with the cause (e.g. a preflight halt).
            throw fail("cannot start streaming", error);
        }
        tracker.binlogSplitPrepared(split);
        serveWaiting();
    }

    private void planMore() {
        Optional<SplitAssignmentTracker.PlanRequest> request =
                tracker.startPlanning(context.currentParallelism());
        if (request.isEmpty()) {
            return;
        }
        SplitAssignmentTracker.PlanRequest r = request.get();
        context.callAsync(() -> planning.planMore(r.keys(), r.states(), r.max()), this::onPlanned);
    }

    private void onPlanned(@Nullable SnapshotPlanning.Planned planned, @Nullable Throwable error) {
        if (error != null) {
            tracker.planningFailed();
            throw fail("cannot plan snapshot chunks", error);
        }
        if (tracker.planned(planned.chunks(), planned.states())) {
            planning.close(); // nothing more to ask the server; a restore reconnects if needed
        }
        serveWaiting();
        planMore();
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        tracker.splitRequested(subtaskId);
        serveWaiting();
        planMore();
    }

    /** Carries out the tracker's answers to every reader that can be answered now. */
    private void serveWaiting() {
        List<SplitReply> replies =
                tracker.serveWaiting(
                        context.registeredReaders()::containsKey, context.currentParallelism());
        for (SplitReply reply : replies) {
            if (reply instanceof SplitReply.Assign assign) {
                if (assign.split() instanceof BinlogSplit binlog) {
                    LOG.info(
                            "Assigning {} ({} bytes) to subtask {}",
                            binlog,
                            serializedSize(binlog),
                            assign.subtask());
                }
                context.assignSplit(assign.split(), assign.subtask());
            } else {
                context.signalNoMoreSplits(reply.subtask());
            }
        }
        refreshMetrics();
    }

    private void refreshMetrics() {
        metrics.refresh(tracker.phase(), tracker.book());
        retentionMonitor.refresh(tracker.phase(), tracker.book().orElse(null));
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (sourceEvent instanceof ChunksCompletedEvent completed) {
            onCompleted(subtaskId, completed.completed());
        } else if (sourceEvent instanceof ChunksReopenedEvent reopened) {
            tracker.chunksReopened(reopened.splitIds());
            refreshMetrics();
        } else if (sourceEvent instanceof BinlogSplitRestoredEvent restored) {
            List<TableId> tables = restored.tables();
            int asker = registrations.getOrDefault(subtaskId, 0);
            context.callAsync(
                    () -> planning.checkRestoredSplit(tables),
                    (check, error) ->
                            onRestoredSplitChecked(subtaskId, asker, tables, check, error));
        } else if (sourceEvent instanceof BinlogPausedEvent paused) {
            tracker.binlogPaused(subtaskId, paused.processed());
            resumeBinlogIfReady();
        } else if (sourceEvent instanceof ReaderCheckpointingEvent checkpointing) {
            tracker.readersCheckpointing(
                    checkpointing.checkpointingEnabled(),
                    checkpointing.unalignedCheckpoints(),
                    context.currentParallelism());
            serveWaiting();
        } else {
            // A reader of another version, or a bug: never dropped silently.
            throw new IllegalStateException(
                    "unknown source event "
                            + sourceEvent.getClass().getName()
                            + " from subtask "
                            + subtaskId);
        }
    }

    private void onCompleted(int subtask, List<SnapshotChunkSplit> completed) {
        boolean changed = tracker.chunksCompleted(completed);
        List<String> ids = new ArrayList<>(completed.size());
        completed.forEach(s -> ids.add(s.splitId()));
        // Acknowledged before any "no more splits" that these completions allow goes out.
        if (context.registeredReaders().containsKey(subtask)) {
            context.sendEventToSourceReader(subtask, new ChunksAcknowledgedEvent(ids));
        } // else it failed: it resends the completions it restores, and is acknowledged then
        if (changed) {
            serveWaiting();
            resumeBinlogIfReady();
        } else {
            refreshMetrics();
        }
    }

    @Override
    public void addSplitsBack(List<CapstanSplit> splits, int subtaskId) {
        // Only splits assigned after the reader's last successful checkpoint come back.
        tracker.splitsAddedBack(splits, subtaskId);
        serveWaiting();
    }

    @Override
    public void addReader(int subtaskId) {
        // Pull model: readers ask with sendSplitRequest() when they start. A registration after
        // the first is a restarted reader: what its predecessor was told or said is void.
        registrations.merge(subtaskId, 1, Integer::sum);
        tracker.readerRegistered(subtaskId);
    }

    @Override
    public EnumState snapshotState(long checkpointId) {
        return tracker.checkpoint(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (tracker.checkpointCompleted(checkpointId)) {
            serveWaiting(); // the handoff is confirmed
            resumeBinlogIfReady();
        }
    }

    @Override
    public void close() {
        planning.close();
    }

    /** For tests: the rules and bookkeeping behind this enumerator. */
    SplitAssignmentTracker tracker() {
        return tracker;
    }

    /** The size of the split's RPC message body: it must fit pekko.framesize (docs/adr/0007). */
    private static long serializedSize(BinlogSplit split) {
        try {
            return CapstanSplitSerializer.INSTANCE.serialize(split).length;
        } catch (IOException e) {
            return -1; // only for the log line; the assignment serializes it again and fails
        }
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
}

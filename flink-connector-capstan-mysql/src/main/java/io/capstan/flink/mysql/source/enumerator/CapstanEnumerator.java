package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.event.BinlogPausedEvent;
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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import static io.capstan.flink.mysql.source.enumerator.EnumeratorFailures.fail;

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
    private final SnapshotRetentionMonitor retentionMonitor;
    private final HandoffStartWatcher handoffStartWatcher;
    private final RestoredSplitHandshake handshake;

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
        this.retentionMonitor = new SnapshotRetentionMonitor(clockMillis, metrics);
        this.retentionMonitor.rowsPerSecondLimit(planning.loadLimits().maxRowsPerSecond());
        this.handoffStartWatcher =
                new HandoffStartWatcher(
                        context,
                        planning,
                        tracker,
                        retentionMonitor,
                        handoffStartWatchPeriod,
                        !mode.isBounded()
                                && mode.readsSnapshot()
                                && tracker.phase() != EnumeratorPhase.STREAMING
                                && tracker.phase() != EnumeratorPhase.FINISHED);
        this.handshake = new RestoredSplitHandshake(context, planning, tracker);
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
        if (handoffStartWatcher.watching()) {
            handoffStartWatcher.start();
            tracker.book().ifPresent(handoffStartWatcher::estimateSnapshot); // a restored snapshot
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

    /** After the restore handshake's answer: plan the added tables, or stop asking the server. */
    private void afterHandshake() {
        if (tracker.phase() == EnumeratorPhase.ADDING_TABLES) {
            handoffStartWatcher.watchPauseStart();
            planMore();
        } else if (tracker.book().isEmpty()) {
            planning.close(); // nothing more to ask until another restore
        }
        serveWaiting();
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
        if (handoffStartWatcher
                .watching()) { // after the first chunks' planning: it may take a while
            tracker.book().ifPresent(handoffStartWatcher::estimateSnapshot);
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
            handshake.restored(subtaskId, restored.tables(), this::afterHandshake);
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
        handshake.readerRegistered(subtaskId);
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
}

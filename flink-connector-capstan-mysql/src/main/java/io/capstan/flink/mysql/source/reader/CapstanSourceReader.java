package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.compat.JobCheckpointing;
import io.capstan.flink.mysql.proxy.MySqlProxies;
import io.capstan.flink.mysql.snapshot.read.SnapshotThrottle;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SnapshotLoadLimits;
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
import io.capstan.flink.mysql.source.split.CapstanSplitState;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import io.capstan.flink.mysql.source.split.SplitKind;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The source reader: one fetcher thread reads chunk splits (a whole chunk per element) and then
 * streams the binlog split; the task thread emits and keeps the split state. Pull model: it asks
 * the enumerator for splits so as to hold a chunk ahead of the one being emitted ({@link
 * SplitRequestPacer}), so reading and emitting overlap.
 *
 * <p>Chunk completions stay in this reader's checkpointed state (as completed chunk splits) until
 * the enumerator acknowledges them, and are sent again after a restore; chunks a restore brings
 * back unread are reported so that the enumerator forgets completions of reads that were rolled
 * back.
 *
 * <p>A restored binlog split streams only once the enumerator answered the restore handshake
 * ({@link BinlogSplitRestoredEvent}, one round trip): the configured table list may have changed,
 * and the split's table list is what the job captures. Tables the list no longer selects leave the
 * split at a transaction boundary ({@link BinlogBoundaryStop}). When tables are added, the split is
 * held at a transaction boundary P (reported with a {@link BinlogPausedEvent}) while this reader
 * reads chunks like any other, until the enumerator resumes it with the added tables.
 */
@Internal
public final class CapstanSourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<
                SourceElement, T, CapstanSplit, CapstanSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(CapstanSourceReader.class);

    /** Completed chunks not yet acknowledged, by split id (task thread only). */
    private final Map<String, SnapshotChunkSplit> unacknowledged = new LinkedHashMap<>();

    /** Unread chunks restored before start(), reported in start(). */
    private final List<String> reopened = new ArrayList<>();

    private boolean started;
    private final SplitRequestPacer requests = new SplitRequestPacer();

    /** Outlives the split readers: connections and read specs stay open across chunks. */
    private final ChunkFetcher chunks;

    private final CapstanReaderMetrics metrics;

    /** The restored binlog split until the enumerator lets it stream (checkpointed). */
    private final HeldBinlogSplit heldBinlog;

    private CapstanSourceReader(
            MySqlProxies mysql,
            CapstanReaderMetrics metrics,
            ChunkFetcher chunks,
            BinlogBoundaryStop binlogStop,
            CapstanDeserializer<T> deserializer,
            Configuration flinkConfig,
            SourceReaderContext context) {
        super(
                () ->
                        new CapstanSplitReader(
                                chunks,
                                new BinlogFetcher(
                                        mysql, ServerGtidPoller.INTERVAL, metrics, binlogStop)),
                new CapstanRecordEmitter<>(deserializer, metrics),
                flinkConfig,
                context);
        this.chunks = chunks;
        this.metrics = metrics;
        this.heldBinlog =
                new HeldBinlogSplit(
                        binlogStop,
                        split -> super.addSplits(List.of(split)),
                        context::sendSourceEventToCoordinator,
                        () -> {
                            requests.reopen();
                            requestSplitIfRoom();
                        });
    }

    /**
     * A reader of the source configured by {@code config} that reaches MySQL only through {@code
     * mysql} (the server's proxies in production, fakes in tests).
     */
    public static <T> CapstanSourceReader<T> create(
            CapstanSourceConfig config,
            MySqlProxies mysql,
            CapstanDeserializer<T> deserializer,
            SourceReaderContext context) {
        CapstanReaderMetrics metrics =
                new CapstanReaderMetrics(context.metricGroup(), config.snapshot().chunkSize());
        SnapshotLoadLimits limits = config.snapshot().loadLimits();
        SnapshotThrottle throttle =
                SnapshotThrottle.share(
                        limits.maxRowsPerSecond(),
                        limits.chunkReaders(context.currentParallelism()),
                        System::nanoTime);
        ChunkFetcher chunks =
                new ChunkFetcher(
                        mysql.snapshotJdbc(), config.snapshot().readOptions(), throttle, metrics);
        return new CapstanSourceReader<>(
                mysql,
                metrics,
                chunks,
                new BinlogBoundaryStop(),
                deserializer,
                context.getConfiguration(),
                context);
    }

    @Override
    public void close() throws Exception {
        // First fail a chunk read in flight: super.close() waits for the fetcher thread, which
        // may be waiting for a table lock or on a dead socket.
        chunks.abort();
        try {
            super.close();
        } finally {
            chunks.close();
        }
    }

    @Override
    public void start() {
        started = true;
        context.sendSourceEventToCoordinator(
                new ReaderCheckpointingEvent(
                        checkpointingEnabled(context), unalignedCheckpoints(context)));
        if (!reopened.isEmpty()) {
            context.sendSourceEventToCoordinator(new ChunksReopenedEvent(reopened));
            reopened.clear();
        }
        if (!unacknowledged.isEmpty()) {
            context.sendSourceEventToCoordinator(
                    new ChunksCompletedEvent(new ArrayList<>(unacknowledged.values())));
        }
        heldBinlog.readerStarted();
        requestSplitIfRoom();
    }

    private void requestSplitIfRoom() {
        if (requests.shouldRequest()) {
            context.sendSplitRequest();
        }
    }

    @Override
    public void addSplits(List<CapstanSplit> splits) {
        List<CapstanSplit> toRead = new ArrayList<>(splits.size());
        List<SnapshotChunkSplit> completed = new ArrayList<>();
        if (started) {
            requests.answered(); // splits come only in answer to a request, restored ones before
            // start()
        }
        for (CapstanSplit split : splits) {
            switch (split.kind()) {
                case SNAPSHOT_CHUNK:
                    SnapshotChunkSplit chunk = split.asSnapshotChunkSplit();
                    if (chunk.isCompleted()) {
                        // Restored: emitted before the checkpoint, never read again.
                        unacknowledged.put(chunk.splitId(), chunk);
                        completed.add(chunk);
                        continue;
                    }
                    if (!started) {
                        reopened.add(chunk.splitId());
                    }
                    requests.chunksAdded(1);
                    metrics.chunkAssigned();
                    toRead.add(split);
                    break;
                default:
                    requests.noMoreRequests(); // the binlog split: the last this reader gets
                    if (!started) {
                        heldBinlog.restored(split.asBinlogSplit()); // the handshake first
                        continue;
                    }
                    toRead.add(split);
            }
        }
        if (started && !completed.isEmpty()) {
            context.sendSourceEventToCoordinator(new ChunksCompletedEvent(completed));
        }
        if (!toRead.isEmpty()) {
            super.addSplits(toRead);
        }
        if (started) {
            requestSplitIfRoom();
        }
    }

    @Override
    public void notifyNoMoreSplits() {
        requests.answered();
        requests.noMoreRequests();
        super.notifyNoMoreSplits();
    }

    @Override
    protected void onSplitFinished(Map<String, CapstanSplitState> finishedSplitIds) {
        List<SnapshotChunkSplit> completed = new ArrayList<>();
        for (CapstanSplitState state : finishedSplitIds.values()) {
            if (state.kind() == SplitKind.BINLOG) {
                heldBinlog.stoppedAtBoundary(state.asBinlogSplitState().toSplit());
                continue;
            }
            SnapshotChunkSplit split = state.asSnapshotChunkSplitState().toSplit();
            if (!split.isCompleted()) {
                throw new IllegalStateException(
                        "chunk " + split.splitId() + " finished without completion");
            }
            unacknowledged.put(split.splitId(), split);
            completed.add(split);
        }
        if (completed.isEmpty()) {
            return;
        }
        context.sendSourceEventToCoordinator(new ChunksCompletedEvent(completed));
        requests.chunksFinished(completed.size());
        requestSplitIfRoom();
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        if (sourceEvent instanceof ChunksAcknowledgedEvent) {
            for (String id : ((ChunksAcknowledgedEvent) sourceEvent).splitIds()) {
                unacknowledged.remove(id);
            }
        } else if (sourceEvent instanceof BinlogSplitResumeEvent resume) {
            BinlogSplit added = resume.added();
            if (added == null) {
                heldBinlog.resume(resume.removedTables());
            } else {
                requests.noMoreRequests();
                heldBinlog.resumeWithAddedTables(added);
            }
        } else if (sourceEvent instanceof BinlogSplitPauseEvent pause) {
            heldBinlog.pause(pause.removedTables());
        } else {
            // An enumerator of another version, or a bug: never dropped silently.
            throw new IllegalStateException(
                    "unknown source event " + sourceEvent.getClass().getName());
        }
    }

    @Override
    public List<CapstanSplit> snapshotState(long checkpointId) {
        List<CapstanSplit> splits = super.snapshotState(checkpointId);
        heldBinlog.held().ifPresent(splits::add); // not streaming: as restored, or at P
        splits.addAll(unacknowledged.values());
        return splits;
    }

    @Override
    protected CapstanSplitState initializedState(CapstanSplit split) {
        return CapstanSplitState.of(split);
    }

    @Override
    protected CapstanSplit toSplitType(String splitId, CapstanSplitState splitState) {
        return splitState.toSplit();
    }

    /** Whether the job's checkpoints may be unaligned; false when the reader cannot tell. */
    static boolean unalignedCheckpoints(SourceReaderContext context) {
        JobCheckpointing job = JobCheckpointing.of(context);
        return job != null && job.unaligned();
    }

    /** Whether the job checkpoints, from its configuration (only readers can see it). */
    static boolean checkpointingEnabled(SourceReaderContext context) {
        JobCheckpointing job = JobCheckpointing.of(context);
        if (job != null) {
            return job.enabled();
        }
        LOG.warn(
                "Cannot tell whether the job checkpoints; assuming it does (the snapshot hands over"
                        + " to the binlog after a checkpoint)");
        return true;
    }
}

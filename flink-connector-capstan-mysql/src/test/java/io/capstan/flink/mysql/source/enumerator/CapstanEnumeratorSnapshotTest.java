package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.event.ChunksAcknowledgedEvent;
import io.capstan.flink.mysql.source.event.ChunksCompletedEvent;
import io.capstan.flink.mysql.source.event.ChunksReopenedEvent;
import io.capstan.flink.mysql.source.event.ReaderCheckpointingEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import io.capstan.flink.mysql.source.split.SplitKind;

import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The enumerator in the snapshot modes, through Flink's testing context with a fake planning:
 * order, checkpoint wait, dedup, restores.
 */
class CapstanEnumeratorSnapshotTest {

    static final ChunkKey KEY = TestKeys.bigint();
    static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    /** Plans {@code total} chunks of 100 keys each, one table; counts calls. */
    static final class FakePlanning implements SnapshotPlanning {
        final int total;
        final AtomicInteger planCalls = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        RuntimeException resolveFailure;

        FakePlanning(int total) {
            this.total = total;
        }

        @Override
        public List<SnapshotTable> resolveTables() {
            if (resolveFailure != null) {
                throw resolveFailure;
            }
            return List.of(new SnapshotTable(KEY, 42L));
        }

        /** What gtid_purged says; how often it was asked. */
        volatile GtidSet purged = GtidSet.empty();

        final AtomicInteger purgedChecks = new AtomicInteger();

        @Override
        public GtidSet gtidPurged() {
            purgedChecks.incrementAndGet();
            return purged;
        }

        /** What the retention facts say; the keys of each ask. */
        volatile SnapshotPlanning.RetentionFacts retention =
                new SnapshotPlanning.RetentionFacts(
                        java.util.Optional.empty(), java.util.OptionalLong.empty());

        final List<List<ChunkKey>> retentionAsks =
                new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public SnapshotPlanning.RetentionFacts retentionFacts(List<ChunkKey> estimateRowsOf) {
            retentionAsks.add(estimateRowsOf);
            return estimateRowsOf.isEmpty()
                    ? new SnapshotPlanning.RetentionFacts(
                            retention.retention(), java.util.OptionalLong.empty())
                    : retention;
        }

        @Override
        public String serverAddress() {
            return "localhost:3306";
        }

        @Override
        public void checkRestoredTables(List<TableId> inState) {
            RestoredTableList.check(inState, List.of(KEY.table()), List.of(KEY.table()));
        }

        @Override
        public RestoredSplitCheck checkRestoredSplit(List<TableId> inSplit) {
            RestoredTableList.SplitTableChange change =
                    RestoredTableList.splitChange(
                            inSplit, List.of(KEY.table()), List.of(KEY.table()), false);
            return new RestoredSplitCheck(change.removed(), List.of());
        }

        @Override
        public Planned planMore(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) {
            planCalls.incrementAndGet();
            int next = states.get(0).nextIndex();
            List<SnapshotChunk> chunks = new ArrayList<>();
            while (chunks.size() < max && next < total) {
                KeyTuple low = next == 0 ? null : KeyTuple.of(100L * next);
                KeyTuple high = next == total - 1 ? null : KeyTuple.of(100L * (next + 1));
                chunks.add(new SnapshotChunk(KEY.table(), next, ChunkRange.of(low, high)));
                next++;
            }
            ChunkPlannerState.Mode mode =
                    next == total ? ChunkPlannerState.Mode.FINISHED : ChunkPlannerState.Mode.QUERY;
            return new Planned(
                    chunks,
                    List.of(
                            new ChunkPlannerState(
                                    KEY.table(),
                                    mode,
                                    next,
                                    next == total ? null : KeyTuple.of(100L * next),
                                    null)));
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    /** The snapshot modes never plan a binlog split of their own. */
    static final class UnusedBinlogPlanner implements BinlogSplitPlanner {
        @Override
        public BinlogSplit planNewSplit() {
            throw new AssertionError("the snapshot modes build the binlog split from the chunks");
        }

        @Override
        public void verifyBeforeAssigning(BinlogSplit split) {
            throw new AssertionError("no binlog split planned before a restore here");
        }
    }

    private TestingSplitEnumeratorContext<CapstanSplit> context;

    private static SnapshotBook book(CapstanEnumerator e) {
        return e.tracker().book().orElseThrow();
    }

    private CapstanEnumerator start(int parallelism, int chunks, boolean stream, EnumState state) {
        context = new TestingSplitEnumeratorContext<>(parallelism);
        for (int i = 0; i < parallelism; i++) {
            context.registerReader(i, "localhost");
        }
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        stream ? StartupMode.INITIAL : StartupMode.SNAPSHOT,
                        new FakePlanning(chunks),
                        new UnusedBinlogPlanner(),
                        state);
        e.start();
        context.triggerAllActions();
        return e;
    }

    private List<CapstanSplit> assigned(int subtask) {
        var a = context.getSplitAssignments().get(subtask);
        return a == null ? List.of() : a.getAssignedSplits();
    }

    private SnapshotChunkSplit lastChunk(int subtask) {
        List<CapstanSplit> s = assigned(subtask);
        return s.get(s.size() - 1).asSnapshotChunkSplit();
    }

    private static GtidSet g(long last) {
        return GtidSet.parse(UUID + ":1-" + last);
    }

    private void complete(CapstanEnumerator e, int subtask, SnapshotChunkSplit split, long gLast) {
        e.handleSourceEvent(
                subtask,
                new ChunksCompletedEvent(
                        List.of(split.withCompletion(new ChunkCompletion(g(gLast), 100)))));
    }

    /** Reader asks, gets a chunk, completes it, asks again ... until no chunk comes. */
    private int drain(CapstanEnumerator e, int subtask, long gLast) {
        int n = 0;
        while (true) {
            int before = assigned(subtask).size();
            e.handleSplitRequest(subtask, "localhost");
            context.triggerAllActions();
            if (assigned(subtask).size() == before) {
                return n;
            }
            CapstanSplit s = assigned(subtask).get(assigned(subtask).size() - 1);
            if (s.kind() != SplitKind.SNAPSHOT_CHUNK) {
                return n;
            }
            complete(e, subtask, s.asSnapshotChunkSplit(), gLast + n);
            n++;
        }
    }

    @Test
    void chunksGoOutInOrderAndTheBinlogWaitsForACheckpointAfterTheLastCompletion() {
        CapstanEnumerator e = start(2, 5, true, EnumState.initial());
        e.handleSourceEvent(0, new ReaderCheckpointingEvent(true, false));
        e.snapshotState(5); // taken before any completion
        assertThat(drain(e, 0, 100)).isEqualTo(5);
        List<Integer> indexes = new ArrayList<>();
        assigned(0).forEach(s -> indexes.add(s.asSnapshotChunkSplit().chunk().index()));
        assertThat(indexes).containsExactly(0, 1, 2, 3, 4);
        // every completion acknowledged to its reader
        assertThat(context.getSentEvents().get(0))
                .hasSize(5)
                .allMatch(ev -> ev instanceof ChunksAcknowledgedEvent);

        e.handleSplitRequest(1, "localhost"); // the other reader asks too: both wait
        assertThat(assigned(0)).hasSize(5);
        assertThat(assigned(1)).isEmpty();
        e.notifyCheckpointComplete(5); // taken before the completions: confirms nothing
        assertThat(e.tracker().handoffConfirmed()).isFalse();
        assertThat(assigned(0)).hasSize(5).allMatch(s -> s.kind() == SplitKind.SNAPSHOT_CHUNK);
        assertThat(assigned(1)).isEmpty();
        e.snapshotState(7); // holds every completion
        e.notifyCheckpointComplete(7);
        // the first reader to ask (0 asked last after its last chunk, 1 after it) gets the binlog
        List<CapstanSplit> all = new ArrayList<>(assigned(0));
        all.addAll(assigned(1));
        BinlogSplit binlog =
                all.stream()
                        .filter(s -> s.kind() == SplitKind.BINLOG)
                        .findFirst()
                        .orElseThrow()
                        .asBinlogSplit();
        assertThat(binlog.start().processed()).isEqualTo(g(100)); // the intersection of the G
        assertThat(binlog.gate().chunkCount()).isEqualTo(5);
        assertThat(
                        context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()
                                || context.getSplitAssignments()
                                        .get(1)
                                        .hasReceivedNoMoreSplitsSignal())
                .isTrue();
        // once a checkpoint after the assignment completes, the chunks leave the enumerator state
        assertThat(e.snapshotState(8).snapshot()).isNotNull();
        e.notifyCheckpointComplete(8);
        assertThat(e.snapshotState(9).snapshot()).isNull();
        assertThat(e.snapshotState(9).binlogSplitAssigned()).isTrue();
    }

    @Test
    void aCompletionAfterTheEnumeratorsCheckpointNeedsALaterCheckpoint() {
        CapstanEnumerator e = start(2, 2, true, EnumState.initial());
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        SnapshotChunkSplit first = lastChunk(0);
        e.handleSplitRequest(1, "localhost");
        SnapshotChunkSplit second = lastChunk(1);
        complete(e, 0, first, 10);
        e.snapshotState(3);
        complete(e, 1, second, 11); // after checkpoint 3's enumerator snapshot
        e.handleSplitRequest(0, "localhost");
        e.notifyCheckpointComplete(3);
        assertThat(assigned(0)).hasSize(1); // checkpoint 3 lacks the last completion
        e.snapshotState(4);
        e.notifyCheckpointComplete(4);
        assertThat(assigned(0).get(1).kind()).isEqualTo(SplitKind.BINLOG);
    }

    @Test
    void resentAndRepeatedCompletionsCountOnceAndAReReadReplacesTheOldG() {
        CapstanEnumerator e = start(2, 2, true, EnumState.initial());
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        SnapshotChunkSplit c0 = lastChunk(0);
        complete(e, 0, c0, 10);
        complete(e, 0, c0, 10); // resent after a restore: same read
        assertThat(book(e).finishedCount()).isEqualTo(1);
        // the reader restored a checkpoint holding c0 unread: the completion is void
        e.handleSourceEvent(0, new ChunksReopenedEvent(List.of(c0.splitId())));
        assertThat(book(e).finishedCount()).isZero();
        complete(e, 0, c0, 20); // read again at a new G
        e.handleSplitRequest(1, "localhost");
        SnapshotChunkSplit c1 = lastChunk(1);
        complete(e, 1, c1, 30);
        e.handleSplitRequest(0, "localhost");
        e.snapshotState(1);
        e.notifyCheckpointComplete(1);
        BinlogSplit binlog = assigned(0).get(1).asBinlogSplit();
        assertThat(binlog.start().processed()).isEqualTo(g(20)); // not 10: the read that counts
        assertThat(
                        binlog.gate()
                                .suppress(
                                        KEY.table(),
                                        KeyTuple.of(5L),
                                        io.capstan.flink.mysql.gtid.Gtid.of(UUID, 15)))
                .isTrue();
    }

    @Test
    void aChunkReturnedByAFailedReaderIsReadAgainAndItsCompletionDropped() {
        CapstanEnumerator e = start(2, 1, true, EnumState.initial());
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        SnapshotChunkSplit c0 = lastChunk(0);
        complete(e, 0, c0, 10);
        e.addSplitsBack(List.of(c0), 0); // assigned after the reader's last checkpoint
        assertThat(book(e).finishedCount()).isZero();
        e.handleSplitRequest(1, "localhost");
        assertThat(lastChunk(1).splitId()).isEqualTo(c0.splitId());
        assertThat(lastChunk(1).isCompleted()).isFalse();
    }

    @Test
    void parallelismOneAndNoCheckpointingHandOverWithoutWaiting() {
        CapstanEnumerator one = start(1, 2, true, EnumState.initial());
        drain(one, 0, 10);
        assertThat(assigned(0).get(assigned(0).size() - 1).kind()).isEqualTo(SplitKind.BINLOG);

        CapstanEnumerator noCheckpoints = start(2, 2, true, EnumState.initial());
        noCheckpoints.handleSourceEvent(0, new ReaderCheckpointingEvent(false, false));
        drain(noCheckpoints, 0, 10);
        assertThat(assigned(0).get(assigned(0).size() - 1).kind()).isEqualTo(SplitKind.BINLOG);
    }

    @Test
    void unalignedCheckpointsHaltTheJobWhileTheHandoffIsAheadAtParallelismTwo() {
        CapstanEnumerator e = start(2, 2, true, EnumState.initial());
        assertThatThrownBy(() -> e.handleSourceEvent(0, new ReaderCheckpointingEvent(true, true)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        h -> assertThat(h.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION))
                .hasMessageContaining("execution.checkpointing.unaligned.enabled");

        // Without checkpointing there is no barrier to overtake: not refused, and no wait.
        CapstanEnumerator off = start(2, 2, true, EnumState.initial());
        off.handleSourceEvent(0, new ReaderCheckpointingEvent(false, true));
        assertThat(drain(off, 0, 10)).isEqualTo(2);
        assertThat(assigned(0).get(assigned(0).size() - 1).kind()).isEqualTo(SplitKind.BINLOG);
    }

    @Test
    void aReturnedBinlogSplitIsRebuiltFromTheChunksWhileTheyAreKept() {
        CapstanEnumerator e = start(1, 1, true, EnumState.initial());
        drain(e, 0, 10);
        CapstanSplit binlog = assigned(0).get(1);
        assertThat(binlog.kind()).isEqualTo(SplitKind.BINLOG);
        // The reader failed before a checkpoint; its restored state has the chunk unread.
        e.addSplitsBack(List.of(binlog), 0);
        e.handleSourceEvent(0, new ChunksReopenedEvent(List.of(assigned(0).get(0).splitId())));
        e.handleSplitRequest(0, "localhost");
        assertThat(assigned(0)).hasSize(2); // no binlog split with the stale G
        complete(e, 0, assigned(0).get(0).asSnapshotChunkSplit(), 40);
        e.handleSplitRequest(0, "localhost");
        assertThat(assigned(0).get(2).asBinlogSplit().start().processed()).isEqualTo(g(40));
    }

    @Test
    void snapshotModeEndsWithNoMoreSplits() {
        CapstanEnumerator e = start(2, 3, false, EnumState.initial());
        drain(e, 0, 10);
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(assigned(0)).allMatch(s -> s.kind() == SplitKind.SNAPSHOT_CHUNK).hasSize(3);
    }

    /**
     * A reader asks for its next split while it still holds unfinished chunks. "No more splits"
     * must wait until every chunk is complete and acknowledged: told earlier, the reader ends after
     * emitting its chunks, and the acknowledgement of its last completion then reaches an ended
     * task, which fails the job.
     */
    @Test
    void snapshotModeSaysNoMoreSplitsOnlyOnceEveryChunkIsComplete() {
        CapstanEnumerator e = start(2, 3, false, EnumState.initial());
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        e.handleSplitRequest(0, "localhost"); // reads ahead: two chunks in hand
        context.triggerAllActions();
        e.handleSplitRequest(1, "localhost");
        context.triggerAllActions();
        assertThat(assigned(0)).hasSize(2);
        assertThat(assigned(1)).hasSize(1);
        e.handleSplitRequest(0, "localhost"); // asks again, its chunks unfinished
        context.triggerAllActions();
        complete(e, 0, assigned(0).get(0).asSnapshotChunkSplit(), 10);
        complete(e, 0, assigned(0).get(1).asSnapshotChunkSplit(), 11);
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal())
                .as("another reader's chunk is still unfinished")
                .isFalse();
        complete(e, 1, assigned(1).get(0).asSnapshotChunkSplit(), 12);
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(context.getSentEvents().get(0)).hasSize(2); // both acknowledged before
    }

    @Test
    void planningIsLazyAndRunsOffTheCoordinatorThread() {
        context = new TestingSplitEnumeratorContext<>(2);
        FakePlanning planning = new FakePlanning(1_000);
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        planning,
                        new UnusedBinlogPlanner(),
                        EnumState.initial());
        e.start();
        assertThat(planning.planCalls).hasValue(0);
        context.triggerAllActions();
        assertThat(book(e).pendingCount())
                .isEqualTo(SplitAssignmentTracker.CHUNKS_AHEAD_PER_READER * 2); // not 1,000
        assertThat(book(e).planningFinished()).isFalse();
    }

    @Test
    void restoreKeepsCompletionsAndConfirmsTheHandoffFromTheCheckpointItself() throws Exception {
        CapstanEnumerator e = start(2, 2, true, EnumState.initial());
        drain(e, 0, 10);
        EnumState state = e.snapshotState(12);
        byte[] bytes = EnumStateSerializer.INSTANCE.serialize(state);
        EnumState restoredState =
                EnumStateSerializer.INSTANCE.deserialize(
                        EnumStateSerializer.INSTANCE.getVersion(), bytes);
        assertThat(restoredState).isEqualTo(state);

        CapstanEnumerator restored = start(2, 2, true, restoredState);
        assertThat(book(restored).finishedCount()).isEqualTo(2);
        assertThat(restored.tracker().handoffConfirmed())
                .isTrue(); // checkpoint 12 held every completion
        // Nothing is left for a barrier to overtake: unaligned checkpoints may be enabled now.
        restored.handleSourceEvent(1, new ReaderCheckpointingEvent(true, true));
        restored.handleSplitRequest(1, "localhost");
        assertThat(assigned(1).get(0).kind()).isEqualTo(SplitKind.BINLOG);
    }

    /** Readers 0 and 1 run; reader 2 failed (it is not registered). */
    private CapstanEnumerator startWithFailedReader(FakePlanning planning) {
        context = new TestingSplitEnumeratorContext<>(3);
        context.registerReader(0, "localhost");
        context.registerReader(1, "localhost");
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        planning,
                        new UnusedBinlogPlanner(),
                        EnumState.initial());
        e.start();
        context.triggerAllActions();
        return e;
    }

    @Test
    void aFailedReaderIsNeitherAcknowledgedNorServedButItsCompletionCounts() {
        CapstanEnumerator e = startWithFailedReader(new FakePlanning(3));
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        SnapshotChunkSplit c0 = lastChunk(0);
        // Reader 2 asked and sent a completion just before it failed.
        e.handleSplitRequest(2, "localhost");
        complete(e, 2, c0, 10);
        assertThat(context.getSentEvents().get(2))
                .as("an event to a dead reader fails the job")
                .isNullOrEmpty();
        assertThat(assigned(2)).as("it asks again after its restart").isEmpty();
        assertThat(book(e).finishedCount()).isEqualTo(1);
        context.registerReader(2, "localhost");
        e.handleSplitRequest(1, "localhost");
        assertThat(assigned(2)).isEmpty(); // forgotten, not served behind reader 1
        assertThat(assigned(1)).hasSize(1);
    }

    @Test
    void aChunkReturnedByAFailedReaderGoesToAReaderAlreadyWaiting() {
        CapstanEnumerator e = start(2, 1, true, EnumState.initial());
        e.handleSplitRequest(0, "localhost");
        SnapshotChunkSplit c0 = lastChunk(0);
        e.handleSplitRequest(1, "localhost");
        assertThat(assigned(1)).isEmpty();
        e.addSplitsBack(List.of(c0), 0);
        assertThat(assigned(1)).hasSize(1);
        assertThat(lastChunk(1).splitId()).isEqualTo(c0.splitId());
    }

    @Test
    void planningLetsGoOfTheServerOnceEveryChunkIsPlannedAndOnClose() {
        FakePlanning planning = new FakePlanning(3);
        CapstanEnumerator e = startWithFailedReader(planning);
        assertThat(book(e).planningFinished()).isTrue();
        assertThat(planning.closes).hasValue(1);
        e.close();
        assertThat(planning.closes).hasValue(2);
    }

    @Test
    void aTableResolutionFailureFailsTheJobWithItsCause() {
        FakePlanning planning = new FakePlanning(3);
        planning.resolveFailure =
                new CapstanHaltException(
                        HaltReason.BINLOG_FORMAT_NOT_ROW, "binlog_format is MIXED");
        context = new TestingSplitEnumeratorContext<>(1);
        context.registerReader(0, "localhost");
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        planning,
                        new UnusedBinlogPlanner(),
                        EnumState.initial());
        e.start();
        e.handleSplitRequest(0, "localhost");
        assertThatThrownBy(context::triggerAllActions)
                .hasStackTraceContaining("binlog_format_not_row");
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.RESOLVING_TABLES);
        assertThat(assigned(0)).isEmpty();
    }

    @Test
    void aPurgeOfTheHandoffsStartHaltsTheSnapshotEarlyWithDataGap() {
        context = new TestingSplitEnumeratorContext<>(1);
        context.registerReader(0, "localhost");
        FakePlanning planning = new FakePlanning(10);
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        planning,
                        new UnusedBinlogPlanner(),
                        EnumState.initial(),
                        java.time.Duration.ofMillis(10));
        e.start();
        context.triggerAllActions();
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        complete(e, 0, lastChunk(0), 50); // the handoff will start at or before UUID:1-50
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        complete(e, 0, lastChunk(0), 80);

        // The test context runs the periodic call and its handler together: a halt the handler
        // throws ends the periodic task's future (in Flink it fails the job).
        java.util.concurrent.ScheduledFuture<?> watch =
                context.getExecutorService().getAllPeriodicScheduledTask().get(0);
        planning.purged = g(50); // purged up to the start: still there
        context.getExecutorService().triggerPeriodicScheduledTasks();
        assertThat(planning.purgedChecks.get()).isPositive();
        assertThat(watch.isDone()).isFalse();

        planning.purged = g(60); // 51-60 are gone, the handoff needs them
        context.getExecutorService().triggerPeriodicScheduledTasks();
        assertThat(watch.isDone()).isTrue();
        assertThatThrownBy(watch::get)
                .hasStackTraceContaining("data_gap")
                .hasStackTraceContaining("10 transaction(s)")
                .hasStackTraceContaining("binlog_expire_logs_seconds")
                .hasStackTraceContaining("parallelism");
    }

    /** The purge watch ends with the handoff and lets go of the connection its last look opened. */
    @Test
    void thePurgeWatchStopsAndClosesItsConnectionOnceTheHandoffHappened() {
        context = new TestingSplitEnumeratorContext<>(1);
        context.registerReader(0, "localhost");
        FakePlanning planning = new FakePlanning(1);
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        planning,
                        new UnusedBinlogPlanner(),
                        EnumState.initial(),
                        java.time.Duration.ofMillis(10));
        e.start();
        context.triggerAllActions();
        assertThat(drain(e, 0, 40)).isEqualTo(1);
        e.snapshotState(3);
        e.notifyCheckpointComplete(3);
        e.handleSplitRequest(0, "localhost");
        context.triggerAllActions();
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.STREAMING);
        int closedBefore = planning.closes.get();

        context.getExecutorService().triggerPeriodicScheduledTasks();
        int looks = planning.purgedChecks.get();
        assertThat(planning.closes.get()).isGreaterThan(closedBefore);
        context.getExecutorService().triggerPeriodicScheduledTasks();
        assertThat(planning.purgedChecks.get()).as("no look after the handoff").isEqualTo(looks);
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.source.SnapshotLoadLimits;
import io.capstan.flink.mysql.source.enumerator.SplitAssignmentTracker.PlanRequest;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import io.capstan.flink.mysql.source.split.SplitKind;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.AWAITING_HANDOFF_CHECKPOINT;
import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.BINLOG_SPLIT_READY;
import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.FINISHED;
import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.PREPARING_BINLOG_SPLIT;
import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.RESOLVING_TABLES;
import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.SNAPSHOTTING;
import static io.capstan.flink.mysql.source.enumerator.EnumeratorPhase.STREAMING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The enumerator's rules without Flink: every phase transition, the answers to requests in each
 * phase, the completion/reopen/add-back bookkeeping, the handoff and book-drop checkpoints, and a
 * restore from every kind of state.
 */
class SplitAssignmentTrackerTest {

    static final ChunkKey KEY = TestKeys.bigint();
    static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    static final BinlogSplit PLANNED =
            new BinlogSplit(List.of(KEY.table()), BinlogStartPosition.of(g(50)));
    static final IntPredicate ALL_REGISTERED = subtask -> true;

    private int parallelism = 2;

    private static GtidSet g(long last) {
        return GtidSet.parse(UUID + ":1-" + last);
    }

    // ---- helpers ----

    /** A tracker whose single table has {@code chunks} chunks, all planned, none handed out. */
    private SplitAssignmentTracker snapshotting(StartupMode mode, int chunks) {
        SplitAssignmentTracker t = SplitAssignmentTracker.restore(mode, EnumState.initial());
        t.tablesResolved(List.of(new SnapshotTable(KEY, 42L)));
        planAll(t, chunks);
        return t;
    }

    private void planAll(SplitAssignmentTracker t, int chunks) {
        CapstanEnumeratorSnapshotTest.FakePlanning planning =
                new CapstanEnumeratorSnapshotTest.FakePlanning(chunks);
        PlanRequest r = t.startPlanning(1_000).orElseThrow(); // as many as there are
        SnapshotPlanning.Planned planned = planning.planMore(r.keys(), r.states(), r.max());
        assertThat(t.planned(planned.chunks(), planned.states())).isTrue();
    }

    private List<SplitReply> ask(SplitAssignmentTracker t, int subtask) {
        t.splitRequested(subtask);
        return t.serveWaiting(ALL_REGISTERED, parallelism);
    }

    private SnapshotChunkSplit takeChunk(SplitAssignmentTracker t, int subtask) {
        List<SplitReply> replies = ask(t, subtask);
        assertThat(replies).hasSize(1);
        return ((SplitReply.Assign) replies.get(0)).split().asSnapshotChunkSplit();
    }

    private static SnapshotChunkSplit done(SnapshotChunkSplit chunk, long gLast) {
        return chunk.withCompletion(new ChunkCompletion(g(gLast), 10));
    }

    /** Hands out and completes every chunk; returns them completed, in order. */
    private List<SnapshotChunkSplit> readAll(SplitAssignmentTracker t, int chunks) {
        List<SnapshotChunkSplit> out = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            SnapshotChunkSplit c = done(takeChunk(t, 0), 100 + i);
            assertThat(t.chunksCompleted(List.of(c))).isTrue();
            out.add(c);
        }
        return out;
    }

    private static CapstanSplit assigned(List<SplitReply> replies) {
        assertThat(replies).hasSize(1);
        assertThat(replies.get(0)).isInstanceOf(SplitReply.Assign.class);
        return ((SplitReply.Assign) replies.get(0)).split();
    }

    private static void assertNoMoreSplits(List<SplitReply> replies, int subtask) {
        assertThat(replies).containsExactly(new SplitReply.NoMoreSplits(subtask));
    }

    // ---- new jobs ----

    @Test
    void aNewSnapshotJobResolvesTablesWhileRequestsWait() {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, EnumState.initial());
        assertThat(t.phase()).isEqualTo(RESOLVING_TABLES);
        assertThat(t.binlogSplitToVerify()).isEmpty();
        assertThat(ask(t, 0)).isEmpty();
        assertThat(t.startPlanning(2)).isEmpty(); // nothing to plan before the tables
        assertThat(t.checkpoint(1)).isEqualTo(EnumState.initial());

        t.tablesResolved(List.of(new SnapshotTable(KEY, 42L)));
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        assertThat(t.serveWaiting(ALL_REGISTERED, 2)).isEmpty(); // nothing planned yet
        assertThat(t.checkpoint(2).snapshot()).isNotNull();
    }

    @Test
    void aNewStreamJobPlansTheBinlogSplitThenHandsItToTheFirstReaderThatAsked() {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.LATEST, EnumState.initial());
        assertThat(t.phase()).isEqualTo(PREPARING_BINLOG_SPLIT);
        assertThat(t.binlogSplitToVerify()).isEmpty(); // plan one
        assertThat(ask(t, 2)).isEmpty();
        assertThat(ask(t, 0)).isEmpty();
        assertThat(t.checkpoint(1)).isEqualTo(EnumState.initial());

        t.binlogSplitPrepared(PLANNED);
        assertThat(t.phase()).isEqualTo(BINLOG_SPLIT_READY);
        assertThat(t.checkpoint(2))
                .isEqualTo(new EnumState(PLANNED, false, null, PLANNED.tables()));
        List<SplitReply> replies = t.serveWaiting(ALL_REGISTERED, 2);
        assertThat(replies)
                .containsExactly(new SplitReply.Assign(2, PLANNED), new SplitReply.NoMoreSplits(0));
        assertThat(t.phase()).isEqualTo(STREAMING);
        assertThat(t.checkpoint(3)).isEqualTo(new EnumState(null, true, null, PLANNED.tables()));
        assertNoMoreSplits(ask(t, 1), 1);
    }

    @Test
    void theWrongEventForThePhaseIsRefused() {
        SplitAssignmentTracker stream =
                SplitAssignmentTracker.restore(StartupMode.LATEST, EnumState.initial());
        assertThatThrownBy(() -> stream.tablesResolved(List.of()))
                .isInstanceOf(IllegalStateException.class);
        SplitAssignmentTracker snapshot =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, EnumState.initial());
        assertThatThrownBy(() -> snapshot.binlogSplitPrepared(PLANNED))
                .isInstanceOf(IllegalStateException.class);
    }

    // ---- planning ----

    @Test
    void planningRunsOneAtATimeAndKeepsAFewChunksAheadPerReader() {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, EnumState.initial());
        t.tablesResolved(List.of(new SnapshotTable(KEY, 42L)));
        PlanRequest first = t.startPlanning(3).orElseThrow();
        assertThat(first.max()).isEqualTo(SplitAssignmentTracker.CHUNKS_AHEAD_PER_READER * 3);
        assertThat(t.startPlanning(3)).as("one planning task at a time").isEmpty();

        CapstanEnumeratorSnapshotTest.FakePlanning planning =
                new CapstanEnumeratorSnapshotTest.FakePlanning(100);
        SnapshotPlanning.Planned planned =
                planning.planMore(first.keys(), first.states(), first.max());
        assertThat(t.planned(planned.chunks(), planned.states())).isFalse();
        assertThat(t.startPlanning(3)).as("enough chunks wait").isEmpty();
        takeChunk(t, 0);
        PlanRequest next = t.startPlanning(3).orElseThrow();
        assertThat(next.max()).isEqualTo(1);
        assertThat(next.states().get(0).nextIndex()).isEqualTo(6);

        t.planningFailed();
        assertThat(t.startPlanning(3)).as("a failed task does not block the next").isPresent();
    }

    // ---- snapshotting and the handoff ----

    @Test
    void chunksGoOutInPlanOrderAndTheLastCompletionLeadsToTheHandoffWait() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 3);
        List<Integer> order = new ArrayList<>();
        SnapshotChunkSplit c0 = takeChunk(t, 0);
        SnapshotChunkSplit c1 = takeChunk(t, 1);
        SnapshotChunkSplit c2 = takeChunk(t, 0);
        List.of(c0, c1, c2).forEach(c -> order.add(c.chunk().index()));
        assertThat(order).containsExactly(0, 1, 2);

        assertThat(ask(t, 1)).as("chunks are out but unfinished").isEmpty();
        t.chunksCompleted(List.of(done(c0, 10), done(c2, 12)));
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        t.chunksCompleted(List.of(done(c1, 11)));
        assertThat(t.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        assertThat(t.serveWaiting(ALL_REGISTERED, 2)).as("no checkpoint holds them yet").isEmpty();
    }

    @Test
    void readersBeyondTheConcurrentChunkReadBoundWaitAndMayStillTakeTheBinlogSplit() {
        parallelism = 3;
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 3);
        t.limitChunkReaders(new SnapshotLoadLimits(0, 1)::mayReadChunks);
        assertThat(ask(t, 2)).as("subtask 2 reads no chunk").isEmpty();
        assertThat(ask(t, 1)).as("nor does subtask 1").isEmpty();
        SnapshotChunkSplit c0 = takeChunk(t, 0);
        SnapshotChunkSplit c1 = takeChunk(t, 0);
        SnapshotChunkSplit c2 = takeChunk(t, 0);
        assertThat(List.of(c0, c1, c2)).extracting(c -> c.chunk().index()).containsExactly(0, 1, 2);
        t.chunksCompleted(List.of(done(c0, 10), done(c1, 11), done(c2, 12)));
        t.checkpoint(4);
        assertThat(t.checkpointCompleted(4)).isTrue();
        List<SplitReply> replies = t.serveWaiting(ALL_REGISTERED, parallelism);
        assertThat(replies)
                .as("the first waiting reader streams, the other is told no more splits")
                .hasSize(2);
        assertThat(replies.get(0)).isInstanceOf(SplitReply.Assign.class);
        assertThat(replies.get(0).subtask()).isEqualTo(2);
        assertThat(replies.get(1)).isEqualTo(new SplitReply.NoMoreSplits(1));
    }

    @Test
    void onlyACheckpointTakenAfterTheLastCompletionConfirmsTheHandoff() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 2);
        SnapshotChunkSplit c0 = takeChunk(t, 0);
        SnapshotChunkSplit c1 = takeChunk(t, 1);
        t.chunksCompleted(List.of(done(c0, 10)));
        t.checkpoint(3);
        t.chunksCompleted(List.of(done(c1, 11))); // after checkpoint 3's enumerator snapshot
        assertThat(t.checkpointCompleted(2)).isFalse();
        assertThat(t.checkpointCompleted(3)).isFalse();
        assertThat(t.handoffConfirmed()).isFalse();
        assertThat(ask(t, 0)).isEmpty();
        t.checkpoint(4);
        assertThat(t.checkpointCompleted(4)).as("confirms the handoff").isTrue();
        assertThat(t.handoffConfirmed()).isTrue();
        assertThat(t.checkpointCompleted(5)).as("confirmed once").isFalse();

        BinlogSplit binlog = assigned(t.serveWaiting(ALL_REGISTERED, 2)).asBinlogSplit();
        assertThat(binlog.start().processed()).isEqualTo(g(10)); // the intersection of the G
        assertThat(binlog.gate().chunkCount()).isEqualTo(2);
        assertThat(t.phase()).isEqualTo(STREAMING);
        assertNoMoreSplits(ask(t, 1), 1);
    }

    @Test
    void withoutAnyCheckpointTakenEveryCompletedCheckpointFollowsTheCompletions() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 1);
        readAll(t, 1);
        assertThat(t.checkpointCompleted(1)).isTrue();
        assertThat(t.handoffConfirmed()).isTrue();
    }

    @Test
    void parallelismOneOrReadersWithoutCheckpointingHandOverWithoutWaiting() {
        parallelism = 1;
        SplitAssignmentTracker one = snapshotting(StartupMode.INITIAL, 2);
        readAll(one, 2);
        assertThat(assigned(ask(one, 0)).kind()).isEqualTo(SplitKind.BINLOG);

        parallelism = 2;
        SplitAssignmentTracker unknown = snapshotting(StartupMode.INITIAL, 2);
        readAll(unknown, 2);
        assertThat(ask(unknown, 0)).as("unknown counts as checkpointing").isEmpty();
        unknown.readersCheckpointing(true, false, 2);
        assertThat(unknown.serveWaiting(ALL_REGISTERED, 2)).isEmpty();
        unknown.readersCheckpointing(false, false, 2);
        assertThat(assigned(unknown.serveWaiting(ALL_REGISTERED, 2)).kind())
                .isEqualTo(SplitKind.BINLOG);
    }

    @Test
    void unalignedCheckpointsAreRefusedOnlyWhileAHandoffIsAheadAtParallelismAboveOne() {
        SplitAssignmentTracker initial = snapshotting(StartupMode.INITIAL, 2);
        assertThatThrownBy(() -> initial.readersCheckpointing(true, true, 2))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION))
                .hasMessageContaining("execution.checkpointing.unaligned.enabled");
        // Parallelism 1 keeps the order itself; a bounded snapshot has no handoff; a stream-only
        // source and a job already streaming have none ahead.
        snapshotting(StartupMode.INITIAL, 2).readersCheckpointing(true, true, 1);
        snapshotting(StartupMode.SNAPSHOT, 2).readersCheckpointing(true, true, 2);
        SplitAssignmentTracker.restore(StartupMode.LATEST, EnumState.initial())
                .readersCheckpointing(true, true, 2);
        SplitAssignmentTracker.restore(StartupMode.INITIAL, new EnumState(null, true))
                .readersCheckpointing(true, true, 2);
        // Without checkpointing there is no barrier to overtake anything.
        SplitAssignmentTracker off = snapshotting(StartupMode.INITIAL, 2);
        off.readersCheckpointing(false, true, 2);
        readAll(off, 2);
        assertThat(assigned(ask(off, 1)).kind()).isEqualTo(SplitKind.BINLOG);
    }

    @Test
    void unalignedCheckpointsAreRefusedAfterARestoreOnlyIfTheHandoffIsNotYetConfirmed() {
        SplitAssignmentTracker before = snapshotting(StartupMode.INITIAL, 2);
        readAll(before, 2);
        EnumState holdsAll = before.checkpoint(12);
        SplitAssignmentTracker confirmed =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, holdsAll);
        assertThat(confirmed.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        assertThat(confirmed.handoffConfirmed()).isTrue();
        confirmed.readersCheckpointing(true, true, 2); // the binlog split goes out at once
        assertThat(assigned(ask(confirmed, 1)).kind()).isEqualTo(SplitKind.BINLOG);

        // A completion recorded after checkpoint 12 was taken: the handoff is still ahead.
        SnapshotProgress p = holdsAll.snapshot();
        EnumState lacksOne =
                new EnumState(
                        null,
                        false,
                        new SnapshotProgress(
                                p.tables(), p.plannerStates(), p.pending(), p.finished(), 12, 12));
        SplitAssignmentTracker unconfirmed =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, lacksOne);
        assertThat(unconfirmed.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        assertThat(unconfirmed.handoffConfirmed()).isFalse();
        assertThatThrownBy(() -> unconfirmed.readersCheckpointing(true, true, 2))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION));
    }

    @Test
    void resentCompletionsCountOnceAndDoNotUndoAConfirmation() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 1);
        SnapshotChunkSplit c0 = readAll(t, 1).get(0);
        t.checkpoint(5);
        assertThat(t.checkpointCompleted(5)).isTrue();
        assertThat(t.chunksCompleted(List.of(c0))).as("the same read, resent").isFalse();
        assertThat(t.handoffConfirmed()).isTrue();
        assertThat(t.book().orElseThrow().finishedCount()).isEqualTo(1);
        assertThat(t.chunksCompleted(List.of(done(c0, 77)))).as("a new read replaces it").isTrue();
        assertThat(t.handoffConfirmed()).isFalse();
    }

    @Test
    void aReopenedChunkVoidsItsCompletionAndTheReReadCounts() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 2);
        List<SnapshotChunkSplit> read = readAll(t, 2);
        t.checkpoint(1);
        t.checkpointCompleted(1);
        t.chunksReopened(List.of("no-such-table#0", "garbage"));
        assertThat(t.handoffConfirmed()).isTrue();
        assertThat(t.checkpoint(2).snapshot().latestCompletionAfter())
                .as("nothing changed: no later checkpoint needed")
                .isEmpty();

        t.chunksReopened(List.of(read.get(0).splitId()));
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        assertThat(t.handoffConfirmed()).isFalse();
        assertThat(t.book().orElseThrow().finishedCount()).isEqualTo(1);
        assertThat(t.checkpoint(3).snapshot().latestCompletionAfter()).hasValue(2);
        t.chunksReopened(List.of(read.get(0).splitId())); // already void
        assertThat(t.checkpoint(4).snapshot().latestCompletionAfter()).hasValue(2);
        assertThat(ask(t, 0)).as("its reader reads it again; nothing to hand out").isEmpty();

        t.chunksCompleted(List.of(done(read.get(0), 300)));
        t.checkpoint(5);
        t.checkpointCompleted(5);
        BinlogSplit binlog = assigned(t.serveWaiting(ALL_REGISTERED, 2)).asBinlogSplit();
        assertThat(binlog.start().processed()).isEqualTo(g(101)); // not 100: the read that counts
    }

    @Test
    void aChunkReturnedByAFailedReaderGoesOutAgainFirstAndUnread() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 2);
        List<SnapshotChunkSplit> read = readAll(t, 2);
        assertThat(t.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        t.splitsAddedBack(List.of(read.get(1)), 0);
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        assertThat(t.book().orElseThrow().finishedCount()).isEqualTo(1);
        SnapshotChunkSplit again = takeChunk(t, 1);
        assertThat(again.splitId()).isEqualTo(read.get(1).splitId());
        assertThat(again.isCompleted()).isFalse();
    }

    @Test
    void aChunkReturnedWhenTheEnumeratorKeepsNoSnapshotIsABrokenInvariant() {
        parallelism = 1;
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 2);
        SnapshotChunkSplit c0 = readAll(t, 2).get(0); // its range ends at key 100
        assigned(ask(t, 0));
        t.checkpoint(1);
        t.checkpointCompleted(1);
        assertThat(t.book()).isEmpty();
        assertThatThrownBy(() -> t.splitsAddedBack(List.of(c0), 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(c0.splitId())
                .hasMessageNotContaining("100"); // no key value of the chunk's range
        SplitAssignmentTracker stream =
                SplitAssignmentTracker.restore(StartupMode.LATEST, EnumState.initial());
        assertThatThrownBy(() -> stream.splitsAddedBack(List.of(c0), 0))
                .isInstanceOf(IllegalStateException.class);
    }

    // ---- the book after the handoff ----

    @Test
    void theBookIsKeptUntilACheckpointAfterTheBinlogAssignmentCompletes() {
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 2);
        List<SnapshotChunkSplit> read = readAll(t, 2);
        t.checkpoint(7);
        t.checkpointCompleted(7);
        assigned(ask(t, 0));
        assertThat(t.checkpoint(7)).matches(s -> s.binlogSplitAssigned() && s.snapshot() != null);
        assertThat(t.checkpointCompleted(7)).isFalse();
        assertThat(t.book()).as("7 was taken before the assignment").isPresent();
        t.checkpoint(8);
        assertThat(t.checkpointCompleted(8)).as("nothing to serve").isFalse();
        assertThat(t.book()).isEmpty();
        assertThat(t.checkpoint(9))
                .isEqualTo(new EnumState(null, true, null, List.of(KEY.table())));
        assertThat(t.chunksCompleted(List.of(done(read.get(0), 1))))
                .as("only acknowledged")
                .isFalse();
    }

    @Test
    void aBinlogSplitHandedOutBeforeAnyCheckpointLetsTheNextCompletedOneDropTheBook() {
        parallelism = 1;
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 1);
        readAll(t, 1);
        assigned(ask(t, 0));
        assertThat(t.book()).isPresent();
        assertThat(t.checkpointCompleted(1)).isFalse();
        assertThat(t.book()).isEmpty();
    }

    @Test
    void aBinlogSplitReturnedWhileTheBookIsKeptIsRebuiltFromIt() {
        parallelism = 1;
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 1);
        SnapshotChunkSplit c0 = readAll(t, 1).get(0);
        CapstanSplit binlog = assigned(ask(t, 0));
        // The reader failed before a checkpoint; its restored state has the chunk unread.
        t.splitsAddedBack(List.of(binlog), 0);
        assertThat(t.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        assertThat(t.checkpoint(1).unassignedBinlogSplit()).as("not kept: rebuilt").isNull();
        t.chunksReopened(List.of(c0.splitId()));
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        assertThat(ask(t, 0)).as("no binlog split with the stale G").isEmpty();
        t.chunksCompleted(List.of(done(c0, 40)));
        BinlogSplit rebuilt = assigned(t.serveWaiting(ALL_REGISTERED, 1)).asBinlogSplit();
        assertThat(rebuilt.start().processed()).isEqualTo(g(40));
    }

    @Test
    void aBinlogSplitReturnedAfterTheBookWentIsHandedOutAsItCame() {
        parallelism = 1;
        SplitAssignmentTracker t = snapshotting(StartupMode.INITIAL, 1);
        readAll(t, 1);
        BinlogSplit binlog = assigned(ask(t, 0)).asBinlogSplit();
        t.checkpoint(1);
        t.checkpointCompleted(1);
        BinlogSplit progressed = binlog.withStart(BinlogStartPosition.of(g(900)));
        t.splitsAddedBack(List.of(progressed), 0);
        assertThat(t.phase()).isEqualTo(BINLOG_SPLIT_READY);
        assertThat(t.checkpoint(2))
                .isEqualTo(new EnumState(progressed, false, null, progressed.tables()));
        assertThat(assigned(ask(t, 0))).isEqualTo(progressed);
    }

    // ---- bounded snapshot mode ----

    @Test
    void snapshotModeSaysNoMoreSplitsOnlyOnceEveryChunkIsComplete() {
        SplitAssignmentTracker t = snapshotting(StartupMode.SNAPSHOT, 2);
        SnapshotChunkSplit c0 = takeChunk(t, 0);
        SnapshotChunkSplit c1 = takeChunk(t, 1);
        assertThat(ask(t, 0)).as("another chunk is unfinished").isEmpty();
        t.chunksCompleted(List.of(done(c0, 10)));
        assertThat(t.serveWaiting(ALL_REGISTERED, 2)).isEmpty();
        t.chunksCompleted(List.of(done(c1, 11)));
        assertThat(t.phase()).isEqualTo(FINISHED);
        assertNoMoreSplits(t.serveWaiting(ALL_REGISTERED, 2), 0);
        assertNoMoreSplits(ask(t, 1), 1);
        t.checkpointCompleted(9); // no binlog split follows in snapshot mode
        assertNoMoreSplits(ask(t, 1), 1);
    }

    @Test
    void aChunkReturnedAfterTheSnapshotFinishedIsReadAgain() {
        SplitAssignmentTracker t = snapshotting(StartupMode.SNAPSHOT, 1);
        SnapshotChunkSplit c0 = readAll(t, 1).get(0);
        assertThat(t.phase()).isEqualTo(FINISHED);
        t.splitsAddedBack(List.of(c0), 0);
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        assertThat(takeChunk(t, 1).splitId()).isEqualTo(c0.splitId());
    }

    // ---- waiting readers ----

    @Test
    void waitingReadersAreAnsweredInOrderOfAskingAndFailedOnesForgotten() {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.LATEST, EnumState.initial());
        ask(t, 2);
        ask(t, 1);
        ask(t, 0);
        t.binlogSplitPrepared(PLANNED);
        Set<Integer> alive = Set.of(0, 1);
        assertThat(t.serveWaiting(alive::contains, 3))
                .containsExactly(new SplitReply.Assign(1, PLANNED), new SplitReply.NoMoreSplits(0));
        assertThat(t.serveWaiting(ALL_REGISTERED, 3)).as("2 failed: it asks again").isEmpty();
    }

    // ---- restores ----

    @Test
    void restoreOfAStateWhoseBinlogSplitIsOutStreamsInEveryModeOnceItsHolderHandshakes() {
        for (StartupMode mode : StartupMode.values()) {
            SplitAssignmentTracker t =
                    SplitAssignmentTracker.restore(mode, new EnumState(null, true));
            assertThat(t.phase()).as(mode.name()).isEqualTo(STREAMING);
            assertThat(ask(t, 0)).as("tables may still be added: chunks may come").isEmpty();
            TableId table = TableId.of("db", "t");
            assertThat(t.restoredSplitChecked(1, List.of(table), Set.of(), List.of(), parallelism))
                    .isEqualTo(new HandshakeAnswer.Resume(Set.of()));
            assertNoMoreSplits(t.serveWaiting(ALL_REGISTERED, parallelism), 0);
        }
    }

    @Test
    void restoreOfAnAssignedStateWithProgressDropsTheBookAndTakesTheReturnedSplitAsItIs() {
        SplitAssignmentTracker before = snapshotting(StartupMode.INITIAL, 1);
        readAll(before, 1);
        parallelism = 1;
        BinlogSplit binlog = assigned(ask(before, 0)).asBinlogSplit();
        EnumState state = before.checkpoint(4);
        assertThat(state.snapshot()).isNotNull();

        SplitAssignmentTracker t = SplitAssignmentTracker.restore(StartupMode.INITIAL, state);
        assertThat(t.phase()).isEqualTo(STREAMING);
        assertThat(t.book()).as("the split with its gate is in the reader's state").isEmpty();
        t.splitsAddedBack(List.of(binlog), 0);
        assertThat(assigned(ask(t, 0))).isEqualTo(binlog);
    }

    @Test
    void restoreOfAPlannedButUnassignedSplitVerifiesItFirstInEveryMode() {
        for (StartupMode mode : StartupMode.values()) {
            SplitAssignmentTracker t =
                    SplitAssignmentTracker.restore(mode, new EnumState(PLANNED, false));
            assertThat(t.phase()).as(mode.name()).isEqualTo(PREPARING_BINLOG_SPLIT);
            assertThat(t.binlogSplitToVerify()).contains(PLANNED);
            assertThat(ask(t, 0)).isEmpty();
            assertThat(t.checkpoint(1))
                    .as("kept while verified")
                    .isEqualTo(new EnumState(PLANNED, false, null, PLANNED.tables()));
            t.binlogSplitPrepared(PLANNED);
            assertThat(assigned(t.serveWaiting(ALL_REGISTERED, 2))).isEqualTo(PLANNED);
        }
    }

    @Test
    void restoreMidSnapshotHandsOutThePendingChunksAndKeepsTheCompletions() {
        SplitAssignmentTracker before = snapshotting(StartupMode.INITIAL, 3);
        SnapshotChunkSplit c0 = takeChunk(before, 0);
        before.chunksCompleted(List.of(done(c0, 10)));
        EnumState state = before.checkpoint(5);

        SplitAssignmentTracker t = SplitAssignmentTracker.restore(StartupMode.INITIAL, state);
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        assertThat(t.book().orElseThrow().finishedCount()).isEqualTo(1);
        assertThat(takeChunk(t, 0).chunk().index()).isEqualTo(1);
        assertThat(t.checkpoint(6).snapshot().finishedCount()).isEqualTo(1);
    }

    @Test
    void restoreOfAFinishedSnapshotConfirmsTheHandoffOnlyIfItsCheckpointHeldEveryCompletion() {
        SplitAssignmentTracker before = snapshotting(StartupMode.INITIAL, 2);
        readAll(before, 2);
        EnumState holdsAll = before.checkpoint(12);
        SplitAssignmentTracker t = SplitAssignmentTracker.restore(StartupMode.INITIAL, holdsAll);
        assertThat(t.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        assertThat(t.handoffConfirmed()).isTrue();
        assertThat(assigned(ask(t, 1)).kind()).isEqualTo(SplitKind.BINLOG);

        // A completion recorded after checkpoint 12 was taken: 12 does not hold it.
        SnapshotProgress p = holdsAll.snapshot();
        EnumState lacksOne =
                new EnumState(
                        null,
                        false,
                        new SnapshotProgress(
                                p.tables(), p.plannerStates(), p.pending(), p.finished(), 12, 12));
        SplitAssignmentTracker u = SplitAssignmentTracker.restore(StartupMode.INITIAL, lacksOne);
        assertThat(u.phase()).isEqualTo(AWAITING_HANDOFF_CHECKPOINT);
        assertThat(u.handoffConfirmed()).isFalse();
        assertThat(ask(u, 1)).isEmpty();
        assertThat(u.checkpointCompleted(13)).isTrue();
        assertThat(u.handoffConfirmed()).isTrue();
    }

    @Test
    void restoreOfAFinishedBoundedSnapshotEnds() {
        SplitAssignmentTracker before = snapshotting(StartupMode.SNAPSHOT, 1);
        readAll(before, 1);
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.SNAPSHOT, before.checkpoint(3));
        assertThat(t.phase()).isEqualTo(FINISHED);
        assertNoMoreSplits(ask(t, 0), 0);
    }

    @Test
    void aSnapshotStateRestoredUnderAStreamModeFinishesItsSnapshotAndStreams() {
        SplitAssignmentTracker before = snapshotting(StartupMode.INITIAL, 1);
        EnumState state = before.checkpoint(3);
        SplitAssignmentTracker t = SplitAssignmentTracker.restore(StartupMode.LATEST, state);
        assertThat(t.phase()).isEqualTo(SNAPSHOTTING);
        parallelism = 1;
        readAll(t, 1);
        assertThat(assigned(ask(t, 0)).kind()).isEqualTo(SplitKind.BINLOG);
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.source.TestChanges;
import io.capstan.flink.mysql.source.event.BinlogSplitRestoredEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitResumeEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;

import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapstanEnumeratorTest {

    private static final BinlogSplit SPLIT =
            new BinlogSplit(
                    List.of(TABLE),
                    BinlogStartPosition.of(GtidSet.parse(TestChanges.UUID + ":1-10")));

    /** Plans a fixed split and counts calls; the real planner is exercised by the ITs. */
    static final class FakePlanner implements BinlogSplitPlanner {
        final AtomicInteger plans = new AtomicInteger();
        final AtomicInteger verifies = new AtomicInteger();
        RuntimeException failure;

        @Override
        public BinlogSplit planNewSplit() {
            plans.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
            return SPLIT;
        }

        @Override
        public void verifyBeforeAssigning(BinlogSplit split) {
            verifies.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** The stream-only modes have no table to snapshot; a restore checks the table list. */
    static final class NoSnapshotPlanning implements SnapshotPlanning {
        /** What the configured list selects now, and which tables exist on the server. */
        List<TableId> selected = List.of(TABLE);

        List<TableId> onServer = List.of(TABLE);
        final AtomicInteger checks = new AtomicInteger();

        @Override
        public GtidSet gtidPurged() {
            throw new AssertionError("no snapshot whose handoff start to watch");
        }

        @Override
        public RetentionFacts retentionFacts(List<ChunkKey> estimateRowsOf) {
            throw new AssertionError("no snapshot whose duration to estimate");
        }

        @Override
        public String serverAddress() {
            return "localhost:3306";
        }

        @Override
        public void checkRestoredTables(List<TableId> inState) {
            checks.incrementAndGet();
            RestoredTableList.check(inState, selected, onServer);
        }

        @Override
        public RestoredSplitCheck checkRestoredSplit(List<TableId> inSplit) {
            checks.incrementAndGet();
            RestoredTableList.SplitTableChange change =
                    RestoredTableList.splitChange(inSplit, selected, onServer, false);
            return new RestoredSplitCheck(change.removed(), List.of());
        }

        @Override
        public List<SnapshotTable> resolveTables() {
            throw new AssertionError("no snapshot in a stream-only mode");
        }

        @Override
        public Planned planMore(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) {
            throw new AssertionError("no snapshot in a stream-only mode");
        }

        @Override
        public void close() {}
    }

    private final TestingSplitEnumeratorContext<CapstanSplit> context =
            new TestingSplitEnumeratorContext<>(3);
    private final FakePlanner planner = new FakePlanner();

    private CapstanEnumerator started(EnumState state) {
        for (int i = 0; i < 3; i++) {
            context.registerReader(i, "localhost");
        }
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context, StartupMode.LATEST, new NoSnapshotPlanning(), planner, state);
        e.start();
        return e;
    }

    @Test
    void plansOffTheCoordinatorThreadAndAssignsToTheFirstReaderThatAsks() {
        CapstanEnumerator e = started(EnumState.initial());
        e.handleSplitRequest(2, "localhost"); // before planning finished: waits
        assertThat(context.getSplitAssignments()).isEmpty();
        assertThat(planner.plans).hasValue(0); // nothing ran on the caller's thread
        context.triggerAllActions();
        assertThat(planner.plans).hasValue(1);
        assertThat(context.getSplitAssignments().get(2).getAssignedSplits()).containsExactly(SPLIT);
        assertThat(e.snapshotState(1)).isEqualTo(new EnumState(null, true, null, List.of(TABLE)));

        e.handleSplitRequest(0, "localhost");
        assertThat(context.getSplitAssignments().get(0).getAssignedSplits()).isEmpty();
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(context.getSplitAssignments().get(2).hasReceivedNoMoreSplitsSignal()).isFalse();
    }

    @Test
    void aPlannedButUnassignedSplitIsCheckpointedAndRestoredWithoutReplanning() {
        CapstanEnumerator e = started(EnumState.initial());
        context.triggerAllActions();
        EnumState checkpoint = e.snapshotState(1);
        assertThat(checkpoint).isEqualTo(new EnumState(SPLIT, false, null, List.of(TABLE)));

        TestingSplitEnumeratorContext<CapstanSplit> context2 =
                new TestingSplitEnumeratorContext<>(1);
        context2.registerReader(0, "localhost");
        FakePlanner planner2 = new FakePlanner();
        CapstanEnumerator restored =
                new CapstanEnumerator(
                        context2,
                        StartupMode.LATEST,
                        new NoSnapshotPlanning(),
                        planner2,
                        checkpoint);
        restored.start();
        restored.handleSplitRequest(0, "localhost");
        context2.triggerAllActions();
        assertThat(planner2.plans).hasValue(0);
        assertThat(planner2.verifies).hasValue(1); // preflight again before anything is read
        assertThat(context2.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactly(SPLIT);
    }

    @Test
    void splitsAddedBackAreAssignedAgain() {
        CapstanEnumerator e = started(EnumState.initial());
        context.triggerAllActions();
        e.handleSplitRequest(1, "localhost");
        BinlogSplit progressed =
                SPLIT.withStart(BinlogStartPosition.of(GtidSet.parse(TestChanges.UUID + ":1-20")));
        e.addSplitsBack(List.of(progressed), 1);
        assertThat(e.snapshotState(2))
                .isEqualTo(new EnumState(progressed, false, null, List.of(TABLE)));
        e.handleSplitRequest(1, "localhost");
        assertThat(context.getSplitAssignments().get(1).getAssignedSplits())
                .containsExactly(SPLIT, progressed);
    }

    @Test
    void aRestoredEnumeratorWhoseSplitIsOutTellsNewReadersNoMoreSplitsAfterTheHandshake() {
        CapstanEnumerator e = started(new EnumState(null, true));
        e.handleSplitRequest(0, "localhost");
        assertThat(context.getSplitAssignments().get(0)).as("tables may be added").isNull();
        e.handleSourceEvent(1, new BinlogSplitRestoredEvent(List.of(TABLE)));
        context.triggerAllActions();
        assertThat(planner.plans).hasValue(0);
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(context.getSplitAssignments().get(0).getAssignedSplits()).isEmpty();
    }

    @Test
    void aPlanningFailureFailsTheJobWithItsCause() {
        planner.failure =
                new CapstanHaltException(
                        HaltReason.BINLOG_FORMAT_NOT_ROW, "binlog_format is STATEMENT");
        CapstanEnumerator e = started(EnumState.initial());
        e.handleSplitRequest(0, "localhost");
        assertThatThrownBy(context::triggerAllActions)
                .hasStackTraceContaining("binlog_format_not_row");
        assertThat(context.getSplitAssignments()).isEmpty();
    }

    @Test
    void aSnapshotModeJobRestoredWithAPlannedBinlogSplitVerifiesItBeforeHandingItOut() {
        for (int i = 0; i < 3; i++) {
            context.registerReader(i, "localhost");
        }
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        new NoSnapshotPlanning(),
                        planner,
                        new EnumState(SPLIT, false));
        e.start();
        e.handleSplitRequest(1, "localhost");
        assertThat(context.getSplitAssignments()).isEmpty(); // not before the preflight
        context.triggerAllActions();
        assertThat(planner.verifies).hasValue(1);
        assertThat(planner.plans).hasValue(0);
        assertThat(context.getSplitAssignments().get(1).getAssignedSplits()).containsExactly(SPLIT);
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.STREAMING);
    }

    @Test
    void aRestoredStreamingJobChecksTheSplitsTablesInItsReadersHandshake() {
        NoSnapshotPlanning planning = new NoSnapshotPlanning();
        context.registerReader(0, "localhost");
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.LATEST,
                        planning,
                        planner,
                        new EnumState(null, true, null, List.of(TABLE)));
        e.start();
        context.triggerAllActions();
        // The enumerator's captured tables may lag the split's (tables created at runtime join
        // the split): only the handshake checks, with the split's tables.
        assertThat(planning.checks).hasValue(0);
        e.handleSourceEvent(0, new BinlogSplitRestoredEvent(List.of(TABLE)));
        assertThat(context.getSentEvents()).isEmpty(); // JDBC runs off the coordinator thread
        context.triggerAllActions();
        assertThat(planning.checks).hasValue(1);
        assertThat(context.getSentEvents().get(0))
                .singleElement()
                .isInstanceOfSatisfying(
                        BinlogSplitResumeEvent.class, r -> assertThat(r.removedTables()).isEmpty());
        e.handleSplitRequest(0, "localhost");
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(e.snapshotState(3).capturedTables()).containsExactly(TABLE);
    }

    @Test
    void aTableLeftOutOfTheListIsDroppedFromTheRestoredSplitAndTheState() {
        TableId removed = TableId.of(TABLE.database(), "left_out");
        NoSnapshotPlanning planning = new NoSnapshotPlanning();
        planning.onServer = List.of(TABLE, removed);
        context.registerReader(1, "localhost");
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.LATEST,
                        planning,
                        planner,
                        new EnumState(null, true, null, List.of(TABLE, removed)));
        e.start();
        e.handleSourceEvent(1, new BinlogSplitRestoredEvent(List.of(TABLE, removed)));
        context.triggerAllActions();
        assertThat(context.getSentEvents().get(1))
                .singleElement()
                .isInstanceOfSatisfying(
                        BinlogSplitResumeEvent.class,
                        r -> assertThat(r.removedTables()).containsExactly(removed));
        assertThat(e.snapshotState(4).capturedTables()).containsExactly(TABLE);
    }

    @Test
    void aReaderThatFailedBeforeTheAnswerIsNotAnswered() {
        NoSnapshotPlanning planning = new NoSnapshotPlanning();
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.LATEST,
                        planning,
                        planner,
                        new EnumState(null, true, null, List.of(TABLE)));
        e.start();
        e.handleSourceEvent(2, new BinlogSplitRestoredEvent(List.of(TABLE))); // 2 not registered
        context.triggerAllActions();
        assertThat(planning.checks).hasValue(1);
        assertThat(context.getSentEvents()).isEmpty(); // its restart asks again
    }

    @Test
    void withoutTheOptionATableAddedToTheListIsLeftToTheStreamAndARemovedOneDropped() {
        // The added table may be a shard created after the split's position: the stream captures
        // it from its CREATE, or halts table_entered_selection once past the server's position.
        TableId added = TableId.of(TABLE.database(), "added_later");
        TableId removed = TableId.of(TABLE.database(), "left_out");
        NoSnapshotPlanning planning = new NoSnapshotPlanning();
        planning.selected = List.of(TABLE, added);
        planning.onServer = List.of(TABLE, added, removed);
        context.registerReader(0, "localhost");
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.LATEST,
                        planning,
                        planner,
                        new EnumState(null, true, null, List.of(TABLE, removed)));
        e.start();
        e.handleSourceEvent(0, new BinlogSplitRestoredEvent(List.of(TABLE, removed)));
        context.triggerAllActions();
        assertThat(context.getSentEvents().get(0))
                .singleElement()
                .isInstanceOfSatisfying(
                        BinlogSplitResumeEvent.class,
                        r -> assertThat(r.removedTables()).containsExactly(removed));
        assertThat(e.snapshotState(4).capturedTables()).containsExactly(TABLE);
    }

    @Test
    void aRestoredPendingSplitWhoseTableListChangedHaltsNamingTheTables() {
        TableId added = TableId.of(TABLE.database(), "added_later");
        TableId removed = TableId.of(TABLE.database(), "left_out");
        NoSnapshotPlanning planning = new NoSnapshotPlanning();
        planning.selected = List.of(TABLE, added);
        planning.onServer = List.of(TABLE, added, removed);
        BinlogSplit pending = new BinlogSplit(List.of(TABLE, removed), SPLIT.start(), SPLIT.gate());
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.LATEST,
                        planning,
                        planner,
                        new EnumState(pending, false, null, List.of(TABLE, removed)));
        e.start();
        assertThatThrownBy(context::triggerAllActions)
                .hasStackTraceContaining("table_list_changed")
                .hasStackTraceContaining("added " + added)
                .hasStackTraceContaining("removed " + removed)
                .hasStackTraceContaining("cannot change its tables");
    }

    @Test
    void aNewJobAndAStateWithoutTablesAreNotChecked() {
        NoSnapshotPlanning planning = new NoSnapshotPlanning();
        planning.selected = List.of();
        for (EnumState state : List.of(EnumState.initial(), new EnumState(null, true))) {
            new CapstanEnumerator(context, StartupMode.LATEST, planning, planner, state).start();
            context.triggerAllActions();
        }
        assertThat(planning.checks).hasValue(0);
    }
}

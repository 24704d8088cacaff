package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.source.event.BinlogPausedEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitPauseEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitRestoredEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitResumeEvent;
import io.capstan.flink.mysql.source.event.ChunksCompletedEvent;
import io.capstan.flink.mysql.source.event.ReaderCheckpointingEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import io.capstan.flink.mysql.source.split.SplitKind;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.source.enumerator.CapstanEnumeratorSnapshotTest.KEY;
import static io.capstan.flink.mysql.source.enumerator.CapstanEnumeratorSnapshotTest.UUID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ADDING_TABLES through Flink's testing context: a restored streaming job whose list selects a
 * table its binlog split lacks pauses the split, snapshots the table and resumes the split with it.
 */
class CapstanEnumeratorAddTablesTest {

    /** Captured before the restore; {@link CapstanEnumeratorSnapshotTest#KEY}'s table is added. */
    private static final TableId OLD = TableId.of("db", "old");

    private static final TableId ADDED = KEY.table();

    /** The fake snapshot planning of {@code total} chunks; the list selects OLD and ADDED. */
    static final class AddingPlanning implements SnapshotPlanning {
        private final CapstanEnumeratorSnapshotTest.FakePlanning chunks;

        AddingPlanning(int total) {
            chunks = new CapstanEnumeratorSnapshotTest.FakePlanning(total);
        }

        @Override
        public RestoredSplitCheck checkRestoredSplit(List<TableId> inSplit) {
            RestoredTableList.SplitTableChange change =
                    RestoredTableList.splitChange(
                            inSplit, List.of(OLD, ADDED), List.of(OLD, ADDED), true);
            return new RestoredSplitCheck(
                    change.removed(),
                    change.added().isEmpty() ? List.of() : chunks.resolveTables());
        }

        @Override
        public List<SnapshotTable> resolveTables() {
            throw new AssertionError("a restored job resolves only the added tables");
        }

        @Override
        public void checkRestoredTables(List<TableId> inState) {
            throw new AssertionError("a streaming job is checked by its reader's handshake");
        }

        @Override
        public Planned planMore(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) {
            return chunks.planMore(keys, states, max);
        }

        @Override
        public GtidSet gtidPurged() {
            return GtidSet.empty();
        }

        @Override
        public RetentionFacts retentionFacts(List<ChunkKey> estimateRowsOf) {
            return chunks.retentionFacts(estimateRowsOf);
        }

        @Override
        public String serverAddress() {
            return "localhost:3306";
        }

        @Override
        public void close() {}
    }

    private TestingSplitEnumeratorContext<CapstanSplit> context;

    private CapstanEnumerator start(int parallelism, EnumState state) {
        context = new TestingSplitEnumeratorContext<>(parallelism);
        for (int i = 0; i < parallelism; i++) {
            context.registerReader(i, "localhost");
        }
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        new AddingPlanning(3),
                        new CapstanEnumeratorSnapshotTest.UnusedBinlogPlanner(),
                        state);
        e.start();
        context.triggerAllActions();
        return e;
    }

    private static GtidSet g(long last) {
        return GtidSet.parse(UUID + ":1-" + last);
    }

    private List<CapstanSplit> assigned(int subtask) {
        var a = context.getSplitAssignments().get(subtask);
        return a == null ? List.of() : a.getAssignedSplits();
    }

    private <E extends SourceEvent> List<E> sent(int subtask, Class<E> type) {
        List<SourceEvent> events = context.getSentEvents().get(subtask);
        return events == null
                ? List.of()
                : events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private void handshake(CapstanEnumerator e, int subtask, List<TableId> inSplit) {
        e.handleSourceEvent(subtask, new BinlogSplitRestoredEvent(inSplit));
        context.triggerAllActions();
    }

    /** Asks and completes chunks at G = 1-gLast until none comes; returns how many. */
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
            SnapshotChunkSplit chunk = s.asSnapshotChunkSplit();
            e.handleSourceEvent(
                    subtask,
                    new ChunksCompletedEvent(
                            List.of(chunk.withCompletion(new ChunkCompletion(g(gLast), 10)))));
            n++;
        }
    }

    @Test
    void anAddedTableIsSnapshottedWhileTheSplitPausesThenJoinsIt() {
        CapstanEnumerator e = start(2, new EnumState(null, true, null, List.of(OLD)));
        e.handleSourceEvent(0, new ReaderCheckpointingEvent(true, false));
        e.handleSplitRequest(1, "localhost"); // before the handshake: waits, chunks may come
        assertThat(context.getSplitAssignments().get(1)).isNull();

        handshake(e, 0, List.of(OLD));
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.ADDING_TABLES);
        assertThat(sent(0, BinlogSplitPauseEvent.class)).hasSize(1);
        assertThat(assigned(1)).hasSize(1); // the waiting reader got a chunk
        assertThat(e.snapshotState(3).addingTables()).isTrue();

        e.handleSourceEvent(0, new BinlogPausedEvent(g(10)));
        assertThat(drain(e, 0, 20) + 1).as("chunks, also to the holder").isEqualTo(3);
        SnapshotChunkSplit first = assigned(1).get(0).asSnapshotChunkSplit();
        e.handleSourceEvent(
                1,
                new ChunksCompletedEvent(
                        List.of(first.withCompletion(new ChunkCompletion(g(20), 10)))));
        assertThat(sent(0, BinlogSplitResumeEvent.class))
                .as("parallelism 2: not before a checkpoint after the last completion")
                .isEmpty();
        e.snapshotState(4);
        e.notifyCheckpointComplete(4);

        BinlogSplitResumeEvent resume = sent(0, BinlogSplitResumeEvent.class).get(0);
        BinlogSplit added = resume.added();
        assertThat(added.tables()).containsExactly(ADDED);
        assertThat(added.start().processed()).isEqualTo(g(10));
        assertThat(added.gate().gatedTables()).containsExactly(ADDED);
        assertThat(added.gate().chunkCount()).isEqualTo(3);
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.STREAMING);
        EnumState streaming = e.snapshotState(5);
        assertThat(streaming.addingTables()).isFalse();
        assertThat(streaming.capturedTables()).containsExactly(OLD, ADDED);

        e.handleSplitRequest(1, "localhost");
        assertThat(context.getSplitAssignments().get(1).hasReceivedNoMoreSplitsSignal()).isTrue();
        e.notifyCheckpointComplete(5); // follows the resume: the added snapshot is forgotten
        assertThat(e.tracker().book()).isEmpty();
    }

    @Test
    void atParallelismOneTheSplitResumesOnceThePauseAndEveryChunkAreIn() {
        CapstanEnumerator e = start(1, new EnumState(null, true, null, List.of(OLD)));
        handshake(e, 0, List.of(OLD));
        assertThat(drain(e, 0, 20)).isEqualTo(3);
        assertThat(sent(0, BinlogSplitResumeEvent.class)).as("not before the pause").isEmpty();
        e.handleSourceEvent(0, new BinlogPausedEvent(g(15)));
        assertThat(sent(0, BinlogSplitResumeEvent.class).get(0).added().start().processed())
                .isEqualTo(g(15));
    }

    @Test
    void aChunkReadWithoutAllOfThePauseHaltsByName() {
        CapstanEnumerator e = start(1, new EnumState(null, true, null, List.of(OLD)));
        handshake(e, 0, List.of(OLD));
        e.handleSourceEvent(0, new BinlogPausedEvent(g(30)));
        assertThatThrownBy(() -> drain(e, 0, 20))
                .isInstanceOf(CapstanHaltException.class)
                .satisfies(
                        t ->
                                assertThat(((CapstanHaltException) t).reason())
                                        .isEqualTo(HaltReason.DATA_GAP))
                .hasMessageContaining("already processed");
    }

    @Test
    void aRestoreDuringTheAdditionPausesAgainAndKeepsTheFinishedChunks() throws Exception {
        CapstanEnumerator e = start(2, new EnumState(null, true, null, List.of(OLD)));
        handshake(e, 0, List.of(OLD));
        e.handleSourceEvent(0, new BinlogPausedEvent(g(10)));
        e.handleSplitRequest(1, "localhost");
        context.triggerAllActions();
        SnapshotChunkSplit first = assigned(1).get(0).asSnapshotChunkSplit();
        e.handleSourceEvent(
                1,
                new ChunksCompletedEvent(
                        List.of(first.withCompletion(new ChunkCompletion(g(20), 10)))));
        EnumState mid =
                EnumStateSerializer.INSTANCE.deserialize(
                        EnumStateSerializer.INSTANCE.getVersion(),
                        EnumStateSerializer.INSTANCE.serialize(e.snapshotState(7)));
        assertThat(mid.addingTables()).isTrue();

        CapstanEnumerator restored = start(2, mid);
        assertThat(restored.tracker().phase()).isEqualTo(EnumeratorPhase.ADDING_TABLES);
        restored.handleSplitRequest(1, "localhost");
        assertThat(assigned(1)).as("not before the holder's handshake").isEmpty();
        handshake(restored, 0, List.of(OLD)); // the split lacks the table: pause again
        assertThat(sent(0, BinlogSplitPauseEvent.class)).hasSize(1);
        assertThat(restored.tracker().book().orElseThrow().finishedCount()).isEqualTo(1);
        assertThat(assigned(1)).isNotEmpty();
    }

    @Test
    void aRestoreAfterTheResumeReachedTheSplitStreamsOn() throws Exception {
        CapstanEnumerator e = start(1, new EnumState(null, true, null, List.of(OLD)));
        handshake(e, 0, List.of(OLD));
        EnumState mid = e.snapshotState(3);
        CapstanEnumerator restored = start(1, mid);
        handshake(restored, 0, List.of(OLD, ADDED)); // the reader's state holds the resume
        assertThat(restored.tracker().phase()).isEqualTo(EnumeratorPhase.STREAMING);
        assertThat(restored.tracker().book()).isEmpty();
        assertThat(sent(0, BinlogSplitResumeEvent.class))
                .singleElement()
                .satisfies(r -> assertThat(r.added()).isNull());
        assertThat(restored.snapshotState(4).capturedTables()).containsExactly(OLD, ADDED);
    }

    @Test
    void nothingAddedStreamsOnAsBefore() {
        CapstanEnumerator e = start(2, new EnumState(null, true, null, List.of(OLD, ADDED)));
        e.handleSplitRequest(1, "localhost");
        handshake(e, 0, List.of(OLD, ADDED));
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.STREAMING);
        assertThat(sent(0, BinlogSplitResumeEvent.class)).hasSize(1);
        assertThat(context.getSplitAssignments().get(1).hasReceivedNoMoreSplitsSignal()).isTrue();
    }

    @Test
    void aHolderRestartedWhilePausedIsResumedOnlyFromItsOwnNewPause() {
        CapstanEnumerator e = start(1, new EnumState(null, true, null, List.of(OLD)));
        e.addReader(0);
        handshake(e, 0, List.of(OLD));
        e.handleSourceEvent(0, new BinlogPausedEvent(g(10)));

        e.addReader(0); // the holder restarted: its split is restored, not at 10
        assertThat(drain(e, 0, 20)).isEqualTo(3);
        assertThat(sent(0, BinlogSplitResumeEvent.class))
                .as("no resume from the predecessor's pause")
                .isEmpty();

        handshake(e, 0, List.of(OLD));
        assertThat(sent(0, BinlogSplitPauseEvent.class)).hasSize(2);
        e.handleSourceEvent(0, new BinlogPausedEvent(g(8)));
        assertThat(sent(0, BinlogSplitResumeEvent.class))
                .singleElement()
                .satisfies(r -> assertThat(r.added().start().processed()).isEqualTo(g(8)));
    }

    @Test
    void anAnswerForAReaderThatRestartedMeanwhileIsNotSent() {
        CapstanEnumerator e = start(2, new EnumState(null, true, null, List.of(OLD)));
        e.addReader(0);
        e.handleSourceEvent(0, new BinlogSplitRestoredEvent(List.of(OLD))); // checked async
        e.addReader(0); // restarted before the check came back
        context.triggerAllActions();
        assertThat(sent(0, BinlogSplitPauseEvent.class)).isEmpty();

        handshake(e, 0, List.of(OLD)); // the restarted reader asks: it alone is answered
        assertThat(sent(0, BinlogSplitPauseEvent.class)).hasSize(1);
        assertThat(e.tracker().phase()).isEqualTo(EnumeratorPhase.ADDING_TABLES);
    }

    @Test
    void aPauseNobodyAskedForFailsTheJob() {
        CapstanEnumerator e = start(2, new EnumState(null, true, null, List.of(OLD, ADDED)));
        handshake(e, 0, List.of(OLD, ADDED));
        assertThatThrownBy(() -> e.handleSourceEvent(0, new BinlogPausedEvent(g(10))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was not asked to");

        CapstanEnumerator adding = start(2, new EnumState(null, true, null, List.of(OLD)));
        handshake(adding, 0, List.of(OLD));
        assertThatThrownBy(() -> adding.handleSourceEvent(1, new BinlogPausedEvent(g(10))))
                .as("only the holder pauses")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("held by subtask 0");
    }

    @Test
    void anUnknownSourceEventFailsTheJob() {
        CapstanEnumerator e = start(1, new EnumState(null, true, null, List.of(OLD)));
        assertThatThrownBy(() -> e.handleSourceEvent(0, new SourceEvent() {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unknown source event");
    }
}

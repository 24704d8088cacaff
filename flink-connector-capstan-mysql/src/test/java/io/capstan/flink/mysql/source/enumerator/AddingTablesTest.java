package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static io.capstan.flink.mysql.source.enumerator.StateFixtures.PLANNED;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.TABLE;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.assigned;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.context;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.finished;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.g;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.planned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AddingTablesTest {

    private static final TableId OLD = TableId.of("db", "old");
    private static final int HOLDER = 1;

    private final AssignmentContext ctx = context(AfterSnapshot.STREAM);

    private static AddingTables adding(SnapshotBook book) {
        return new AddingTables(book, new TableAddition(HOLDER, List.of(TABLE)), false);
    }

    @Test
    void onlyTheHolderMayPauseAndThePauseIsWhereTheNextReadStarts() {
        AddingTables state = adding(planned(1));
        assertThatThrownBy(() -> state.binlogPaused(0, g(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("split held by subtask " + HOLDER);
        assertThat(state.binlogPaused(HOLDER, g(5)).handoffStartSoFar()).contains(g(5));
    }

    @Test
    void theSplitResumesOnlyOnceItPausedAndEveryAddedChunkIsFinished() {
        SnapshotBook book = planned(1);
        AddingTables state = adding(book);
        SnapshotChunkSplit chunk = assigned(state.answer(0, 1, ctx)).split().asSnapshotChunkSplit();
        book.complete(chunk.withCompletion(new ChunkCompletion(g(20), 10)));
        assertThat(state.resumeIfReady(s -> true, 1, ctx).result()).as("not paused yet").isEmpty();

        state.binlogPaused(HOLDER, g(5));
        assertThat(state.resumeIfReady(s -> s != HOLDER, 1, ctx).result())
                .as("the holder is down")
                .isEmpty();
        Transition<Optional<AddedToSplit>> resumed = state.resumeIfReady(s -> true, 1, ctx);
        assertThat(resumed.result()).isPresent();
        assertThat(resumed.result().get().holder()).isEqualTo(HOLDER);
        assertThat(resumed.result().get().added().tables()).containsExactly(TABLE);
        assertThat(resumed.next().phase()).isEqualTo(EnumeratorPhase.STREAMING);
        assertThat(resumed.next().book()).as("kept until a later checkpoint").contains(book);
        assertThat(ctx.capturedTables()).contains(TABLE);
    }

    @Test
    void aChunkReadWithoutAllOfThePauseHaltsByName() {
        SnapshotBook book = planned(1);
        AddingTables state = adding(book);
        state.binlogPaused(HOLDER, g(30));
        SnapshotChunkSplit chunk = assigned(state.answer(0, 1, ctx)).split().asSnapshotChunkSplit();
        book.complete(chunk.withCompletion(new ChunkCompletion(g(20), 10)));
        assertThatThrownBy(state::chunksCompleted)
                .isInstanceOf(CapstanHaltException.class)
                .extracting(e -> ((CapstanHaltException) e).reason())
                .isEqualTo(HaltReason.DATA_GAP);
    }

    @Test
    void aRestartedHolderVoidsItsPauseAndTheAdditionWaitsForItsHandshake() {
        AddingTables state = adding(planned(1));
        state.binlogPaused(HOLDER, g(5));
        EnumeratorState restarted = state.readerRegistered(HOLDER);
        assertThat(restarted.handoffStartSoFar()).isEmpty();
        assertThat(state.readerRegistered(0)).isSameAs(state);
    }

    @Test
    void aRestoredAdditionWaitsForTheHandshakeThenContinuesOrStreamsIfTheSplitHasTheTables() {
        AddingTables restored = AddingTables.restored(finished(1, 10));
        assertThat(restored.answer(0, 2, ctx).result()).isEmpty();

        Transition<HandshakeAnswer> again =
                restored.restoredSplitChecked(
                        HOLDER,
                        List.of(OLD),
                        Set.of(),
                        List.of(new SnapshotTable(StateFixtures.KEY, 42L)),
                        2,
                        ctx);
        assertThat(again.result()).isEqualTo(new HandshakeAnswer.Pause(Set.of()));
        assertThat(again.next().phase()).isEqualTo(EnumeratorPhase.ADDING_TABLES);

        Transition<HandshakeAnswer> held =
                restored.restoredSplitChecked(
                        HOLDER, List.of(OLD, TABLE), Set.of(), List.of(), 2, ctx);
        assertThat(held.result()).isEqualTo(new HandshakeAnswer.Resume(Set.of()));
        assertThat(held.next()).isEqualTo(new Streaming(null, OptionalLong.empty(), false));
    }

    @Test
    void aTableListChangedAgainDuringTheAdditionHalts() {
        AddingTables restored = AddingTables.restored(finished(1, 10));
        SnapshotTable other =
                new SnapshotTable(
                        new ChunkKey(OLD, StateFixtures.KEY.columns(), StateFixtures.KEY.source()),
                        1L);
        assertThatThrownBy(
                        () ->
                                restored.restoredSplitChecked(
                                        HOLDER, List.of(), Set.of(), List.of(other), 2, ctx))
                .isInstanceOf(CapstanHaltException.class)
                .extracting(e -> ((CapstanHaltException) e).reason())
                .isEqualTo(HaltReason.TABLE_LIST_CHANGED);
    }

    @Test
    void aReturnedBinlogSplitIsAWiringError() {
        assertThatThrownBy(() -> adding(planned(1)).binlogSplitReturned(PLANNED, ctx))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ADDING_TABLES");
    }
}

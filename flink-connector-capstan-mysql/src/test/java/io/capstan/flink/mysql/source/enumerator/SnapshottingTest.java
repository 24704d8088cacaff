package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.capstan.flink.mysql.source.enumerator.StateFixtures.PLANNED;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.TABLE;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.assigned;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.context;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.finished;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.g;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.planned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshottingTest {

    @Test
    void thePhaseFollowsTheBookAndWhatComesAfterTheSnapshot() {
        assertThat(new Snapshotting(planned(2), AfterSnapshot.STREAM).phase())
                .isEqualTo(EnumeratorPhase.SNAPSHOTTING);
        assertThat(new Snapshotting(finished(2, 10), AfterSnapshot.STREAM).phase())
                .isEqualTo(EnumeratorPhase.AWAITING_HANDOFF_CHECKPOINT);
        assertThat(new Snapshotting(finished(2, 10), AfterSnapshot.END).phase())
                .isEqualTo(EnumeratorPhase.FINISHED);
    }

    @Test
    void theChunksGoOutThenTheBinlogSplitOnlyOnceACheckpointHoldsEveryCompletion() {
        AssignmentContext ctx = context(AfterSnapshot.STREAM);
        SnapshotBook book = planned(1);
        Snapshotting state = new Snapshotting(book, AfterSnapshot.STREAM);
        SnapshotChunkSplit chunk = assigned(state.answer(0, 2, ctx)).split().asSnapshotChunkSplit();
        assertThat(state.answer(1, 2, ctx).result()).as("nothing left to hand out").isEmpty();

        book.complete(chunk.withCompletion(new ChunkCompletion(g(20), 10)));
        ctx.checkpoints().completionsChanged();
        assertThat(state.phase()).isEqualTo(EnumeratorPhase.AWAITING_HANDOFF_CHECKPOINT);
        assertThat(state.answer(1, 2, ctx).result()).as("no checkpoint holds it yet").isEmpty();

        ctx.checkpoints().taken(3);
        Transition<Boolean> completed = state.checkpointCompleted(3, ctx);
        assertThat(completed.result()).as("the handoff is newly confirmed").isTrue();
        Transition<Optional<SplitReply>> handoff = state.answer(1, 2, ctx);
        BinlogSplit split = assigned(handoff).split().asBinlogSplit();
        assertThat(split.tables()).containsExactly(TABLE);
        assertThat(split.origin()).isEqualTo(StreamOrigin.AFTER_SNAPSHOT);
        assertThat(handoff.next())
                .isEqualTo(new Streaming(book, java.util.OptionalLong.of(3), false));
    }

    @Test
    void readersOutsideTheChunkReadLimitWait() {
        AssignmentContext ctx = context(AfterSnapshot.STREAM);
        ctx.limitChunkReaders(subtask -> subtask == 0);
        Snapshotting state = new Snapshotting(planned(2), AfterSnapshot.STREAM);
        assertThat(state.answer(1, 2, ctx).result()).isEmpty();
        assertThat(state.answer(0, 2, ctx).result()).isPresent();
    }

    @Test
    void aFinishedBoundedSnapshotTellsEveryReaderNoMoreSplits() {
        Snapshotting state = new Snapshotting(finished(1, 10), AfterSnapshot.END);
        assertThat(state.answer(1, 2, context(AfterSnapshot.END)).result())
                .contains(new SplitReply.NoMoreSplits(1));
        assertThat(state.handoffStartSoFar()).as("no handoff follows").isEmpty();
    }

    @Test
    void theHandoffStartSoFarIsTheIntersectionOfTheFinishedChunksPositions() {
        assertThat(new Snapshotting(finished(2, 10), AfterSnapshot.STREAM).handoffStartSoFar())
                .contains(g(10));
    }

    @Test
    void eventsOfOtherStatesAreWiringErrors() {
        AssignmentContext ctx = context(AfterSnapshot.STREAM);
        Snapshotting state = new Snapshotting(planned(1), AfterSnapshot.STREAM);
        assertThatThrownBy(() -> state.tablesResolved(List.of(), ctx))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> state.binlogSplitPrepared(PLANNED, ctx))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> state.binlogSplitReturned(PLANNED, ctx))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SNAPSHOTTING");
    }
}

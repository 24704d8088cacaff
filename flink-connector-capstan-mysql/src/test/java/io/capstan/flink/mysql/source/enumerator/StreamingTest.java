package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import static io.capstan.flink.mysql.source.enumerator.StateFixtures.KEY;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.PLANNED;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.TABLE;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.context;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.finished;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.g;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamingTest {

    /** Captured by the restored split; {@link StateFixtures#TABLE} is the one added. */
    private static final TableId OLD = TableId.of("db", "old");

    private final AssignmentContext ctx = context(AfterSnapshot.STREAM);

    @Test
    void everyOtherReaderIsToldNoMoreSplitsButARestoredJobWaitsForTheHandshake() {
        assertThat(new Streaming(null, OptionalLong.empty(), false).answer(1, 2, ctx).result())
                .contains(new SplitReply.NoMoreSplits(1));
        assertThat(Streaming.restored().answer(1, 2, ctx).result()).isEmpty();
    }

    @Test
    void onlyACheckpointThatFollowsTheAssignmentDropsTheKeptBook() {
        ctx.checkpoints().taken(3);
        Streaming state = Streaming.assigned(finished(1, 10), ctx);
        Transition<Boolean> same = state.checkpointCompleted(3, ctx);
        assertThat(same.next().book()).as("taken before the split went out").isPresent();
        Transition<Boolean> after = state.checkpointCompleted(4, ctx);
        assertThat(after.next().book()).isEmpty();
        assertThat(after.next().phase()).isEqualTo(EnumeratorPhase.STREAMING);
        assertThat(after.result()).isFalse();
    }

    @Test
    void aReturnedSplitIsRebuiltFromTheKeptBookOrElseHandedOutAsItCame() {
        SnapshotBook book = finished(1, 10);
        assertThat(
                        new Streaming(book, OptionalLong.empty(), false)
                                .binlogSplitReturned(PLANNED, ctx))
                .isEqualTo(new Snapshotting(book, AfterSnapshot.STREAM));
        assertThat(
                        new Streaming(null, OptionalLong.empty(), false)
                                .binlogSplitReturned(PLANNED, ctx))
                .isEqualTo(new BinlogSplitReady(PLANNED));
    }

    @Test
    void aHandshakeWithNothingAddedStreamsOn() {
        Transition<HandshakeAnswer> t =
                Streaming.restored()
                        .restoredSplitChecked(0, List.of(OLD), Set.of(OLD), List.of(), 2, ctx);
        assertThat(t.result()).isEqualTo(new HandshakeAnswer.Resume(Set.of(OLD)));
        assertThat(t.next()).isEqualTo(new Streaming(null, OptionalLong.empty(), false));
    }

    @Test
    void aHandshakeWithAddedTablesPausesTheSplitAndStartsTheAdditionWithFreshCheckpoints() {
        HandoffCheckpoints before = ctx.checkpoints();
        Transition<HandshakeAnswer> t =
                Streaming.restored()
                        .restoredSplitChecked(
                                1,
                                List.of(OLD),
                                Set.of(),
                                List.of(new SnapshotTable(KEY, 42L)),
                                2,
                                ctx);
        assertThat(t.result()).isEqualTo(new HandshakeAnswer.Pause(Set.of()));
        AddingTables adding = (AddingTables) t.next();
        assertThat(adding.addition().holder()).isEqualTo(1);
        assertThat(adding.addition().tables()).containsExactly(TABLE);
        assertThat(adding.awaitingHandshake()).isFalse();
        assertThat(ctx.checkpoints()).isNotSameAs(before);
    }

    @Test
    void eventsOfOtherStatesAreWiringErrors() {
        Streaming state = new Streaming(null, OptionalLong.empty(), false);
        assertThatThrownBy(() -> state.binlogPaused(0, g(5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("which it was not asked to (phase STREAMING)");
        assertThatThrownBy(() -> state.tablesResolved(List.of(), ctx))
                .isInstanceOf(IllegalStateException.class);
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When a completed checkpoint confirms every completion, and when the handoff may go without. */
class HandoffCheckpointsTest {

    @Test
    void aMarkWithoutCheckpointIsFollowedByEveryCheckpoint() {
        assertThat(HandoffCheckpoints.follows(1, OptionalLong.empty())).isTrue();
        assertThat(HandoffCheckpoints.follows(5, OptionalLong.of(5))).isFalse();
        assertThat(HandoffCheckpoints.follows(6, OptionalLong.of(5))).isTrue();
    }

    @Test
    void aCheckpointConfirmsOnlyWhenTakenAfterTheLatestChangeAndEveryChunkIsFinished() {
        HandoffCheckpoints h = HandoffCheckpoints.none();
        h.taken(3);
        h.completionsChanged(); // after 3
        assertThat(h.checkpointCompleted(3, true)).isFalse();
        h.taken(4);
        assertThat(h.checkpointCompleted(4, false)).as("chunks unfinished").isFalse();
        assertThat(h.checkpointCompleted(4, true)).isTrue();
        assertThat(h.confirmed()).isTrue();
        assertThat(h.checkpointCompleted(5, true)).as("only newly").isFalse();
        h.completionsChanged();
        assertThat(h.confirmed()).isFalse();
        assertThat(h.latestChangeAfter()).hasValue(4);
    }

    @Test
    void aRestoredCheckpointConfirmsIfItHeldEveryCompletion() {
        assertThat(
                        HandoffCheckpoints.restored(OptionalLong.of(7), OptionalLong.of(6), true)
                                .confirmed())
                .isTrue();
        assertThat(
                        HandoffCheckpoints.restored(OptionalLong.of(7), OptionalLong.empty(), true)
                                .confirmed())
                .isTrue();
        assertThat(
                        HandoffCheckpoints.restored(OptionalLong.of(7), OptionalLong.of(7), true)
                                .confirmed())
                .isFalse();
        assertThat(
                        HandoffCheckpoints.restored(OptionalLong.of(7), OptionalLong.of(6), false)
                                .confirmed())
                .isFalse();
        assertThat(
                        HandoffCheckpoints.restored(
                                        OptionalLong.empty(), OptionalLong.empty(), true)
                                .confirmed())
                .isFalse();
    }

    @Test
    void theHandoffGoesWithoutACheckpointAtParallelismOneOrWhenTheJobDoesNotCheckpoint() {
        HandoffCheckpoints h = HandoffCheckpoints.none();
        assertThat(h.handoffAllowed(1)).isTrue();
        assertThat(h.handoffAllowed(2)).as("unknown: the safe order").isFalse();
        h.readersReported(true, false, true, 2);
        assertThat(h.handoffAllowed(2)).isFalse();
        h.readersReported(false, false, true, 2);
        assertThat(h.handoffAllowed(2)).isTrue();
        h.readersReported(true, false, true, 2);
        assertThat(h.handoffAllowed(2)).as("checkpointing again").isFalse();
        HandoffCheckpoints confirmed =
                HandoffCheckpoints.restored(OptionalLong.of(2), OptionalLong.of(1), true);
        assertThat(confirmed.handoffAllowed(4)).isTrue();
    }

    @Test
    void unalignedCheckpointsAreRefusedOnlyBeforeAnUnconfirmedHandoffAtParallelismAboveOne() {
        HandoffCheckpoints h = HandoffCheckpoints.none();
        assertThatThrownBy(() -> h.readersReported(true, true, true, 2))
                .isInstanceOf(CapstanHaltException.class);
        h.readersReported(false, true, true, 2); // no checkpoints: no barrier to overtake
        h.readersReported(true, true, false, 2); // no handoff ahead
        h.readersReported(true, true, true, 1); // one subtask keeps the order
        HandoffCheckpoints confirmed =
                HandoffCheckpoints.restored(OptionalLong.of(2), OptionalLong.of(1), true);
        confirmed.readersReported(true, true, true, 2); // the split goes out at once
        assertThat(confirmed.handoffAllowed(2)).isTrue();
    }
}

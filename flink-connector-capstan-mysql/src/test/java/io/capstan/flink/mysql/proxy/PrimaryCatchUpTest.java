package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How long a replica's position waits for the primary's {@code gtid_executed}. */
class PrimaryCatchUpTest {

    private static final String PRIMARY = "b19c445d-f26b-11f1-83b7-02fc00000001";
    private static final GtidSet CHUNK = GtidSet.parse(PRIMARY + ":1-335");

    /** Answers {@code answers} in turn, the last one from then on; counts the questions. */
    private static final class Primary implements PrimaryCatchUp.Ask<GtidSet> {
        final Deque<GtidSet> answers;
        int asked;

        Primary(List<GtidSet> answers) {
            this.answers = new ArrayDeque<>(answers);
        }

        @Override
        public GtidSet ask() {
            asked++;
            return answers.size() > 1 ? answers.poll() : answers.peek();
        }
    }

    @Test
    void aPrimaryWhoseCommitStageTrailsTheReplicaIsAskedAgainUntilItHoldsTheChunk()
            throws Exception {
        Primary primary =
                new Primary(
                        List.of(
                                GtidSet.parse(PRIMARY + ":1-333"),
                                GtidSet.parse(PRIMARY + ":1-334"),
                                GtidSet.parse(PRIMARY + ":1-336")));
        GtidSet executed = PrimaryCatchUp.holding(CHUNK, primary, g -> g, PrimaryCatchUp.WAIT);
        assertThat(executed).isEqualTo(GtidSet.parse(PRIMARY + ":1-336"));
        assertThat(primary.asked).isEqualTo(3);
    }

    @Test
    void aPrimaryThatHoldsTheChunkIsAskedOnce() throws Exception {
        Primary primary = new Primary(List.of(GtidSet.parse(PRIMARY + ":1-400")));
        PrimaryCatchUp.holding(CHUNK, primary, g -> g, PrimaryCatchUp.WAIT);
        assertThat(primary.asked).isEqualTo(1);
    }

    @Test
    void aTrueDivergenceOutlastsTheWaitAndTheLastAnswerIsReturned() throws Exception {
        GtidSet replicaOwn = CHUNK.union(GtidSet.parse("b235cf31-f26b-11f1-b6c7-02fc00000001:1"));
        Primary primary = new Primary(List.of(GtidSet.parse(PRIMARY + ":1-400")));
        long started = System.nanoTime();
        GtidSet executed =
                PrimaryCatchUp.holding(replicaOwn, primary, g -> g, Duration.ofMillis(200));
        assertThat(executed.containsAll(replicaOwn)).isFalse();
        assertThat(primary.asked).isGreaterThan(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }
}

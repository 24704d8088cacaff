package io.capstan.flink.mysql.source.enumerator;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.source.enumerator.StateFixtures.PLANNED;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.TABLE;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PreparingBinlogSplitTest {

    private final AssignmentContext ctx = context(AfterSnapshot.STREAM);

    @Test
    void aNewJobPlansItsSplitWhileRequestsWait() {
        PreparingBinlogSplit state = new PreparingBinlogSplit(null);
        assertThat(state.pendingBinlogSplit()).isEmpty();
        assertThat(state.answer(0, 2, ctx).result()).isEmpty();
    }

    @Test
    void aRestoredUnassignedSplitIsVerifiedAndStaysInTheCheckpointMeanwhile() {
        PreparingBinlogSplit state = new PreparingBinlogSplit(PLANNED);
        assertThat(state.pendingBinlogSplit()).contains(PLANNED);
    }

    @Test
    void thePreparedSplitIsReadyAndNamesTheCapturedTables() {
        EnumeratorState next = new PreparingBinlogSplit(null).binlogSplitPrepared(PLANNED, ctx);
        assertThat(next).isEqualTo(new BinlogSplitReady(PLANNED));
        assertThat(ctx.capturedTables()).containsExactly(TABLE);
    }

    @Test
    void tablesResolvedHereIsAWiringError() {
        assertThatThrownBy(() -> new PreparingBinlogSplit(null).tablesResolved(List.of(), ctx))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PREPARING_BINLOG_SPLIT");
    }
}

package io.capstan.flink.mysql.source.enumerator;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.capstan.flink.mysql.source.enumerator.StateFixtures.PLANNED;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BinlogSplitReadyTest {

    private final AssignmentContext ctx = context(AfterSnapshot.STREAM);

    @Test
    void theSplitIsCheckpointedAsNotYetHandedOut() {
        assertThat(new BinlogSplitReady(PLANNED).pendingBinlogSplit()).contains(PLANNED);
    }

    @Test
    void theFirstReaderToAskGetsTheSplitAndTheJobStreamsWithoutABook() {
        ctx.checkpoints().taken(7);
        Transition<Optional<SplitReply>> t = new BinlogSplitReady(PLANNED).answer(1, 2, ctx);
        assertThat(t.result()).contains(new SplitReply.Assign(1, PLANNED));
        assertThat(t.next()).isInstanceOf(Streaming.class);
        Streaming streaming = (Streaming) t.next();
        assertThat(streaming.keptBook()).isNull();
        assertThat(streaming.assignedAfter()).hasValue(7);
        assertThatThrownBy(() -> new BinlogSplitReady(PLANNED).binlogSplitPrepared(PLANNED, ctx))
                .isInstanceOf(IllegalStateException.class);
    }
}

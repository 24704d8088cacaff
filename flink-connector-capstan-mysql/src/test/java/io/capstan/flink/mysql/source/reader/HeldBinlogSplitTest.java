package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.event.BinlogSplitRestoredEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.api.connector.source.SourceEvent;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reader's side of the restore handshake: an answer is used once, never dropped. */
class HeldBinlogSplitTest {

    private static final TableId TABLE = TableId.of("db", "t");
    private static final BinlogSplit SPLIT =
            new BinlogSplit(
                    List.of(TABLE),
                    BinlogStartPosition.of(
                            GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5")));

    private final List<BinlogSplit> streamed = new ArrayList<>();
    private final List<SourceEvent> toEnumerator = new ArrayList<>();
    private final HeldBinlogSplit held =
            new HeldBinlogSplit(
                    new BinlogBoundaryStop(), streamed::add, toEnumerator::add, () -> {});

    @Test
    void aRestoredSplitStreamsOnceAnswered() {
        held.restored(SPLIT);
        held.readerStarted();
        assertThat(toEnumerator).singleElement().isInstanceOf(BinlogSplitRestoredEvent.class);
        assertThat(held.held()).contains(SPLIT);

        held.resume(List.of());
        assertThat(streamed).containsExactly(SPLIT);
        assertThat(held.held()).isEmpty();
    }

    @Test
    void anAnswerWithNoSplitHeldFailsTheTask() {
        held.restored(SPLIT);
        held.resume(List.of());
        // A second answer: the enumerator and this reader are out of step.
        assertThatThrownBy(() -> held.resume(List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds none");
        assertThatThrownBy(() -> held.pause(List.of())).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> held.resumeWithAddedTables(SPLIT))
                .isInstanceOf(IllegalStateException.class);
        assertThat(streamed).containsExactly(SPLIT);
    }
}

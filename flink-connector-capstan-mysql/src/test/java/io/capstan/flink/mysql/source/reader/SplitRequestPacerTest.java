package io.capstan.flink.mysql.source.reader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SplitRequestPacerTest {

    @Test
    void asksAgainAsSoonAsAChunkArrivesUntilTwoAreInHand() {
        SplitRequestPacer pacer = new SplitRequestPacer();
        assertThat(pacer.shouldRequest()).isTrue();
        pacer.answered();
        pacer.chunksAdded(1);
        assertThat(pacer.shouldRequest()).as("one chunk in hand: ask for the next").isTrue();
        pacer.answered();
        pacer.chunksAdded(1);
        assertThat(pacer.shouldRequest()).as("two in hand").isFalse();
        pacer.chunksFinished(1);
        assertThat(pacer.shouldRequest()).isTrue();
    }

    @Test
    void neverHasTwoRequestsOutstanding() {
        SplitRequestPacer pacer = new SplitRequestPacer();
        assertThat(pacer.shouldRequest()).isTrue();
        assertThat(pacer.shouldRequest()).as("the enumerator answers each request once").isFalse();
        pacer.chunksFinished(0);
        assertThat(pacer.shouldRequest()).isFalse();
        pacer.answered();
        assertThat(pacer.shouldRequest()).isTrue();
    }

    @Test
    void restoredChunksCountAsInHand() {
        SplitRequestPacer pacer = new SplitRequestPacer();
        pacer.chunksAdded(3);
        assertThat(pacer.shouldRequest()).isFalse();
        pacer.chunksFinished(2);
        assertThat(pacer.shouldRequest()).isTrue();
    }

    @Test
    void stopsAskingOnceStreamingOrToldNoMore() {
        SplitRequestPacer pacer = new SplitRequestPacer();
        assertThat(pacer.shouldRequest()).isTrue();
        pacer.answered();
        pacer.noMoreRequests();
        assertThat(pacer.shouldRequest()).isFalse();
    }

    @Test
    void refusesToFinishChunksItNeverHad() {
        SplitRequestPacer pacer = new SplitRequestPacer();
        pacer.chunksAdded(1);
        pacer.chunksFinished(1);
        assertThatThrownBy(() -> pacer.chunksFinished(1)).isInstanceOf(IllegalStateException.class);
    }
}

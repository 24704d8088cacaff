package io.capstan.flink.mysql.binlog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BatchHandOverTest {

    private static BatchHandOver<Integer> handOver(int capacity) {
        return new BatchHandOver<>(capacity, () -> false, () -> {});
    }

    @Test
    void itemsArriveInOrderAcrossBatchesOnceHandedOver() throws Exception {
        BatchHandOver<Integer> h = handOver(10_000);
        int n = BatchHandOver.BATCH * 2 + 88;
        for (int i = 0; i < n; i++) {
            h.add(i);
        }
        // two full batches went over by themselves; the rest waits for the end of the event
        assertThat(h.queued()).isEqualTo(BatchHandOver.BATCH * 2);
        h.handOver();
        assertThat(h.queued()).isEqualTo(n);
        List<Integer> out = new ArrayList<>();
        for (Integer i = h.poll(10, TimeUnit.MILLISECONDS);
                i != null;
                i = h.poll(10, TimeUnit.MILLISECONDS)) {
            out.add(i);
        }
        assertThat(out).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(out.get(i)).isEqualTo(i);
        }
        assertThat(h.queued()).isZero();
    }

    @Test
    void itemsNotHandedOverAreNotSeenAndAnEmptyHandOverSendsNothing() throws Exception {
        BatchHandOver<Integer> h = handOver(100);
        h.handOver();
        h.add(1);
        h.add(2);
        assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isNull();
        h.handOver();
        assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isEqualTo(1);
        assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isEqualTo(2);
        assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void aFullQueueBlocksTheProducerUntilTheConsumerMovesPastABatch() throws Exception {
        BatchHandOver<Integer> h = handOver(4); // batches of 4, and room for one
        CompletableFuture<Void> producer =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                for (int i = 0; i < 8; i++) {
                                    h.add(i);
                                }
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        assertThatThrownBy(() -> producer.get(300, TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
        assertThat(h.queued()).isEqualTo(4); // never more than the capacity
        for (int i = 0; i < 4; i++) {
            assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isEqualTo(i);
        }
        // the batch being taken out still counts against the capacity until the next poll
        assertThatThrownBy(() -> producer.get(300, TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
        assertThat(h.poll(5, TimeUnit.SECONDS)).isEqualTo(4);
        producer.get(5, TimeUnit.SECONDS);
        for (int i = 5; i < 8; i++) {
            assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isEqualTo(i);
        }
    }

    @Test
    void aBlockedProducerReportsThatItWaitsAndGivesUpWhenStopped() throws Exception {
        AtomicBoolean stopped = new AtomicBoolean();
        AtomicInteger waits = new AtomicInteger();
        BatchHandOver<Integer> h = new BatchHandOver<>(2, stopped::get, waits::incrementAndGet);
        h.add(1);
        h.add(2);
        CompletableFuture<Void> producer =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                h.add(3);
                                h.add(4);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException("gave up", e);
                            }
                        });
        Thread.sleep(350);
        assertThat(producer).isNotDone();
        assertThat(waits.get()).isPositive();
        stopped.set(true);
        assertThatThrownBy(() -> producer.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(InterruptedException.class);
        assertThat(h.queued()).isEqualTo(2);
        h.clear();
        assertThat(h.poll(10, TimeUnit.MILLISECONDS)).isNull();
    }
}

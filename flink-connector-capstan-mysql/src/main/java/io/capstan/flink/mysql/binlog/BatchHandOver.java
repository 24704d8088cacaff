package io.capstan.flink.mysql.binlog;

import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Carries items from one producer thread to one consumer thread in batches, bounded in items.
 *
 * <p>The producer {@link #add}s items to the batch it fills and {@link #handOver}s it when it is
 * full or when the producer has no more for now; the consumer {@link #poll}s them one by one. A
 * hand-off per item cost a thread wake-up per item, more CPU than decoding a binlog record, hence
 * batches of at most {@link #BATCH}. At most {@code capacity} items wait (the batch being taken out
 * included), plus one batch being filled: a full queue blocks the producer (for the binlog, TCP
 * then pushes back on the server), so memory stays bounded whatever the transaction size.
 */
final class BatchHandOver<T> {

    static final int BATCH = 256;

    /** How often a blocked producer looks whether it should give up. */
    private static final long OFFER_SLICE_MILLIS = 100;

    private final BlockingQueue<Object[]> queue = new LinkedBlockingQueue<>(); // bounded by space
    private final Semaphore space; // one permit per item the queue may still take
    private final AtomicInteger queued = new AtomicInteger();
    private final int batchSize;
    private final BooleanSupplier stopped;
    private final Runnable waiting;
    private Object[] filling; // producer only
    private int filled; // producer only
    private Object[] taking; // consumer only
    private int taken; // consumer only

    /**
     * @param stopped when true, a producer blocked on a full queue gives up
     * @param waiting called while the producer waits for space (waiting for the consumer is not a
     *     silent server)
     */
    BatchHandOver(int capacity, BooleanSupplier stopped, Runnable waiting) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.batchSize = Math.min(BATCH, capacity);
        this.space = new Semaphore(capacity);
        this.filling = new Object[batchSize];
        this.stopped = stopped;
        this.waiting = waiting;
    }

    /**
     * Producer: adds to the batch being filled, handing it over when full (which may block). An
     * item accepted here is always handed over (at the next {@link #handOver} at the latest) unless
     * the hand-over stops.
     *
     * @throws InterruptedException when it stopped while waiting for space
     */
    void add(T item) throws InterruptedException {
        filling[filled++] = item;
        if (filled == batchSize) {
            handOver();
        }
    }

    /**
     * Producer: puts the batch being filled into the queue; blocks while the queue has no room,
     * gives up when stopped.
     */
    void handOver() throws InterruptedException {
        if (filled == 0) {
            return;
        }
        Object[] batch = filled == batchSize ? filling : Arrays.copyOf(filling, filled);
        while (!space.tryAcquire(filled, OFFER_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
            waiting.run();
            if (stopped.getAsBoolean()) {
                throw new InterruptedException("hand-over stopped");
            }
        }
        queued.addAndGet(filled);
        queue.add(batch);
        if (batch == filling) {
            filling = new Object[batchSize];
        } else {
            Arrays.fill(filling, 0, filled, null);
        }
        filled = 0;
    }

    /** Consumer: the next item, or null if none was handed over within the timeout. */
    @SuppressWarnings("unchecked")
    T poll(long timeout, TimeUnit unit) throws InterruptedException {
        if (taking == null || taken == taking.length) {
            if (taking != null) {
                space.release(
                        taking.length); // one wake-up of a blocked producer per batch, not per item
            }
            taking = queue.poll(timeout, unit);
            taken = 0;
            if (taking == null) {
                return null;
            }
        }
        T item = (T) taking[taken];
        taking[taken++] = null;
        queued.decrementAndGet();
        return item;
    }

    /** Items handed over and not yet polled. */
    int queued() {
        return queued.get();
    }

    /** Consumer, once the producer has stopped: drops what waits. */
    void clear() {
        queue.clear();
        taking = null;
    }
}

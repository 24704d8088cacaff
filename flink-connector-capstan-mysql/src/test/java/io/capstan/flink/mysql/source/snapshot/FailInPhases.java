package io.capstan.flink.mysql.source.snapshot;

import org.apache.flink.api.common.functions.MapFunction;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes records through and throws once when the number of DISTINCT snapshot reads ("|r|" lines)
 * reaches one of the snapshot points, or the number of distinct binlog changes reaches one of the
 * stream points: failures placed in the snapshot and in the stream (a binlog change is emitted only
 * after the handoff). Replays do not move the counts. Static: the MiniCluster runs in the test JVM,
 * so the counts survive the job's restarts.
 */
public final class FailInPhases implements MapFunction<String, String> {
    private static final long serialVersionUID = 1L;

    private static final Set<String> DISTINCT = ConcurrentHashMap.newKeySet();
    private static final AtomicLong READS = new AtomicLong();
    private static final AtomicLong CHANGES = new AtomicLong();
    private static final ConcurrentSkipListSet<Long> READ_POINTS = new ConcurrentSkipListSet<>();
    private static final ConcurrentSkipListSet<Long> CHANGE_POINTS = new ConcurrentSkipListSet<>();
    private static final AtomicLong FIRED_IN_SNAPSHOT = new AtomicLong();
    private static final AtomicLong FIRED_IN_STREAM = new AtomicLong();
    private static final AtomicLong READS_AFTER_A_CHANGE = new AtomicLong();

    public static void arm(Collection<Long> readPoints, Collection<Long> changePoints) {
        arm(readPoints, changePoints, 20);
    }

    public static void arm(
            Collection<Long> readPoints, Collection<Long> changePoints, int pauseEveryRecords) {
        pauseEvery = pauseEveryRecords;
        DISTINCT.clear();
        READS.set(0);
        CHANGES.set(0);
        FIRED_IN_SNAPSHOT.set(0);
        FIRED_IN_STREAM.set(0);
        READS_AFTER_A_CHANGE.set(0);
        READ_POINTS.clear();
        READ_POINTS.addAll(readPoints);
        CHANGE_POINTS.clear();
        CHANGE_POINTS.addAll(changePoints);
    }

    public static long firedInSnapshot() {
        return FIRED_IN_SNAPSHOT.get();
    }

    public static long firedInStream() {
        return FIRED_IN_STREAM.get();
    }

    public static long distinctChanges() {
        return CHANGES.get();
    }

    /** Snapshot reads that reached this operator after a binlog change had: must be 0. */
    public static long readsAfterAChange() {
        return READS_AFTER_A_CHANGE.get();
    }

    public static long distinctReads() {
        return READS.get();
    }

    /** Every this many records, a 1 ms pause: back-pressure keeps records in flight. */
    private static volatile int pauseEvery = 20;

    private transient long seen;

    @Override
    public String map(String value) throws InterruptedException {
        // Slower than the source, so the network buffers between the source subtasks and this
        // operator fill up: the last chunks' rows are still in flight when the binlog starts, which
        // is when an early handoff (without the checkpoint barrier) lets a binlog change overtake.
        if (++seen % pauseEvery == 0) {
            Thread.sleep(1);
        }
        if (!DISTINCT.add(value)) {
            return value;
        }
        if (value.contains("|r|")) {
            if (CHANGES.get() > 0) {
                READS_AFTER_A_CHANGE.incrementAndGet(); // the handoff let the binlog overtake
            }
            if (READ_POINTS.remove(READS.incrementAndGet())) {
                FIRED_IN_SNAPSHOT.incrementAndGet();
                throw new InjectedFailure("injected failure at snapshot read " + READS.get());
            }
        } else if (CHANGE_POINTS.remove(CHANGES.incrementAndGet())) {
            FIRED_IN_STREAM.incrementAndGet();
            throw new InjectedFailure("injected failure at binlog change " + CHANGES.get());
        }
        return value;
    }

    /** The failure injected on purpose (a count in the message, never a value). */
    public static final class InjectedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String message) {
            super(message);
        }
    }
}

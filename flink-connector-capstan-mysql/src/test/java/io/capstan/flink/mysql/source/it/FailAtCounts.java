package io.capstan.flink.mysql.source.it;

import org.apache.flink.api.common.functions.MapFunction;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes records through and throws once when the number of DISTINCT records it has seen reaches
 * one of the chosen points. Counting distinct records (not all records) makes a point a place in
 * the logical stream: records replayed after a restore do not move the count, so the failures are
 * spread over the stream as chosen instead of piling up in the replays. The MiniCluster runs in the
 * test JVM, so static state survives the job's restarts; each point fires once. Records must be
 * unique (the workloads' change lines are).
 */
public final class FailAtCounts implements MapFunction<String, String> {
    private static final long serialVersionUID = 1L;

    private static final AtomicLong SEEN = new AtomicLong();
    private static final Set<String> DISTINCT = ConcurrentHashMap.newKeySet();
    private static final ConcurrentSkipListSet<Long> POINTS = new ConcurrentSkipListSet<>();
    private static final AtomicLong FIRED = new AtomicLong();

    public static void arm(Collection<Long> points) {
        SEEN.set(0);
        DISTINCT.clear();
        FIRED.set(0);
        POINTS.clear();
        POINTS.addAll(points);
    }

    public static long fired() {
        return FIRED.get();
    }

    public static long seen() {
        return SEEN.get();
    }

    @Override
    public String map(String value) {
        if (!DISTINCT.add(value)) {
            return value; // a replay: not a new place in the stream
        }
        long n = SEEN.incrementAndGet();
        if (POINTS.remove(n)) {
            FIRED.incrementAndGet();
            throw new InjectedFailure("injected failure at record " + n);
        }
        return value;
    }

    /** The failure the tests inject on purpose (its message carries a count, never a value). */
    public static final class InjectedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String message) {
            super(message);
        }
    }
}

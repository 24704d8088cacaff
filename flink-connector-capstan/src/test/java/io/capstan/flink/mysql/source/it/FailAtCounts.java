package io.capstan.flink.mysql.source.it;

import java.util.Collection;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * Passes records through and throws once when the JVM-wide count of records it has seen (across
 * all attempts of the job, replays included) reaches one of the chosen points. The MiniCluster runs
 * in the test JVM, so static state survives the job's restarts; each point fires once.
 */
public final class FailAtCounts implements MapFunction<String, String> {
    private static final long serialVersionUID = 1L;

    private static final AtomicLong SEEN = new AtomicLong();
    private static final ConcurrentSkipListSet<Long> POINTS = new ConcurrentSkipListSet<>();
    private static final AtomicLong FIRED = new AtomicLong();

    public static void arm(Collection<Long> points) {
        SEEN.set(0);
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

package io.capstan.flink.mysql.table;

import org.apache.flink.table.functions.ScalarFunction;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A SQL function that passes its argument through and throws once when the number of DISTINCT
 * arguments it has seen reaches one of the armed points: rows replayed after a restore do not move
 * the count, so each failure lands at a chosen place in the logical stream. The MiniCluster runs in
 * the test JVM, so the static state survives the job's restarts. Arguments must be unique.
 */
public final class FailAtDistinctRows extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    private static final Set<String> DISTINCT = ConcurrentHashMap.newKeySet();
    private static final ConcurrentSkipListSet<Long> POINTS = new ConcurrentSkipListSet<>();
    private static final AtomicLong FIRED = new AtomicLong();
    private static final AtomicLong SEEN = new AtomicLong();

    static void arm(Collection<Long> points) {
        DISTINCT.clear();
        SEEN.set(0);
        FIRED.set(0);
        POINTS.clear();
        POINTS.addAll(points);
    }

    static long fired() {
        return FIRED.get();
    }

    public String eval(String row) {
        if (!DISTINCT.add(row)) {
            return row; // a replay: not a new place in the stream
        }
        long n = SEEN.incrementAndGet();
        if (POINTS.remove(n)) {
            FIRED.incrementAndGet();
            throw new IllegalStateException("injected failure at distinct row " + n);
        }
        return row;
    }

    @Override
    public boolean isDeterministic() {
        return false; // never folded or reordered by the planner
    }
}

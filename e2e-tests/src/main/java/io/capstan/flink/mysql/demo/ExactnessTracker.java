package io.capstan.flink.mysql.demo;

import java.util.ArrayDeque;
import java.util.Map;

/**
 * Compares Flink's aggregate with MySQL's, again and again. Under a running load the two differ
 * by the changes still in flight (committed in MySQL, not yet through Flink), so single
 * differences are expected; what matters is that they keep returning to exactly zero.
 */
final class ExactnessTracker {

    private static final int WINDOW = 120;

    private final ArrayDeque<Boolean> recent = new ArrayDeque<>();
    private long checks;
    private long matches;
    private long lastMatchMillis = -1;
    private boolean lastSame;

    synchronized boolean record(Map<String, StatusTotals.Totals> flink, Map<String, StatusTotals.Totals> mysql,
            long nowMillis) {
        boolean same = StatusTotals.same(flink, mysql);
        checks++;
        if (same) {
            matches++;
            lastMatchMillis = nowMillis;
        }
        lastSame = same;
        recent.addLast(same);
        while (recent.size() > WINDOW) {
            recent.removeFirst();
        }
        return same;
    }

    synchronized long checks() {
        return checks;
    }

    synchronized long matches() {
        return matches;
    }

    synchronized String describe() {
        long recentMatches = recent.stream().filter(b -> b).count();
        String window = String.format("exact in %d of the last %d comparisons", recentMatches, recent.size());
        if (checks == 0) {
            return "comparing Flink with MySQL ...";
        }
        if (lastSame) {
            return "\033[32mFlink == MySQL now\033[0m (" + window + "; a difference is changes in flight)";
        }
        return "\033[33mFlink is catching up\033[0m; last exact match "
                + (lastMatchMillis < 0 ? "not yet" : "at " + Screen.clock(lastMatchMillis)) + " (" + window + ")";
    }
}

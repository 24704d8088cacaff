package io.capstan.flink.mysql.demo;

import java.util.ArrayDeque;
import java.util.Map;

/**
 * Compares Flink's aggregate with MySQL's, again and again. Under a running load the two differ by
 * the changes still in flight (committed in MySQL, not yet through Flink), so single differences
 * are expected; what matters is that they keep returning to exactly zero.
 */
final class ExactnessTracker {

    private static final int WINDOW = 120;

    private final ArrayDeque<Boolean> recent = new ArrayDeque<>();
    private long checks;
    private long matches;
    private long lastMatchMillis = -1;
    private boolean lastSame;
    private long settleChecks;
    private long settleMatches;
    private long lastSettleMillis = -1;
    private long lastCatchUpMillis = -1;

    synchronized boolean record(
            Map<String, StatusTotals.Totals> flink,
            Map<String, StatusTotals.Totals> mysql,
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

    /**
     * A settle point: the load was paused, and Flink was given time to process every committed
     * change. Here the aggregates must be equal, exactly; any difference is a real error.
     */
    synchronized void recordSettlePoint(boolean same, long catchUpMillis, long nowMillis) {
        settleChecks++;
        if (same) {
            settleMatches++;
        }
        lastSettleMillis = nowMillis;
        lastCatchUpMillis = catchUpMillis;
    }

    synchronized long settleChecks() {
        return settleChecks;
    }

    synchronized long settleMatches() {
        return settleMatches;
    }

    synchronized String describeSettlePoints() {
        if (settleChecks == 0) {
            return "settle points: every 10 s the load pauses until Flink has caught up; then Flink must equal MySQL";
        }
        String colour = settleMatches == settleChecks ? "\033[32m" : "\033[31m";
        return String.format(
                "%ssettle points: %d of %d exact\033[0m (load paused every 10 s; last at %s,"
                        + " Flink caught up in %d ms)",
                colour,
                settleMatches,
                settleChecks,
                Screen.clock(lastSettleMillis),
                lastCatchUpMillis);
    }

    synchronized long checks() {
        return checks;
    }

    synchronized long matches() {
        return matches;
    }

    synchronized String describe() {
        long recentMatches = recent.stream().filter(b -> b).count();
        String window =
                String.format(
                        "exact in %d of the last %d comparisons", recentMatches, recent.size());
        if (checks == 0) {
            return "comparing Flink with MySQL ...";
        }
        if (lastSame) {
            return "live: \033[32mFlink == MySQL now\033[0m (" + window + ")";
        }
        return "live: \033[33mdiffers by changes in flight\033[0m, last exact "
                + (lastMatchMillis < 0 ? "not yet" : Screen.clock(lastMatchMillis))
                + " ("
                + window
                + ")";
    }
}

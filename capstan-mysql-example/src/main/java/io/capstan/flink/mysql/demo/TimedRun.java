package io.capstan.flink.mysql.demo;

import org.apache.flink.types.RowKind;

import java.io.PrintStream;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * The demo with {@code -Ddemo.duration}: runs the load that long with a progress line every 5 s,
 * stops it, waits for Flink to catch up and prints the summary; MATCH when Flink's aggregate equals
 * MySQL's at the end and at every settle point.
 */
final class TimedRun {

    private final DemoOptions options;
    private final PrintStream out;
    private final Progress progress;
    private final BooleanSupplier stopping;
    private final ShopLoad load;
    private final OrdersPipeline pipeline;
    private final AggregateComparison comparison;

    TimedRun(
            DemoOptions options,
            PrintStream out,
            Progress progress,
            BooleanSupplier stopping,
            ShopLoad load,
            OrdersPipeline pipeline,
            AggregateComparison comparison) {
        this.options = options;
        this.out = out;
        this.progress = progress;
        this.stopping = stopping;
        this.load = load;
        this.pipeline = pipeline;
        this.comparison = comparison;
    }

    int run() throws Exception {
        ExactnessTracker exactness = new ExactnessTracker();
        long end = System.currentTimeMillis() + options.duration.toMillis();
        long nextLine = 0;
        long nextSettle = System.currentTimeMillis() + AggregateComparison.SETTLE_EVERY_MILLIS;
        while (!stopping.getAsBoolean() && System.currentTimeMillis() < end) {
            comparison.failIfJobFailed();
            if (System.currentTimeMillis() >= nextSettle) {
                comparison.settlePoint(load, exactness);
                nextSettle = System.currentTimeMillis() + AggregateComparison.SETTLE_EVERY_MILLIS;
            }
            comparison.compare(exactness);
            if (System.currentTimeMillis() >= nextLine) {
                progress.note(
                        String.format(
                                "load: %,d row changes; Flink changelog: %,d rows; %s",
                                load.rowChanges(),
                                totalChanges(),
                                exactness.describe().replaceAll("\033\\[[0-9;]*m", "")));
                nextLine = System.currentTimeMillis() + 5000;
            }
            Thread.sleep(250);
        }
        progress.step("Stopping the load and waiting for Flink to catch up");
        load.close();
        boolean same = comparison.awaitCatchUp(false);
        Map<String, StatusTotals.Totals> flink = comparison.flinkTotals();
        Map<String, StatusTotals.Totals> mysql = comparison.mysqlTotals();
        out.println();
        out.println(
                "SUMMARY ("
                        + options.duration.getSeconds()
                        + " s of load, "
                        + load.rowChanges()
                        + " row changes in "
                        + load.transactions.get()
                        + " transactions, "
                        + load.errors.get()
                        + " failed)");
        out.printf(
                "%-12s %10s %16s   %10s %16s%n", "status", "Flink", "revenue", "MySQL", "revenue");
        for (String s :
                new TreeSet<>(mysql.keySet().isEmpty() ? flink.keySet() : union(flink, mysql))) {
            StatusTotals.Totals a = flink.getOrDefault(s, new StatusTotals.Totals(0, null));
            StatusTotals.Totals b = mysql.getOrDefault(s, new StatusTotals.Totals(0, null));
            out.printf(
                    "%-12s %,10d %,16.2f   %,10d %,16.2f%s%n",
                    s,
                    a.count(),
                    a.revenue(),
                    b.count(),
                    b.revenue(),
                    a.equals(b) ? "" : "   <-- differs");
        }
        out.printf(
                "live comparisons exact: %d of %d (the others differ by changes in flight)%n",
                exactness.matches(), exactness.checks());
        out.printf(
                "settle points exact: %d of %d (load paused until Flink caught up)%n",
                exactness.settleMatches(), exactness.settleChecks());
        same = same && exactness.settleMatches() == exactness.settleChecks();
        out.println(
                same
                        ? "RESULT: MATCH - Flink's aggregate over the capstan-mysql changelog equals MySQL's"
                        : "RESULT: MISMATCH - Flink's aggregate differs from MySQL's after "
                                + AggregateComparison.CATCH_UP_TIMEOUT.getSeconds()
                                + " s");
        return same ? ShopDemo.EXIT_MATCH : ShopDemo.EXIT_MISMATCH;
    }

    private static Set<String> union(Map<String, ?> a, Map<String, ?> b) {
        Set<String> s = new TreeSet<>(a.keySet());
        s.addAll(b.keySet());
        return s;
    }

    private long totalChanges() {
        long n = 0;
        for (RowKind k : RowKind.values()) {
            n += pipeline.changeCount(k);
        }
        return n;
    }
}

package io.capstan.flink.mysql.demo;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Flink's aggregate over the changelog set against the same aggregate queried from MySQL: live
 * (differing by the changes in flight), at settle points (load paused until Flink caught up) and
 * after the load (catch-up). Keeps the last pair compared live for the screen.
 */
final class AggregateComparison {

    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(90);

    /** How often the load pauses so that Flink can be compared with a settled MySQL. */
    static final long SETTLE_EVERY_MILLIS = 10_000;

    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(15);

    private final OrdersPipeline pipeline;
    private final MySqlTotals truth;
    private final Connection truthConnection;
    private final Progress progress;
    private final BooleanSupplier stopping;

    private Map<String, StatusTotals.Totals> lastFlink = Map.of();
    private Map<String, StatusTotals.Totals> lastMysql = Map.of();

    AggregateComparison(
            OrdersPipeline pipeline,
            MySqlTotals truth,
            Connection truthConnection,
            Progress progress,
            BooleanSupplier stopping) {
        this.pipeline = pipeline;
        this.truth = truth;
        this.truthConnection = truthConnection;
        this.progress = progress;
        this.stopping = stopping;
    }

    /** Waits until Flink's aggregate equals MySQL's; with no writes running this must happen. */
    boolean awaitCatchUp(boolean showProgress) throws Exception {
        return awaitCatchUp(showProgress, CATCH_UP_TIMEOUT);
    }

    private boolean awaitCatchUp(boolean showProgress, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextNote = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (!stopping.getAsBoolean()) {
            failIfJobFailed();
            Map<String, StatusTotals.Totals> mysql = truth.query(truthConnection);
            Map<String, StatusTotals.Totals> flink = pipeline.flinkTotals();
            if (StatusTotals.same(flink, mysql)) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            if (showProgress && System.nanoTime() > nextNote) {
                progress.note(
                        String.format(
                                "      ... Flink has %,d of %,d orders so far",
                                StatusTotals.totalCount(flink), StatusTotals.totalCount(mysql)));
                nextNote = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            }
            Thread.sleep(showProgress ? 200 : 20);
        }
        throw new InterruptedException("stopping");
    }

    /** Pauses the load, waits until Flink has caught up, and records whether it equals MySQL. */
    void settlePoint(ShopLoad load, ExactnessTracker exactness) throws Exception {
        long t0 = System.currentTimeMillis();
        boolean same;
        try (AutoCloseable paused = load.pause()) {
            same = awaitCatchUp(false, SETTLE_TIMEOUT);
        }
        long now = System.currentTimeMillis();
        exactness.recordSettlePoint(same, now - t0, now);
    }

    void compare(ExactnessTracker exactness) throws SQLException {
        // Flink first, then MySQL: MySQL can only be ahead, never behind what Flink has seen.
        Map<String, StatusTotals.Totals> flink = pipeline.flinkTotals();
        Map<String, StatusTotals.Totals> mysql = truth.query(truthConnection);
        exactness.record(flink, mysql, System.currentTimeMillis());
        lastFlink = flink;
        lastMysql = mysql;
    }

    Map<String, StatusTotals.Totals> lastFlink() {
        return lastFlink;
    }

    Map<String, StatusTotals.Totals> lastMysql() {
        return lastMysql;
    }

    Map<String, StatusTotals.Totals> flinkTotals() {
        return pipeline.flinkTotals();
    }

    Map<String, StatusTotals.Totals> mysqlTotals() throws SQLException {
        return truth.query(truthConnection);
    }

    void failIfJobFailed() {
        Throwable t = pipeline.failure();
        if (t != null) {
            throw new IllegalStateException("the Flink job failed: " + ShopDemo.describe(t), t);
        }
    }
}

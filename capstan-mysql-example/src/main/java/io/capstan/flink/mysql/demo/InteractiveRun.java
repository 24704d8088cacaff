package io.capstan.flink.mysql.demo;

import org.apache.flink.types.RowKind;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The interactive demo until Ctrl-C: compares the aggregates every 250 ms, pauses the load for a
 * settle point every {@link AggregateComparison#SETTLE_EVERY_MILLIS}, and redraws the terminal
 * screen once a second.
 */
final class InteractiveRun {

    private final DemoOptions options;
    private final PrintStream out;
    private final Object outputLock;
    private final BooleanSupplier stopping;
    private final long startMillis;
    private final DemoServer server;
    private final ShopLoad load;
    private final OrdersPipeline pipeline;
    private final AggregateComparison comparison;

    InteractiveRun(
            DemoOptions options,
            PrintStream out,
            Object outputLock,
            BooleanSupplier stopping,
            long startMillis,
            DemoServer server,
            ShopLoad load,
            OrdersPipeline pipeline,
            AggregateComparison comparison) {
        this.options = options;
        this.out = out;
        this.outputLock = outputLock;
        this.stopping = stopping;
        this.startMillis = startMillis;
        this.server = server;
        this.load = load;
        this.pipeline = pipeline;
        this.comparison = comparison;
    }

    int run() throws Exception {
        ExactnessTracker exactness = new ExactnessTracker();
        synchronized (outputLock) {
            out.print(Screen.CLEAR_ALL);
        }
        long nextFrame = 0;
        long nextSettle = System.currentTimeMillis() + AggregateComparison.SETTLE_EVERY_MILLIS;
        while (!stopping.getAsBoolean()) {
            comparison.failIfJobFailed();
            if (System.currentTimeMillis() >= nextSettle) {
                comparison.settlePoint(load, exactness);
                nextSettle = System.currentTimeMillis() + AggregateComparison.SETTLE_EVERY_MILLIS;
            }
            comparison.compare(exactness);
            long now = System.currentTimeMillis();
            if (now >= nextFrame) {
                draw(exactness);
                nextFrame = now + 1000;
            }
            Thread.sleep(250);
        }
        return ShopDemo.EXIT_MATCH;
    }

    private void draw(ExactnessTracker exactness) {
        long[] counts = {
            pipeline.changeCount(RowKind.INSERT),
            pipeline.changeCount(RowKind.UPDATE_BEFORE),
            pipeline.changeCount(RowKind.UPDATE_AFTER),
            pipeline.changeCount(RowKind.DELETE)
        };
        String loadLine =
                String.format(
                        "load: %d writers, %d changes/s max: %,d inserts, %,d updates, %,d deletes"
                                + " in %,d transactions%s",
                        options.writers,
                        options.rate,
                        load.inserts.get(),
                        load.updates.get(),
                        load.deletes.get(),
                        load.transactions.get(),
                        load.errors.get() == 0
                                ? ""
                                : ", " + load.errors.get() + " failed (" + load.lastError() + ")");
        Screen.Frame f =
                new Screen.Frame(
                        "capstan-mysql demo: Flink SQL over "
                                + options.database
                                + ".orders, 'connector'='capstan-mysql'",
                        "MySQL: "
                                + server.description()
                                + " · Flink: local MiniCluster, 1 job, 2 SQL queries",
                        ShopDemo.START_NOTE,
                        Duration.ofMillis(System.currentTimeMillis() - startMillis),
                        loadLine,
                        comparison.lastFlink(),
                        comparison.lastMysql(),
                        exactness,
                        pipeline.recentChanges(),
                        counts,
                        pipeline.lastLagMillis(),
                        "Ctrl-C stops the load, the Flink job and MySQL.  Logs: "
                                + options.workDir.resolve("demo.log"));
        synchronized (outputLock) {
            if (!stopping.getAsBoolean()) {
                out.print(Screen.render(f));
                out.flush();
            }
        }
    }
}

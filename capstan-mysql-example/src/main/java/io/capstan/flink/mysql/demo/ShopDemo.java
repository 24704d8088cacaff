package io.capstan.flink.mysql.demo;

import org.apache.flink.types.RowKind;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The README's first command: a live shop in MySQL, a Flink SQL job reading it through {@code
 * 'connector' = 'capstan-mysql'}, and a terminal screen that shows the changelog and an aggregate
 * next to the same aggregate computed by MySQL. See docs/quickstart.md.
 *
 * <p>Interactive until Ctrl-C; with {@code -Ddemo.duration=30s} it runs that long, stops the load,
 * waits for Flink to catch up and exits 0 when Flink's aggregate equals MySQL's, 1 otherwise.
 */
public final class ShopDemo {

    static final int EXIT_MATCH = 0;
    static final int EXIT_MISMATCH = 1;
    static final int EXIT_ERROR = 2;

    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(90);

    /** How often the load pauses so that Flink can be compared with a settled MySQL. */
    private static final long SETTLE_EVERY_MILLIS = 10_000;

    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(15);

    private final DemoOptions options;
    private final PrintStream out;
    private final Progress progress;
    private final Object outputLock = new Object();
    private final long startMillis = System.currentTimeMillis();
    private volatile boolean stopping;

    /** True once the load runs and the main loop watches {@link #stopping}. */
    private volatile boolean running;

    private DemoServer server;
    private ShopLoad load;
    private OrdersPipeline pipeline;
    private Connection truthConnection;
    private boolean stopped;
    private volatile boolean createdDatabase;

    ShopDemo(DemoOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.progress = new Progress(out);
    }

    public static void main(String[] args) {
        DemoOptions options;
        try {
            options = DemoOptions.fromSystem(args);
        } catch (IllegalArgumentException e) {
            System.err.println("capstan demo: " + e.getMessage());
            System.exit(EXIT_ERROR);
            return;
        }
        DemoLogging.toFile(options.workDir);
        ShopDemo demo = new ShopDemo(options, System.out);
        // Ctrl-C (and the SIGTERM Maven sends its child when it gets Ctrl-C itself) stop the demo
        // in order while Flink is still up: load, then the jobs (closing their binlog
        // connections), then MySQL. A JVM shutdown would tear Flink down concurrently, and MySQL
        // then waits for the abandoned binlog connections before it stops.
        StopSignals.install(demo::requestStop);
        Runtime.getRuntime().addShutdownHook(new Thread(demo::stop, "demo-stop"));
        int code = demo.run();
        demo.stop();
        System.exit(code);
    }

    /**
     * Asks the running demo to stop; if it has not within 30 s, the JVM exits (hooks still run).
     */
    void requestStop() {
        if (stopping) {
            return;
        }
        stopping = true;
        Thread deadline =
                new Thread(
                        () -> {
                            try {
                                if (!running) {
                                    // still starting (e.g. inside Flink's job submission): the
                                    // shutdown hook
                                    // stops what has been started
                                    System.exit(EXIT_MATCH);
                                }
                                Thread.sleep(30_000);
                            } catch (InterruptedException e) {
                                return;
                            }
                            System.exit(EXIT_ERROR);
                        },
                        "demo-stop-deadline");
        deadline.setDaemon(true);
        deadline.start();
    }

    /** Runs the demo; always stops what it started before returning. */
    int run() {
        try {
            return runUnguarded();
        } catch (Exception e) {
            if (stopping) {
                return EXIT_MATCH; // Ctrl-C during start-up
            }
            synchronized (outputLock) {
                out.println();
                out.println("capstan demo failed: " + describe(e));
                out.println("Logs: " + options.workDir.resolve("demo.log"));
            }
            return EXIT_ERROR;
        } finally {
            stop();
        }
    }

    private int runUnguarded() throws Exception {
        out.println(
                "capstan-mysql demo: Flink SQL reading a live MySQL shop through 'connector' = 'capstan-mysql'");
        out.println(
                "(Ctrl-C stops everything; logs go to "
                        + options.workDir.resolve("demo.log")
                        + ")");
        server = DemoServer.start(options, progress);
        String database = options.database;
        try (Connection c = server.openWriterConnection()) {
            progress.step("Creating " + database + ".orders");
            ShopSchema.create(c, database, options.embedded());
            createdDatabase = true;
            progress.done("empty table created");
            progress.step("Inserting " + options.seedRows + " orders");
            ShopSchema.seed(c, database, options.seedRows, new Random(42));
            progress.done(options.seedRows + " orders inserted");
        }
        checkNotStopping();

        progress.step(
                "Starting Flink (a local MiniCluster in this JVM) and submitting two SQL queries:");
        progress.note("      " + OrdersPipeline.AGGREGATE_SQL);
        progress.note("      " + OrdersPipeline.changelogSql(options.serverId + 1));
        pipeline = new OrdersPipeline(12);
        pipeline.start(
                OrdersPipeline.createTable(
                        server.connectorConfig(), database, options.serverId, startOptions()),
                options.serverId + 1);
        progress.done("jobs submitted");

        truthConnection = server.openWriterConnection();
        MySqlTotals truth = new MySqlTotals(database);
        progress.step(
                "Flink snapshotting the "
                        + options.seedRows
                        + " orders, then following the binlog");
        awaitCatchUp(truth, true);
        progress.done("Flink's aggregate equals MySQL's");
        checkNotStopping();

        progress.step(
                "Starting the load: "
                        + options.writers
                        + " writers, "
                        + options.rate
                        + " row changes/s (inserts, status and amount updates, cancellations, deletes)");
        long seededMaxId = options.seedRows;
        load = new ShopLoad(server, database, options.writers, options.rate, seededMaxId);
        load.start();
        progress.done("load running");
        running = true;

        return options.interactive() ? interactive(truth) : timed(truth);
    }

    /**
     * Where the Flink table starts: the default 'initial' mode reads the existing orders in chunks,
     * each at an exact GTID position, then hands off to the binlog with no gap and no duplicate, so
     * Flink's aggregate must equal MySQL's exactly. (The jobs run at parallelism 1, where the
     * handoff needs no checkpoint; see docs/snapshot.md.)
     */
    static Map<String, String> startOptions() {
        return Map.of("scan.startup.mode", "initial");
    }

    static final String START_NOTE =
            "start: 'initial' mode: snapshot of the existing orders, then the binlog (no gap, no duplicate)";

    private int interactive(MySqlTotals truth) throws Exception {
        ExactnessTracker exactness = new ExactnessTracker();
        synchronized (outputLock) {
            out.print(Screen.CLEAR_ALL);
        }
        long nextFrame = 0;
        long nextSettle = System.currentTimeMillis() + SETTLE_EVERY_MILLIS;
        while (!stopping) {
            failIfJobFailed();
            if (System.currentTimeMillis() >= nextSettle) {
                settlePoint(truth, exactness);
                nextSettle = System.currentTimeMillis() + SETTLE_EVERY_MILLIS;
            }
            compare(truth, exactness);
            long now = System.currentTimeMillis();
            if (now >= nextFrame) {
                draw(exactness);
                nextFrame = now + 1000;
            }
            Thread.sleep(250);
        }
        return EXIT_MATCH;
    }

    private int timed(MySqlTotals truth) throws Exception {
        ExactnessTracker exactness = new ExactnessTracker();
        long end = System.currentTimeMillis() + options.duration.toMillis();
        long nextLine = 0;
        long nextSettle = System.currentTimeMillis() + SETTLE_EVERY_MILLIS;
        while (!stopping && System.currentTimeMillis() < end) {
            failIfJobFailed();
            if (System.currentTimeMillis() >= nextSettle) {
                settlePoint(truth, exactness);
                nextSettle = System.currentTimeMillis() + SETTLE_EVERY_MILLIS;
            }
            compare(truth, exactness);
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
        boolean same = awaitCatchUp(truth, false);
        Map<String, StatusTotals.Totals> flink = pipeline.flinkTotals();
        Map<String, StatusTotals.Totals> mysql = truth.query(truthConnection);
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
                new java.util.TreeSet<>(
                        mysql.keySet().isEmpty() ? flink.keySet() : union(flink, mysql))) {
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
                                + CATCH_UP_TIMEOUT.getSeconds()
                                + " s");
        return same ? EXIT_MATCH : EXIT_MISMATCH;
    }

    private static java.util.Set<String> union(Map<String, ?> a, Map<String, ?> b) {
        java.util.Set<String> s = new java.util.TreeSet<>(a.keySet());
        s.addAll(b.keySet());
        return s;
    }

    /** Waits until Flink's aggregate equals MySQL's; with no writes running this must happen. */
    private boolean awaitCatchUp(MySqlTotals truth, boolean showProgress) throws Exception {
        return awaitCatchUp(truth, showProgress, CATCH_UP_TIMEOUT);
    }

    private boolean awaitCatchUp(MySqlTotals truth, boolean showProgress, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextNote = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (!stopping) {
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
    private void settlePoint(MySqlTotals truth, ExactnessTracker exactness) throws Exception {
        long t0 = System.currentTimeMillis();
        boolean same;
        try (AutoCloseable paused = load.pause()) {
            same = awaitCatchUp(truth, false, SETTLE_TIMEOUT);
        }
        long now = System.currentTimeMillis();
        exactness.recordSettlePoint(same, now - t0, now);
    }

    private void compare(MySqlTotals truth, ExactnessTracker exactness) throws SQLException {
        // Flink first, then MySQL: MySQL can only be ahead, never behind what Flink has seen.
        Map<String, StatusTotals.Totals> flink = pipeline.flinkTotals();
        Map<String, StatusTotals.Totals> mysql = truth.query(truthConnection);
        exactness.record(flink, mysql, System.currentTimeMillis());
        lastFlink = flink;
        lastMysql = mysql;
    }

    private Map<String, StatusTotals.Totals> lastFlink = Map.of();
    private Map<String, StatusTotals.Totals> lastMysql = Map.of();

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
                                + " · Flink: local MiniCluster, 2 SQL jobs",
                        START_NOTE,
                        Duration.ofMillis(System.currentTimeMillis() - startMillis),
                        loadLine,
                        lastFlink,
                        lastMysql,
                        exactness,
                        pipeline.recentChanges(),
                        counts,
                        pipeline.lastLagMillis(),
                        "Ctrl-C stops the load, the Flink jobs and MySQL.  Logs: "
                                + options.workDir.resolve("demo.log"));
        synchronized (outputLock) {
            if (!stopping) {
                out.print(Screen.render(f));
                out.flush();
            }
        }
    }

    private long totalChanges() {
        long n = 0;
        for (RowKind k : RowKind.values()) {
            n += pipeline.changeCount(k);
        }
        return n;
    }

    private void failIfJobFailed() {
        Throwable t = pipeline.failure();
        if (t != null) {
            throw new IllegalStateException("the Flink job failed: " + describe(t), t);
        }
    }

    private void checkNotStopping() throws InterruptedException {
        if (stopping) {
            throw new InterruptedException("stopping");
        }
    }

    /** Stops the load, the Flink jobs and the embedded MySQL; safe to call more than once. */
    void stop() {
        stopping = true;
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        synchronized (outputLock) {
            out.println();
            out.print("Stopping: load");
            out.flush();
            long t0 = System.nanoTime();
            closeQuietly(load);
            out.printf(" (%.1f s), Flink jobs", (System.nanoTime() - t0) / 1e9);
            out.flush();
            t0 = System.nanoTime();
            closeQuietly(pipeline);
            closeQuietly(truthConnection);
            out.printf(" (%.1f s)", (System.nanoTime() - t0) / 1e9);
            if (server != null && options.embedded()) {
                out.print(", MySQL");
                out.flush();
                t0 = System.nanoTime();
                closeQuietly(server);
                out.printf(" (%.1f s)", (System.nanoTime() - t0) / 1e9);
            }
            out.println(". Stopped.");
            if (!options.embedded() && createdDatabase) {
                out.println(
                        "The database "
                                + options.database
                                + " stays on your server: DROP DATABASE "
                                + options.database
                                + " removes it.");
            }
            out.flush();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort while shutting down
            }
        }
    }

    /** The exception chain's messages (the connector's are value-free), without stack traces. */
    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        java.util.Set<Throwable> seen = new java.util.HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c.getMessage() != null && sb.indexOf(c.getMessage()) < 0) {
                sb.append(sb.length() == 0 ? "" : "\n  caused by: ")
                        .append(c.getClass().getSimpleName())
                        .append(": ")
                        .append(c.getMessage());
            }
        }
        return sb.length() == 0 ? t.getClass().getName() : sb.toString();
    }
}

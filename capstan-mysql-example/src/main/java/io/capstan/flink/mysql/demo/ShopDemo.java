package io.capstan.flink.mysql.demo;

import java.io.PrintStream;
import java.sql.Connection;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The README's first command: a live shop in MySQL, a Flink SQL job reading it through {@code
 * 'connector' = 'capstan-mysql'}, and a terminal screen that shows the changelog and an aggregate
 * next to the same aggregate computed by MySQL. See docs/quickstart.md.
 *
 * <p>Interactive until Ctrl-C; with {@code -Ddemo.duration=30s} it runs that long, stops the load,
 * waits for Flink to catch up and exits 0 when Flink's aggregate equals MySQL's, 1 otherwise.
 *
 * <p>This class starts the parts in order and stops them in order; {@link InteractiveRun} or {@link
 * TimedRun} runs the demo in between, comparing through {@link AggregateComparison}.
 */
public final class ShopDemo {

    static final int EXIT_MATCH = 0;
    static final int EXIT_MISMATCH = 1;
    static final int EXIT_ERROR = 2;

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
        // in order while Flink is still up: load, then the job (closing its binlog
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
        // Flink's table planner loads while mysqld starts (LocalFlinkTables says why)
        LocalFlinkTables flink = LocalFlinkTables.createInBackground();
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
                "Starting Flink (a local MiniCluster in this JVM) and submitting two SQL queries"
                        + " as one job:");
        progress.note("      " + OrdersPipeline.AGGREGATE_SQL);
        progress.note("      " + OrdersPipeline.changelogSql(options.serverId + 1));
        long waitStart = System.nanoTime();
        Duration planner = flink.await().took();
        double waited = (System.nanoTime() - waitStart) / 1e9;
        pipeline = new OrdersPipeline(12);
        OrdersPipeline.StartTimes times =
                pipeline.start(
                        flink,
                        OrdersPipeline.createTable(
                                server.connectorConfig(),
                                database,
                                options.serverId,
                                startOptions()),
                        options.serverId + 1);
        progress.done(
                String.format(
                        Locale.ROOT,
                        "job submitted: table planner %.1f s (beside MySQL's start, %.1f s waited),"
                                + " planning %.1f s, MiniCluster start and submission %.1f s",
                        seconds(planner),
                        waited,
                        seconds(times.planning()),
                        seconds(times.submission())));

        truthConnection = server.openWriterConnection();
        AggregateComparison comparison =
                new AggregateComparison(
                        pipeline,
                        new MySqlTotals(database),
                        truthConnection,
                        progress,
                        () -> stopping);
        progress.step(
                "Flink snapshotting the "
                        + options.seedRows
                        + " orders, then following the binlog");
        comparison.awaitCatchUp(true);
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

        return options.interactive()
                ? new InteractiveRun(
                                options,
                                out,
                                outputLock,
                                () -> stopping,
                                startMillis,
                                server,
                                load,
                                pipeline,
                                comparison)
                        .run()
                : new TimedRun(options, out, progress, () -> stopping, load, pipeline, comparison)
                        .run();
    }

    /**
     * Where the Flink table starts: the default 'initial' mode reads the existing orders in chunks,
     * each at an exact GTID position, then hands off to the binlog with no gap and no duplicate, so
     * Flink's aggregate must equal MySQL's exactly. (The job runs at parallelism 1, where the
     * handoff needs no checkpoint; see docs/snapshot.md.)
     */
    static Map<String, String> startOptions() {
        return Map.of("scan.startup.mode", "initial");
    }

    static final String START_NOTE =
            "start: 'initial' mode: snapshot of the existing orders, then the binlog (no gap, no duplicate)";

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private void checkNotStopping() throws InterruptedException {
        if (stopping) {
            throw new InterruptedException("stopping");
        }
    }

    /** Stops the load, the Flink job and the embedded MySQL; safe to call more than once. */
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
            out.printf(" (%.1f s), Flink job", (System.nanoTime() - t0) / 1e9);
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

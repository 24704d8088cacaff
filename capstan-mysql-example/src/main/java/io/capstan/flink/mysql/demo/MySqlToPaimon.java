package io.capstan.flink.mysql.demo;

import io.capstan.flink.mysql.route.RoutedTable;

import org.apache.flink.configuration.Configuration;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The lakehouse example ({@code mysql-to-paimon}, docs/quickstart.md "Into a lakehouse"): the
 * shop's tables captured by {@code 'connector' = 'capstan-mysql'} into Apache Paimon primary-key
 * tables in a local warehouse directory, one Flink SQL job, with the shop's steady load running. At
 * settle points (load paused) a Flink batch query over the Paimon tables must give the same row
 * count and checksum per table as MySQL; the load resumes after each.
 *
 * <p>Until Ctrl-C, or with {@code -Ddemo.duration=60s} that long; exits 0 when every settle point
 * and the final comparison matched, 1 otherwise, 2 on an error. Shares the shop demo's options,
 * embedded MySQL and load ({@link DemoOptions}, {@link DemoServer}, {@link ShopLoad}).
 */
public final class MySqlToPaimon {

    /** Paimon commits at each checkpoint: the interval bounds how stale the lakehouse is. */
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(2);

    static final long SETTLE_EVERY_MILLIS = 20_000;

    /** A settle point waits this long for Paimon's commits to reach what MySQL holds. */
    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(120);

    private final DemoOptions options;
    private final PrintStream out;
    private final Progress progress;
    private volatile boolean stopping;
    private DemoServer server;
    private ShopLoad load;
    private PaimonPipeline pipeline;
    private Connection truth;
    private boolean stopped;
    private int settlePoints;
    private int settleMatches;

    MySqlToPaimon(DemoOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.progress = new Progress(out);
    }

    public static void main(String[] args) {
        DemoOptions options;
        try {
            options = DemoOptions.fromSystem(args);
        } catch (IllegalArgumentException e) {
            System.err.println("capstan mysql-to-paimon: " + e.getMessage());
            System.exit(ShopDemo.EXIT_ERROR);
            return;
        }
        DemoLogging.toFile(options.workDir);
        MySqlToPaimon example = new MySqlToPaimon(options, System.out);
        StopSignals.install(() -> example.stopping = true);
        Runtime.getRuntime().addShutdownHook(new Thread(example::stop, "example-stop"));
        int code = example.run();
        example.stop();
        System.exit(code);
    }

    int run() {
        try {
            return runUnguarded();
        } catch (Exception e) {
            if (stopping) {
                return ShopDemo.EXIT_MATCH;
            }
            out.println();
            out.println("capstan mysql-to-paimon failed: " + ShopDemo.describe(e));
            out.println("Logs: " + options.workDir.resolve("demo.log"));
            return ShopDemo.EXIT_ERROR;
        } finally {
            stop();
        }
    }

    private int runUnguarded() throws Exception {
        out.println(
                "capstan-mysql lakehouse example: MySQL's shop into Apache Paimon tables, exactly once");
        out.println(
                "(Ctrl-C stops everything; logs go to "
                        + options.workDir.resolve("demo.log")
                        + ")");
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", CHECKPOINT_INTERVAL.toMillis() + " ms");
        LocalFlinkTables flink = LocalFlinkTables.createInBackground(conf);
        server = DemoServer.start(options, progress);
        String database = options.database;
        try (Connection c = server.openWriterConnection()) {
            progress.step("Creating " + database + " with orders, customers and products");
            ShopSchema.create(c, database, options.embedded());
            ShopSchema.seed(c, database, options.seedRows, new Random(42));
            LakehouseTables.createAndSeed(c, database, new Random(43));
            progress.done(
                    options.seedRows
                            + " orders, "
                            + LakehouseTables.SEED_CUSTOMERS
                            + " customers, "
                            + LakehouseTables.SEED_PRODUCTS
                            + " products");
        }
        Path warehouse = options.workDir.resolve("warehouse");
        deleteRecursively(warehouse);
        Files.createDirectories(warehouse);

        progress.step(
                "Starting Flink (a local MiniCluster in this JVM) and submitting one job: one"
                        + " capstan-mysql source over "
                        + PaimonPipeline.tableList(database)
                        + " (one binlog reader for all tables)");
        pipeline = new PaimonPipeline();
        List<RoutedTable> tables =
                flink.call(
                        f ->
                                pipeline.start(
                                        f,
                                        warehouse,
                                        server.connectorConfig(),
                                        database,
                                        options.serverId));
        for (RoutedTable t : tables) {
            progress.note(
                    "      "
                            + t.id()
                            + " -> "
                            + PaimonPipeline.paimonTable(t)
                            + " ("
                            + t.rowType().getFieldCount()
                            + " columns as discovered, key "
                            + t.primaryKey()
                            + ")");
        }
        progress.note(
                "      into the Paimon catalog '" + PaimonPipeline.CATALOG + "' on " + warehouse);
        progress.done(
                "job submitted; Paimon commits at every checkpoint ("
                        + CHECKPOINT_INTERVAL.toSeconds()
                        + " s)");
        LakehouseCheck check = new LakehouseCheck(warehouse);
        truth = server.openWriterConnection();

        progress.step(
                "Snapshot into Paimon, then the binlog; comparing a batch query over Paimon with MySQL");
        boolean same = settle(check, null, "snapshot");
        checkNotStopping();

        progress.step(
                "Starting the load: "
                        + options.writers
                        + " writers, "
                        + options.rate
                        + " row changes/s over orders, customers and products");
        load =
                new ShopLoad(
                        server,
                        database,
                        options.writers,
                        options.rate,
                        options.seedRows,
                        LakehouseTables.changes(database));
        load.start();
        progress.done("load running; a settle point every " + SETTLE_EVERY_MILLIS / 1000 + " s");

        long end =
                options.interactive()
                        ? Long.MAX_VALUE
                        : System.currentTimeMillis() + options.duration.toMillis();
        long nextSettle = System.currentTimeMillis() + SETTLE_EVERY_MILLIS;
        while (!stopping && System.currentTimeMillis() < end) {
            failIfJobEnded();
            if (System.currentTimeMillis() >= nextSettle) {
                same &= settle(check, load, "load paused");
                nextSettle = System.currentTimeMillis() + SETTLE_EVERY_MILLIS;
            }
            Thread.sleep(200);
        }
        checkNotStopping();
        load.close();
        progress.step("Load stopped after " + load.rowChanges() + " row changes");
        same &= settle(check, null, "final");
        out.printf("settle points exact: %d of %d%n", settleMatches, settlePoints);
        out.println(
                same
                        ? "RESULT: MATCH - every Paimon table equals its MySQL table"
                        : "RESULT: MISMATCH - a Paimon table differs from MySQL after "
                                + CATCH_UP_TIMEOUT.toSeconds()
                                + " s");
        return same ? ShopDemo.EXIT_MATCH : ShopDemo.EXIT_MISMATCH;
    }

    /**
     * Pauses the load (if any), reads MySQL's tallies, and waits until a batch query over Paimon
     * gives the same; prints both and resumes the load.
     */
    private boolean settle(LakehouseCheck check, ShopLoad paused, String what) throws Exception {
        long t0 = System.nanoTime();
        Map<String, LakehouseCheck.Tally> mysql;
        Map<String, LakehouseCheck.Tally> paimon;
        int queries = 0;
        try (AutoCloseable p = paused == null ? () -> {} : paused.pause()) {
            mysql = LakehouseCheck.mysql(truth, options.database);
            long deadline = System.nanoTime() + CATCH_UP_TIMEOUT.toNanos();
            do {
                checkNotStopping();
                failIfJobEnded();
                paimon = check.paimon();
                queries++;
            } while (!LakehouseCheck.same(mysql, paimon)
                    && System.nanoTime() < deadline
                    && sleep(CHECKPOINT_INTERVAL.toMillis() / 2));
        }
        boolean same = LakehouseCheck.same(mysql, paimon);
        settlePoints++;
        settleMatches += same ? 1 : 0;
        progress.note(
                String.format(
                        "settle point %d (%s): %s after %.1f s, %d batch quer%s over Paimon",
                        settlePoints,
                        what,
                        same ? "Paimon equals MySQL" : "Paimon DIFFERS from MySQL",
                        (System.nanoTime() - t0) / 1e9,
                        queries,
                        queries == 1 ? "y" : "ies"));
        out.printf(
                "        %-10s %12s %12s   %22s %22s%n",
                "table", "MySQL rows", "Paimon rows", "MySQL checksum", "Paimon checksum");
        for (Map.Entry<String, LakehouseCheck.Tally> e : mysql.entrySet()) {
            LakehouseCheck.Tally m = e.getValue();
            LakehouseCheck.Tally p = paimon.get(e.getKey());
            out.printf(
                    "        %-10s %,12d %12s   %22s %22s%s%n",
                    e.getKey(),
                    m.rows(),
                    p == null ? "-" : String.format("%,d", p.rows()),
                    m.checksum().toPlainString(),
                    p == null ? "-" : p.checksum().toPlainString(),
                    m.same(p) ? "" : "   <-- differs");
        }
        out.flush();
        return same;
    }

    private void failIfJobEnded() {
        String why = pipeline.endedBecause();
        if (why != null) {
            throw new IllegalStateException(why);
        }
    }

    private static boolean sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }

    private void checkNotStopping() throws InterruptedException {
        if (stopping) {
            throw new InterruptedException("stopping");
        }
    }

    /** Stops the load, the job and the embedded MySQL; safe to call more than once. */
    void stop() {
        stopping = true;
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        out.println();
        out.print("Stopping: load, Flink job");
        out.flush();
        closeQuietly(load);
        closeQuietly(pipeline);
        closeQuietly(truth);
        if (server != null && options.embedded()) {
            out.print(", MySQL");
            out.flush();
            closeQuietly(server);
        }
        out.println(
                ". Stopped. The Paimon tables stay in "
                        + options.workDir.resolve("warehouse")
                        + " (a new run replaces them).");
        out.flush();
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

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}

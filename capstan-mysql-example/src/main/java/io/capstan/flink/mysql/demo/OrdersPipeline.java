package io.capstan.flink.mysql.demo;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Two Flink SQL queries over {@code 'connector' = 'capstan-mysql'} on a local Flink (a MiniCluster
 * in this JVM): the revenue and count by status ({@code GROUP BY}), and the raw changelog of the
 * orders table. Each has its own source and binlog connection (its own server-id); both run in one
 * Flink job, and a background thread per query applies the changelog rows it collects to what the
 * screen shows.
 *
 * <p>One job rather than one {@code executeSql} per query: a local environment starts a MiniCluster
 * for every job it submits, so two jobs cost a second MiniCluster start and submission (seconds on
 * a cold JVM), and the first job's snapshot would compete for the CPU with the second one's
 * planning. The rows each query yields are the same ({@code toChangelogStream} gives the changelog
 * that {@code TableResult.collect()} gives).
 */
final class OrdersPipeline implements AutoCloseable {

    static final String JOB_NAME = "capstan-mysql demo: revenue by status and the orders changelog";

    static final String AGGREGATE_SQL =
            "SELECT status, COUNT(*) AS orders, SUM(amount) AS revenue FROM orders GROUP BY status";

    static String changelogSql(int serverId) {
        return "SELECT id, customer_id, status, amount, op_ts FROM orders /*+ OPTIONS('server-id' = '"
                + serverId
                + "') */";
    }

    /** One row of the raw changelog, as shown on screen. */
    record Change(
            RowKind kind,
            long id,
            int customerId,
            String status,
            BigDecimal amount,
            Instant opTs) {}

    private final StatusTotals flinkTotals = new StatusTotals();
    private final ArrayDeque<Change> recent = new ArrayDeque<>();
    private final int keepRecent;
    private final Map<RowKind, AtomicLong> changeCounts = new LinkedHashMap<>();
    private final AtomicLong lastLagMillis = new AtomicLong(-1);
    private final List<Thread> readers = new ArrayList<>();
    private volatile JobClient job;
    private volatile Throwable failure;
    private volatile boolean closing;

    OrdersPipeline(int keepRecent) {
        this.keepRecent = keepRecent;
        for (RowKind k : RowKind.values()) {
            changeCounts.put(k, new AtomicLong());
        }
    }

    /** The table DDL; {@code startOptions} are the scan.startup.* options. */
    static String createTable(
            MySqlConnectionConfig c,
            String database,
            int serverId,
            Map<String, String> startOptions) {
        Map<String, String> o = capstanOptions(c, database, ShopSchema.ORDERS, serverId);
        o.putAll(startOptions);
        return "CREATE TEMPORARY TABLE orders (\n"
                + "  id BIGINT,\n"
                + "  customer_id INT,\n"
                + "  status STRING,\n"
                + "  amount DECIMAL(10, 2),\n"
                + "  updated_at TIMESTAMP_LTZ(3),\n"
                + "  op_ts TIMESTAMP_LTZ(3) METADATA FROM 'op_ts' VIRTUAL,\n"
                + "  PRIMARY KEY (id) NOT ENFORCED\n"
                + ") "
                + withClause(o);
    }

    /** The capstan-mysql options for one table read with {@code c}'s account. */
    static Map<String, String> capstanOptions(
            MySqlConnectionConfig c, String database, String table, int serverId) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("connector", "capstan-mysql");
        o.put("hostname", c.hostname());
        o.put("port", Integer.toString(c.port()));
        o.put("username", c.username());
        o.put("password", c.password());
        o.put("database-name", database);
        o.put("table-name", table);
        o.put("server-id", Integer.toString(serverId));
        // a quiet binlog connection still hears from the server every second, and the server
        // notices a closed connection within a second (MySQL only sees it when it writes)
        o.put("heartbeat.interval", "1 s");
        return o;
    }

    /** {@code WITH ('k' = 'v', ...)}, one option a line, quotes in values doubled. */
    static String withClause(Map<String, String> options) {
        return "WITH (\n"
                + options.entrySet().stream()
                        .map(
                                e ->
                                        "  '"
                                                + e.getKey()
                                                + "' = '"
                                                + e.getValue().replace("'", "''")
                                                + "'")
                        .collect(Collectors.joining(",\n"))
                + "\n)";
    }

    /**
     * How long the start took, measured where it happened: planning both queries (our table
     * factory's checks against MySQL included), and the local Flink's start with the job's
     * submission.
     */
    record StartTimes(Duration planning, Duration submission) {}

    /** Submits both queries to the local Flink as one job and starts reading their results. */
    StartTimes start(LocalFlinkTables flink, String createTableDdl, int changelogServerId)
            throws Exception {
        List<CloseableIterator<Row>> rows = new ArrayList<>();
        StartTimes times =
                flink.call(
                        f -> {
                            StreamTableEnvironment tEnv = f.tables();
                            long t0 = System.nanoTime();
                            tEnv.executeSql(createTableDdl);
                            rows.add(
                                    tEnv.toChangelogStream(tEnv.sqlQuery(AGGREGATE_SQL))
                                            .collectAsync());
                            rows.add(
                                    tEnv.toChangelogStream(
                                                    tEnv.sqlQuery(changelogSql(changelogServerId)))
                                            .collectAsync());
                            long t1 = System.nanoTime();
                            job = f.env().executeAsync(JOB_NAME);
                            return new StartTimes(
                                    Duration.ofNanos(t1 - t0),
                                    Duration.ofNanos(System.nanoTime() - t1));
                        });
        read("flink-aggregate-reader", rows.get(0), this::applyAggregateRow);
        read("flink-changelog-reader", rows.get(1), this::applyChange);
        return times;
    }

    private void read(
            String name, CloseableIterator<Row> rows, java.util.function.Consumer<Row> sink) {
        Thread t =
                new Thread(
                        () -> {
                            try (CloseableIterator<Row> it = rows) {
                                while (it.hasNext()) {
                                    sink.accept(it.next());
                                }
                            } catch (Throwable e) {
                                if (!closing) {
                                    failure = e;
                                }
                            }
                        },
                        name);
        t.setDaemon(true);
        readers.add(t);
        t.start();
    }

    private void applyAggregateRow(Row r) {
        RowKind k = r.getKind();
        boolean retraction = k == RowKind.UPDATE_BEFORE || k == RowKind.DELETE;
        flinkTotals.apply(
                retraction,
                (String) r.getField(0),
                ((Number) r.getField(1)).longValue(),
                (BigDecimal) r.getField(2));
    }

    private void applyChange(Row r) {
        Instant opTs = (Instant) r.getField(4);
        Change c =
                new Change(
                        r.getKind(),
                        (Long) r.getField(0),
                        (Integer) r.getField(1),
                        (String) r.getField(2),
                        (BigDecimal) r.getField(3),
                        opTs);
        changeCounts.get(c.kind()).incrementAndGet();
        if (opTs != null) {
            lastLagMillis.set(Math.max(0, System.currentTimeMillis() - opTs.toEpochMilli()));
        }
        synchronized (recent) {
            recent.addLast(c);
            while (recent.size() > keepRecent) {
                recent.removeFirst();
            }
        }
    }

    Map<String, StatusTotals.Totals> flinkTotals() {
        return flinkTotals.snapshot();
    }

    /** Newest first. */
    List<Change> recentChanges() {
        synchronized (recent) {
            List<Change> l = new ArrayList<>(recent);
            java.util.Collections.reverse(l);
            return l;
        }
    }

    long changeCount(RowKind k) {
        return changeCounts.get(k).get();
    }

    /**
     * Milliseconds from the commit in MySQL to this JVM for the latest change; -1 before the first.
     */
    long lastLagMillis() {
        return lastLagMillis.get();
    }

    /**
     * The first failure of either query (for example the connector's preflight refusal), or null.
     */
    Throwable failure() {
        return failure;
    }

    /** Cancels the job and waits briefly for it to end. */
    @Override
    public void close() {
        closing = true;
        JobClient j = job;
        if (j != null) {
            cancelQuietly(j);
        }
        for (Thread t : readers) {
            t.interrupt();
        }
    }

    /** Cancels and waits until the job has ended, so its binlog connection is closed. */
    private static void cancelQuietly(JobClient job) {
        try {
            job.cancel().get(5, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline
                    && !job.getJobStatus().get(5, TimeUnit.SECONDS).isTerminalState()) {
                Thread.sleep(50);
            }
        } catch (Exception ignored) {
            // already finished, or the local cluster is gone with it
        }
    }
}

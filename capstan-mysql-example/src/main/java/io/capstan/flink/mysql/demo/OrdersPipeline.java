package io.capstan.flink.mysql.demo;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import java.math.BigDecimal;
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
 * orders table. Each has its own binlog connection (its own server-id); a background thread per
 * query applies the rows that {@code collect()} returns to what the screen shows.
 */
final class OrdersPipeline implements AutoCloseable {

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
    private final List<TableResult> results = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
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
        Map<String, String> o = new LinkedHashMap<>();
        o.put("connector", "capstan-mysql");
        o.put("hostname", c.hostname());
        o.put("port", Integer.toString(c.port()));
        o.put("username", c.username());
        o.put("password", c.password());
        o.put("database-name", database);
        o.put("table-name", ShopSchema.ORDERS);
        o.put("server-id", Integer.toString(serverId));
        // a quiet binlog connection still hears from the server every second, and the server
        // notices a closed connection within a second (MySQL only sees it when it writes)
        o.put("heartbeat.interval", "1 s");
        o.putAll(startOptions);
        return "CREATE TEMPORARY TABLE orders (\n"
                + "  id BIGINT,\n"
                + "  customer_id INT,\n"
                + "  status STRING,\n"
                + "  amount DECIMAL(10, 2),\n"
                + "  updated_at TIMESTAMP_LTZ(3),\n"
                + "  op_ts TIMESTAMP_LTZ(3) METADATA FROM 'op_ts' VIRTUAL,\n"
                + "  PRIMARY KEY (id) NOT ENFORCED\n"
                + ") WITH (\n"
                + o.entrySet().stream()
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

    /** Submits both queries to a local Flink and starts reading their results. */
    void start(String createTableDdl, int changelogServerId) {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql(createTableDdl);

        TableResult aggregate = tEnv.executeSql(AGGREGATE_SQL);
        results.add(aggregate);
        read("flink-aggregate-reader", aggregate, this::applyAggregateRow);

        TableResult changelog = tEnv.executeSql(changelogSql(changelogServerId));
        results.add(changelog);
        read("flink-changelog-reader", changelog, this::applyChange);
    }

    private void read(String name, TableResult result, java.util.function.Consumer<Row> sink) {
        Thread t =
                new Thread(
                        () -> {
                            try (CloseableIterator<Row> it = result.collect()) {
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

    /** Cancels both jobs and waits briefly for them to end. */
    @Override
    public void close() {
        closing = true;
        for (TableResult r : results) {
            r.getJobClient().ifPresent(OrdersPipeline::cancelQuietly);
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

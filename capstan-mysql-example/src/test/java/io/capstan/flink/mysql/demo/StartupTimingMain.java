package io.capstan.flink.mysql.demo;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

/**
 * Times the demo's Flink start step by step in a cold JVM, as docs/quickstart.md accounts for it
 * ("Why start-up takes what it takes"). Not a test: run it by hand, one JVM per measurement, with
 * the demo's JVM options and the module's test classpath, e.g.
 *
 * <pre>
 * java -Xmx1500m (the add-opens of flink.test.jvm.opens) -cp (test classpath) \
 *     io.capstan.flink.mysql.demo.StartupTimingMain capstan one-job
 * </pre>
 *
 * <p>The first argument is the table's connector: {@code capstan} (the demo's table, on the
 * embedded MySQL) or {@code datagen}, the floor: the same columns and the same two queries on
 * Flink's trivial generator, so what {@code capstan} takes beyond it is ours. The second is the
 * structure: {@code one-job} (the demo's: both queries collected from one job) or {@code two-jobs}
 * (one {@code executeSql} per query, as the demo did before, each job starting a MiniCluster of its
 * own). Both connectors run after the same MySQL start and seed, so the JVM is in the same state
 * when Flink starts. Each step prints one {@code TIMING} line.
 */
public final class StartupTimingMain {

    public static void main(String[] args) throws Exception {
        String connector = args.length > 0 ? args[0] : "capstan";
        boolean oneJob = args.length < 2 || args[1].equals("one-job");
        Properties p = new Properties();
        p.setProperty("demo.work.dir", System.getProperty("demo.work.dir", "target/timing"));
        DemoOptions options = DemoOptions.from(p);
        DemoServer server = DemoServer.start(options, new Progress(System.out));
        try (Connection c = server.openWriterConnection()) {
            ShopSchema.create(c, options.database, true);
            ShopSchema.seed(c, options.database, options.seedRows, new Random(42));
        }
        String ddl;
        String changelog;
        if (connector.equals("datagen")) {
            ddl =
                    "CREATE TEMPORARY TABLE orders (id BIGINT, customer_id INT, status STRING,"
                            + " amount DECIMAL(10, 2), updated_at TIMESTAMP_LTZ(3),"
                            + " op_ts AS updated_at, PRIMARY KEY (id) NOT ENFORCED)"
                            + " WITH ('connector' = 'datagen', 'rows-per-second' = '100')";
            // a hint too, so that the planner derives a second table as for capstan's server-id
            changelog =
                    "SELECT id, customer_id, status, amount, op_ts FROM orders"
                            + " /*+ OPTIONS('rows-per-second' = '101') */";
        } else {
            ddl =
                    OrdersPipeline.createTable(
                            server.connectorConfig(),
                            options.database,
                            options.serverId,
                            ShopDemo.startOptions());
            changelog = OrdersPipeline.changelogSql(options.serverId + 1);
        }
        String[] queries = {OrdersPipeline.AGGREGATE_SQL, changelog};
        List<JobClient> jobs = new ArrayList<>();

        long t0 = lap("Flink start (MySQL running, orders seeded)", System.nanoTime());
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        long t = lap("table environment (loads the table planner)", t0);
        tEnv.executeSql(ddl);
        t = lap("CREATE TEMPORARY TABLE", t);
        if (oneJob) {
            List<CloseableIterator<Row>> rows = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Table table = tEnv.sqlQuery(queries[i]);
                t = lap("q" + i + " parse, validate, convert (the table factory runs here)", t);
                rows.add(tEnv.toChangelogStream(table).collectAsync());
                t = lap("q" + i + " optimize, translate", t);
            }
            jobs.add(env.executeAsync("timing"));
            lap("MiniCluster start and job submission", t);
            for (int i = 0; i < 2; i++) {
                readInBackground(rows.get(i), "q" + i, t0);
            }
        } else {
            for (int i = 0; i < 2; i++) {
                Table table = tEnv.sqlQuery(queries[i]);
                t = lap("q" + i + " parse, validate, convert (the table factory runs here)", t);
                TableResult result = table.execute();
                t = lap("q" + i + " optimize, translate, MiniCluster start, submission", t);
                result.getJobClient().ifPresent(jobs::add);
                readInBackground(result.collect(), "q" + i, t0);
            }
        }
        lap("TOTAL from the table environment to submitted", t0);
        Thread.sleep(Long.getLong("timing.linger.ms", 4000));
        jobs.forEach(JobClient::cancel);
        Thread.sleep(500);
        server.close();
        System.exit(0);
    }

    /** Drains the rows; prints when the first arrived. */
    private static void readInBackground(CloseableIterator<Row> rows, String query, long since) {
        Thread t =
                new Thread(
                        () -> {
                            try (rows) {
                                if (rows.hasNext()) {
                                    lap(query + " first row, from the table environment", since);
                                }
                                while (rows.hasNext()) {
                                    rows.next();
                                }
                            } catch (Exception e) {
                                // cancelled at the end
                            }
                        },
                        query + "-reader");
        t.setDaemon(true);
        t.start();
    }

    /** Prints the wall time since {@code since} and the JVM's CPU time so far (all threads). */
    private static long lap(String what, long since) {
        long now = System.nanoTime();
        System.out.printf(
                "TIMING %-60s %6d ms (JVM CPU so far %6d ms)%n",
                what, (now - since) / 1_000_000, PROCESS.getProcessCpuTime() / 1_000_000);
        System.out.flush();
        return now;
    }

    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
}

package io.capstan.flink.mysql.e2e.lakehouse;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.cluster.SqlGateway;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lakehouse example's pipeline on a real cluster of separate JVMs: {@code capstan-mysql} tables
 * inserted by one Flink SQL job (a statement set through the SQL Gateway) into Apache Paimon
 * primary-key tables on a local warehouse directory, with the shaded SQL jar, the MySQL driver,
 * Paimon's Flink bundle and a Hadoop client on the cluster's classpath. While a writer changes two
 * tables, a TaskManager is SIGKILLed during the snapshot and another during the binlog stream; then
 * the job stops with a savepoint and is restored with a second shard added to a third source's
 * {@code table-name} ({@code scan.newly-added-table.enabled}), changed before and after the
 * restore. After the writes stop, a batch query over the Paimon tables must reach exactly MySQL's
 * row count and checksum for each table and shard: a change lost or applied twice across the kills,
 * the savepoint or the added table's snapshot shifts them.
 */
class LakehouseClusterIT {
    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final String ORDERS = "lk_orders";
    private static final String CUSTOMERS = "lk_customers";
    private static final int ORDER_ROWS = 30_000;
    private static final int CUSTOMER_ROWS = 3_000;
    private static final String PARTS = "parts";
    private static final String PART_A = "lk_part_a";
    private static final String PART_B = "lk_part_b";
    private static final int PART_ROWS = 3_000;
    private static final long PART_B_FIRST_ID = 100_001;

    /** The same text in MySQL and in Flink SQL: see the example's LakehouseTables. */
    private static final Map<String, String> CHECKSUMS =
            Map.of(
                    ORDERS, "SUM(id + (ver * 3 + amount * 500) * (MOD(id, 97) + 1.0))",
                    CUSTOMERS, "SUM(id + (CHAR_LENGTH(name) * 3 + tier * 7) * (MOD(id, 97) + 1.0))",
                    PARTS, "SUM(id + ver * 3 * (MOD(id, 97) + 1.0))");

    private static final Map<String, String> COLUMNS =
            Map.of(
                    ORDERS, "id BIGINT, ver BIGINT, amount DECIMAL(10, 2)",
                    CUSTOMERS, "id INT, name STRING, tier INT");

    private static FlinkStandaloneCluster cluster;
    private static SqlGateway gateway;

    @BeforeAll
    static void startCluster() {
        Path sqlJar = Path.of(System.getProperty("capstan.e2e.sql.jar")).toAbsolutePath();
        assertThat(sqlJar).as("the shaded SQL jar").isRegularFile();
        Path driverJar = Path.of(System.getProperty("capstan.e2e.mysql.driver.jar"));
        assertThat(driverJar).as("mysql-connector-j").isRegularFile();
        cluster =
                FlinkStandaloneCluster.builder()
                        .name("LakehouseClusterIT")
                        .taskManagers(2)
                        .slotsPerTaskManager(2)
                        .checkpointInterval(Duration.ofSeconds(1))
                        .addJar(sqlJar)
                        .addJar(driverJar)
                        .start();
        gateway = cluster.startSqlGateway(List.of());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void paimonTablesEqualMySqlAcrossKillsAndASavepointThatAddsATable() throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE "
                            + ORDERS
                            + " (id BIGINT NOT NULL PRIMARY KEY, ver BIGINT NOT NULL,"
                            + " amount DECIMAL(10,2) NOT NULL)");
            st.execute(
                    "CREATE TABLE "
                            + CUSTOMERS
                            + " (id INT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL,"
                            + " tier INT NOT NULL)");
            st.execute("SET SESSION cte_max_recursion_depth = " + (ORDER_ROWS + 1));
            st.execute(
                    "INSERT INTO "
                            + ORDERS
                            + series(ORDER_ROWS, 1)
                            + " SELECT i, 0, (i % 1000) / 10 FROM n");
            st.execute(
                    "INSERT INTO "
                            + CUSTOMERS
                            + series(CUSTOMER_ROWS, 1)
                            + " SELECT i, CONCAT('customer-', i), i % 3 FROM n");
            // Two shards of one shape with disjoint keys: the job captures the first; the restore
            // from its savepoint widens table-name to both (scan.newly-added-table.enabled).
            for (String part : List.of(PART_A, PART_B)) {
                st.execute(
                        "CREATE TABLE "
                                + part
                                + " (id BIGINT NOT NULL PRIMARY KEY, ver BIGINT NOT NULL)");
            }
            st.execute("INSERT INTO " + PART_A + series(PART_ROWS, 1) + " SELECT i, 0 FROM n");
            st.execute(
                    "INSERT INTO "
                            + PART_B
                            + series(PART_ROWS, PART_B_FIRST_ID)
                            + " SELECT i, 0 FROM n");
        }
        String warehouse = cluster.workDir().resolve("warehouse").toUri().toString();
        long begun = System.nanoTime();
        String restored;
        try (TwoTableLoad load =
                new TwoTableLoad(
                        DB::openRootConnection,
                        ORDERS,
                        ORDER_ROWS,
                        CUSTOMERS,
                        CUSTOMER_ROWS,
                        150)) {
            String first;
            try (SqlGateway.Session session = gateway.openSession()) {
                first = submit(session, warehouse, PART_A, null);
            }
            cluster.waitForJobState(first, Duration.ofMinutes(2), "RUNNING");
            cluster.waitForCompletedCheckpoints(first, 1, Duration.ofMinutes(2));
            killOneTaskManagerAndRecover(first, "during the snapshot", 1);
            try (SqlGateway.Session batch = batchSession(warehouse)) {
                awaitPaimonRows(batch, ORDERS, ORDER_ROWS * 9L / 10);
            }
            killOneTaskManagerAndRecover(first, "during the binlog stream", 2);

            String savepoint = cluster.stopWithSavepoint(first, Duration.ofMinutes(2));
            DB.execute("UPDATE " + PART_B + " SET ver = ver + 1 WHERE MOD(id, 5) = 0");
            try (SqlGateway.Session session = gateway.openSession()) {
                restored = submit(session, warehouse, PART_A + "|" + PART_B, savepoint);
            }
            cluster.waitForJobState(restored, Duration.ofMinutes(2), "RUNNING");
            System.out.printf(
                    "Restored from the savepoint with %s added %d ms after the start%n",
                    PART_B, (System.nanoTime() - begun) / 1_000_000);
            for (int i = 0; i < 5; i++) {
                DB.execute(
                        "UPDATE " + PART_B + " SET ver = ver + 1 WHERE MOD(id, 7) = " + i,
                        "DELETE FROM " + PART_A + " WHERE id = " + (100 + i),
                        "UPDATE " + PART_A + " SET ver = ver + 1 WHERE MOD(id, 11) = " + i);
                Thread.sleep(500);
            }
            cluster.waitForCompletedCheckpoints(
                    restored,
                    cluster.rest().completedCheckpoints(restored) + 2,
                    Duration.ofMinutes(2));
            load.close();
            System.out.printf(
                    "Load: %d transactions (%d failed and retried)%n",
                    load.transactions(), load.failures());
        }
        Map<String, List<BigDecimal>> mysql = tallies(null);
        Map<String, List<BigDecimal>> paimon = Map.of();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        try (SqlGateway.Session batch = batchSession(warehouse)) {
            while (System.nanoTime() < deadline) {
                paimon = tallies(batch);
                if (same(mysql, paimon)) {
                    break;
                }
                Thread.sleep(1_000);
            }
        }
        System.out.printf(
                "MySQL  %s%nPaimon %s%n%d ms after the start%n",
                mysql, paimon, (System.nanoTime() - begun) / 1_000_000);
        assertThat(same(mysql, paimon))
                .as("Paimon's tables equal MySQL's: %s vs %s", paimon, mysql)
                .isTrue();
    }

    /** {@code WITH RECURSIVE n (i)}: {@code rows} numbers from {@code first}. */
    private static String series(int rows, long first) {
        return " WITH RECURSIVE n (i) AS (SELECT "
                + first
                + " UNION ALL SELECT i + 1 FROM n WHERE i < "
                + (first + rows - 1)
                + ")";
    }

    /** Sets the session up and submits the one job (from {@code savepoint} if not null). */
    private static String submit(
            SqlGateway.Session session, String warehouse, String parts, String savepoint) {
        for (String ddl : setup(warehouse, parts)) {
            session.execute(ddl);
        }
        if (savepoint != null) {
            session.execute("SET 'execution.savepoint.path' = '" + savepoint + "'");
        }
        return session.execute(
                        "EXECUTE STATEMENT SET BEGIN "
                                + insert(ORDERS, "*")
                                + "; "
                                + insert(CUSTOMERS, "*")
                                + "; "
                                + insert(PARTS, "id, tbl, ver")
                                + "; END")
                .requireJobId();
    }

    private static List<String> setup(String warehouse, String parts) {
        MySqlAccount account = DB.connectorAccount();
        List<String> s = new ArrayList<>();
        // Paimon commits what the job wrote at each completed checkpoint
        s.add("SET 'execution.checkpointing.interval' = '1 s'");
        s.add(createCatalog(warehouse));
        s.add("CREATE DATABASE IF NOT EXISTS lake.shop");
        int serverId = 5701;
        for (String table : List.of(ORDERS, CUSTOMERS, PARTS)) {
            s.add(
                    "CREATE TABLE IF NOT EXISTS lake.shop."
                            + table
                            + " ("
                            + (table.equals(PARTS)
                                    ? "id BIGINT, tbl STRING, ver BIGINT"
                                    : COLUMNS.get(table))
                            + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
            s.add(
                    "CREATE TEMPORARY TABLE default_catalog.default_database.mysql_"
                            + table
                            + " ("
                            + (table.equals(PARTS)
                                    ? "id BIGINT, ver BIGINT, tbl STRING METADATA FROM 'table_name' VIRTUAL"
                                    : COLUMNS.get(table))
                            + ", PRIMARY KEY (id) NOT ENFORCED) WITH ("
                            + " 'connector' = 'capstan-mysql',"
                            + " 'hostname' = '"
                            + account.hostname()
                            + "', 'port' = '"
                            + account.port()
                            + "', 'username' = '"
                            + account.username()
                            + "', 'password' = '"
                            + account.password()
                            + "', 'database-name' = '"
                            + DB.name()
                            + "', 'table-name' = '"
                            + (table.equals(PARTS) ? parts : table)
                            + "', 'server-id' = '"
                            + serverId++
                            + "', 'scan.newly-added-table.enabled' = 'true',"
                            + " 'scan.incremental.snapshot.chunk.size' = '1000')");
        }
        return s;
    }

    private static String createCatalog(String warehouse) {
        return "CREATE CATALOG lake WITH ('type' = 'paimon', 'warehouse' = '" + warehouse + "')";
    }

    private static String insert(String table, String columns) {
        return "INSERT INTO lake.shop."
                + table
                + " SELECT "
                + columns
                + " FROM default_catalog.default_database.mysql_"
                + table;
    }

    private static SqlGateway.Session batchSession(String warehouse) {
        SqlGateway.Session batch = gateway.openSession();
        batch.execute("SET 'execution.runtime-mode' = 'batch'");
        batch.execute(createCatalog(warehouse));
        return batch;
    }

    /**
     * Row count and checksum of every table: MySQL's (batch null) or Paimon's through the batch
     * session; the two shards' rows share Paimon's parts table, told apart by its tbl column.
     */
    private static Map<String, List<BigDecimal>> tallies(SqlGateway.Session batch)
            throws Exception {
        List<String> parts = new ArrayList<>();
        for (String table : List.of(ORDERS, CUSTOMERS, PART_A, PART_B)) {
            boolean part = table.startsWith("lk_part_");
            String from =
                    batch == null
                            ? table
                            : part
                                    ? "lake.shop." + PARTS + " WHERE tbl = '" + table + "'"
                                    : "lake.shop." + table;
            parts.add(
                    "SELECT '"
                            + table
                            + "', COUNT(*), "
                            + CHECKSUMS.get(part ? PARTS : table)
                            + " FROM "
                            + from);
        }
        String sql = String.join(" UNION ALL ", parts);
        Map<String, List<BigDecimal>> m = new LinkedHashMap<>();
        if (batch == null) {
            try (Connection c = DB.openRootConnection();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    m.put(
                            rs.getString(1),
                            List.of(rs.getBigDecimal(2), orZero(rs.getBigDecimal(3))));
                }
            }
            return m;
        }
        for (SqlGateway.SqlRow row :
                batch.executeQuery(sql, Integer.MAX_VALUE, Duration.ofMinutes(2)).rows()) {
            List<String> f = row.fields();
            m.put(
                    f.get(0),
                    List.of(
                            new BigDecimal(f.get(1)),
                            orZero(f.get(2) == null ? null : new BigDecimal(f.get(2)))));
        }
        return m;
    }

    private static void awaitPaimonRows(SqlGateway.Session batch, String table, long atLeast)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            List<BigDecimal> t = tallies(batch).get(table);
            if (t != null && t.get(0).longValue() >= atLeast) {
                System.out.printf("Paimon's %s has %s rows: snapshot done%n", table, t.get(0));
                return;
            }
            Thread.sleep(1_000);
        }
        throw new AssertionError(
                "Paimon's "
                        + table
                        + " did not reach "
                        + atLeast
                        + " rows\n"
                        + cluster.diagnostics());
    }

    private static boolean same(Map<String, List<BigDecimal>> a, Map<String, List<BigDecimal>> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (String k : a.keySet()) {
            for (int i = 0; i < 2; i++) {
                if (a.get(k).get(i).compareTo(b.get(k).get(i)) != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static BigDecimal orZero(BigDecimal v) {
        return v == null ? BigDecimal.ZERO : v;
    }

    private static void killOneTaskManagerAndRecover(String jobId, String when, int restarts)
            throws InterruptedException {
        String victim = cluster.aTaskManagerRunning(jobId, Duration.ofMinutes(1));
        long killedAt = System.nanoTime();
        assertThat(cluster.killTaskManager(victim))
                .as("exit code of a SIGKILLed JVM")
                .isEqualTo(137);
        cluster.startTaskManager();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (cluster.rest().restarts(jobId) < restarts) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "The job did not restart after the kill\n" + cluster.diagnostics());
            }
            Thread.sleep(250);
        }
        cluster.waitForJobState(jobId, Duration.ofMinutes(2), "RUNNING");
        long checkpoints = cluster.rest().completedCheckpoints(jobId);
        cluster.waitForCompletedCheckpoints(jobId, checkpoints + 2, Duration.ofMinutes(2));
        System.out.printf(
                "Killed %s %s; running again with new checkpoints %d ms later%n",
                victim, when, (System.nanoTime() - killedAt) / 1_000_000);
    }
}

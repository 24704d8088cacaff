package io.capstan.flink.mysql.e2e.connector;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.cluster.SqlGateway;
import io.capstan.flink.mysql.testing.FlinkLines;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL path on a real cluster: the shaded {@code flink-sql-connector-capstan-mysql} jar (not the
 * module's classes) and MySQL Connector/J's jar on the classpath of the JobManager, the
 * TaskManagers and the SQL Gateway, as when both are dropped into a distribution's lib/, and a
 * streaming query over a {@code 'capstan-mysql'} table run through the SQL Gateway's REST API while
 * four writers change the table. The query's continuously updated aggregate (row count and sums of
 * key, version and balance, which a lost or repeated change would shift) must reach exactly the
 * table's values.
 */
@Tag(FlinkLines.EVERY_LINE)
class SqlGatewayConnectorClusterIT {
    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static FlinkStandaloneCluster cluster;
    private static CdcJobFixture fixture;
    private static SqlGateway gateway;

    @BeforeAll
    static void startCluster() {
        Path sqlJar =
                Path.of(
                                System.getProperty(
                                        "capstan.e2e.sql.jar",
                                        "../flink-sql-connector-capstan-mysql/target/flink-sql-connector-capstan-mysql-0.1.0-2.3-SNAPSHOT.jar"))
                        .toAbsolutePath();
        assertThat(sqlJar)
                .as(
                        "the shaded SQL jar, built by flink-sql-connector-capstan-mysql's package phase")
                .isRegularFile();
        // Not bundled in the SQL jar: users put it into lib/ beside it.
        Path driverJar = Path.of(System.getProperty("capstan.e2e.mysql.driver.jar"));
        assertThat(driverJar)
                .as("mysql-connector-j from the local Maven repository (dependency:properties)")
                .isRegularFile();
        cluster =
                FlinkStandaloneCluster.builder()
                        .name("SqlGatewayConnectorClusterIT")
                        .taskManagers(2)
                        .slotsPerTaskManager(1)
                        .checkpointInterval(Duration.ofSeconds(1))
                        .addJar(sqlJar)
                        .addJar(driverJar)
                        .start();
        // The Flink release the cluster runs is the one the build resolved its classpath for (the
        // 1.20 line runs this IT on its oldest release too).
        String flinkVersion = cluster.rest().overview().path("flink-version").asText();
        assertThat(flinkVersion)
                .as("the cluster's Flink version")
                .isEqualTo(System.getProperty("capstan.e2e.flink.version", flinkVersion));
        System.out.printf("Flink %s cluster%n", flinkVersion);
        fixture = new CdcJobFixture(cluster, DB);
        long started = System.nanoTime();
        gateway = cluster.startSqlGateway(List.of()); // the cluster's classpath already has the jar
        System.out.printf(
                "Cluster up in %d ms, SQL Gateway %d ms later%n",
                cluster.startupMillis(), (System.nanoTime() - started) / 1_000_000);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            CdcJobFixture.assertNoProcessesLeft(cluster);
        }
    }

    @Test
    void streamingAggregateOverTheChangelogEqualsTheTable() throws Exception {
        String table = "accounts_sql";
        fixture.createTable(table);
        String startGtids = fixture.gtidExecuted();
        fixture.fill(table, 2_000); // arrives as inserts: the job starts before it
        MySqlAccount account = DB.connectorAccount();
        String query = "SELECT COUNT(*), SUM(id), SUM(ver), SUM(balance) FROM src";
        AtomicReference<List<String>> expected = new AtomicReference<>();

        try (SqlGateway.Session session = gateway.openSession()) {
            session.execute(
                    "CREATE TABLE src (id BIGINT, uid BIGINT, ver BIGINT, balance BIGINT,"
                            + " note STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                            + " 'connector' = 'capstan-mysql',"
                            + " 'hostname' = '"
                            + account.hostname()
                            + "', 'port' = '"
                            + account.port()
                            + "',"
                            + " 'username' = '"
                            + account.username()
                            + "', 'password' = '"
                            + account.password()
                            + "',"
                            + " 'database-name' = '"
                            + DB.name()
                            + "', 'table-name' = '"
                            + table
                            + "',"
                            + " 'server-id' = '5601', 'scan.startup.mode' = 'specific-offset',"
                            + " 'scan.startup.specific-offset.gtid-set' = '"
                            + startGtids
                            + "')");
            long begun = System.nanoTime();
            CompletableFuture<SqlGateway.SqlResult> aggregate =
                    CompletableFuture.supplyAsync(
                            () ->
                                    session.executeUntil(
                                            query,
                                            result ->
                                                    expected.get() != null
                                                            && result.materialized()
                                                                    .equals(
                                                                            List.of(
                                                                                    expected
                                                                                            .get())),
                                            Duration.ofMinutes(2)));
            long transactions;
            try (VersionedLoad load = fixture.startLoad(table, 4, 2_001, 100_000, 5)) {
                Thread.sleep(8_000);
                load.close();
                transactions = load.committedTransactions();
            }
            assertThat(aggregate).as("the query is still running when the load stops").isNotDone();
            expected.set(tableAggregate(table));
            SqlGateway.SqlResult result = aggregate.get(3, TimeUnit.MINUTES);
            System.out.printf(
                    "After %d transactions the aggregate equals the table %s: %d changelog rows,"
                            + " %d ms after the query started%n",
                    transactions,
                    expected.get(),
                    result.rows().size(),
                    (System.nanoTime() - begun) / 1_000_000);
            assertThat(result.materialized()).containsExactly(expected.get());
        }
        CdcJobFixture.assertPasswordNotInLogs(cluster, account.password());
    }

    private static List<String> tableAggregate(String table) {
        List<ChangelogCheck.Row> rows = fixture.finalRows(table);
        return List.of(
                Long.toString(rows.size()),
                Long.toString(rows.stream().mapToLong(ChangelogCheck.Row::id).sum()),
                Long.toString(rows.stream().mapToLong(ChangelogCheck.Row::ver).sum()),
                Long.toString(rows.stream().mapToLong(ChangelogCheck.Row::balance).sum()));
    }
}

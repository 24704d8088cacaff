package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.initialOptions;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code mysql-cdc} user's table on a real MariaDB (Debian's {@code mariadbd}): the options a
 * Flink CDC DDL gives ({@code hostname}, {@code database-name}, {@code table-name}, {@code
 * server-id} ranges, the chunk size), the connector renamed and nothing else changed. The snapshot
 * and the changes after it, applied by key, equal the table.
 */
class MariaDbSqlIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @RegisterExtension
    static final MySqlTestDatabase DB =
            MySqlTestDatabase.onServerOfItsOwn(() -> MariaDbServer.startForCapture(51));

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void aMySqlCdcTableRunsOnMariaDbRenamedOnly() throws Exception {
        DB.execute(
                "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, status VARCHAR(16) NOT NULL,"
                        + " amount DECIMAL(12,2) NOT NULL, placed DATETIME(3) NULL)");
        StringBuilder insert = new StringBuilder("INSERT INTO orders VALUES ");
        for (int i = 1; i <= 1_000; i++) {
            insert.append(i == 1 ? "" : ", ")
                    .append("(")
                    .append(i)
                    .append(", 'new', ")
                    .append(i)
                    .append(".25, '2026-12-07 10:00:00.125')");
        }
        DB.execute(insert.toString());
        Map<String, String> o = initialOptions(DB, "orders");
        o.put("scan.incremental.snapshot.chunk.size", "100");
        StreamTableEnvironment tEnv = SqlItSupport.tableEnv();
        tEnv.executeSql(
                createTable(
                        "orders",
                        "id BIGINT, status STRING, amount DECIMAL(12,2), placed TIMESTAMP(3),"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        o));
        Set<Long> before = SqlItSupport.binlogDumpThreads(DB);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM orders"))) {
            SqlItSupport.awaitBinlogReader(DB, before, TIMEOUT);
            DB.execute(
                    "INSERT INTO orders VALUES (1001, 'new', 1.50, NULL)",
                    "UPDATE orders SET status = 'paid', amount = amount + 1 WHERE id <= 10",
                    "DELETE FROM orders WHERE id BETWEEN 500 AND 504",
                    "UPDATE orders SET id = 2000 WHERE id = 999");
            Map<Long, String> table = table();
            List<Row> rows = changes.await(r -> applied(r).equals(table), TIMEOUT);
            Thread.sleep(2_000); // a late duplicate would show
            assertThat(applied(changes.rows())).isEqualTo(table);
            assertThat(rows.size()).as("snapshot rows and changes").isGreaterThan(1_000);
        }
    }

    /**
     * The changelog applied by key, strictly: id to "status amount placed". An insert of a key
     * already there (a duplicate) or a retraction of one not there (a loss) fails.
     */
    private static Map<Long, String> applied(List<Row> rows) {
        Map<Long, String> out = new HashMap<>();
        for (Row r : rows) {
            long id = (Long) r.getField(0);
            String value = r.getField(1) + " " + r.getField(2) + " " + r.getField(3);
            boolean present = out.containsKey(id);
            switch (r.getKind()) {
                case INSERT:
                    assertThat(present).as("insert of a present key %s", id).isFalse();
                    out.put(id, value);
                    break;
                case UPDATE_AFTER:
                    out.put(id, value);
                    break;
                default: // UPDATE_BEFORE, DELETE
                    assertThat(out.get(id)).as("retraction of key %s", id).isEqualTo(value);
                    out.remove(id);
            }
        }
        return out;
    }

    /** The table as MariaDB holds it, in the form {@link #applied} gives. */
    private static Map<Long, String> table() throws SQLException {
        Map<Long, String> out = new HashMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT id, status, amount, DATE_FORMAT(placed,"
                                        + " '%Y-%m-%dT%H:%i:%s.%f') FROM orders")) {
            while (rs.next()) {
                String placed = rs.getString(4);
                out.put(
                        rs.getLong(1),
                        rs.getString(2)
                                + " "
                                + rs.getBigDecimal(3)
                                + " "
                                + (placed == null
                                        ? "null"
                                        : placed.substring(0, placed.length() - 3)));
            }
        }
        return out;
    }
}

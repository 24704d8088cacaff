package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.gtidExecuted;
import static io.capstan.flink.mysql.table.SqlItSupport.options;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The 'capstan-mysql' table connector against a real MySQL and a Flink MiniCluster.
 *
 * <p>The source cannot read snapshots yet, so every table here starts at 'specific-offset' = the
 * server's gtid_executed taken before the writes: the changelog then holds every write, and
 * queries over it must equal the same queries on MySQL.
 */
class CapstanMySqlTableIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private StreamTableEnvironment tEnv;

    @BeforeEach
    void setUp() {
        tEnv = SqlItSupport.tableEnv();
    }

    // ---------------------------------------------------------------- GROUP BY equals MySQL

    @Test
    void groupByOverTheChangelogEqualsTheSameQueryOnMySql() throws Exception {
        DB.execute(
                "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer_id INT,"
                        + " status VARCHAR(16) NOT NULL, amount DECIMAL(12,2) NOT NULL,"
                        + " updated_at TIMESTAMP(3) NULL)");
        String start = gtidExecuted(DB);
        tEnv.executeSql(
                createTable(
                        "orders",
                        "id BIGINT, customer_id INT, status STRING, amount DECIMAL(12,2),"
                                + " updated_at TIMESTAMP_LTZ(3), PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "orders", start)));

        try (ChangelogCollector changes =
                new ChangelogCollector(
                        tEnv.executeSql(
                                "SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY status"))) {
            // Writers run while the job starts and streams.
            ExecutorService writers = Executors.newFixedThreadPool(3);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                done.add(writers.submit(() -> { writeOrders(writer, 250); return null; }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            writers.shutdown();

            Map<String, List<Object>> expected = mysqlGroupBy();
            assertThat(expected).isNotEmpty();
            changes.await(rows -> materializeGroups(rows).equals(expected), TIMEOUT);
        }
    }

    /** Random inserts, updates (status and amount) and deletes on this writer's own ids. */
    private static void writeOrders(int writer, int operations) throws SQLException {
        Random random = new Random(42 + writer);
        String[] statuses = {"NEW", "PAID", "SHIPPED", "CANCELLED"};
        List<Long> live = new ArrayList<>();
        long nextId = writer * 1_000_000L;
        try (Connection c = DB.openRootConnection(); Statement s = c.createStatement()) {
            for (int i = 0; i < operations; i++) {
                boolean transaction = random.nextInt(5) == 0;
                if (transaction) {
                    c.setAutoCommit(false);
                }
                int statements = transaction ? 1 + random.nextInt(4) : 1;
                for (int k = 0; k < statements; k++) {
                    int op = live.size() < 5 ? 0 : random.nextInt(10);
                    if (op < 5) {
                        long id = nextId++;
                        s.executeUpdate(
                                "INSERT INTO orders VALUES (" + id + ", " + random.nextInt(100) + ", '"
                                        + statuses[random.nextInt(statuses.length)] + "', "
                                        + amount(random) + ", NOW(3))");
                        live.add(id);
                    } else if (op < 8) {
                        long id = live.get(random.nextInt(live.size()));
                        s.executeUpdate(
                                "UPDATE orders SET status = '" + statuses[random.nextInt(statuses.length)]
                                        + "', amount = " + amount(random) + " WHERE id = " + id);
                    } else {
                        long id = live.remove(random.nextInt(live.size()));
                        s.executeUpdate("DELETE FROM orders WHERE id = " + id);
                    }
                }
                if (transaction) {
                    c.commit();
                    c.setAutoCommit(true);
                }
            }
        }
    }

    private static String amount(Random random) {
        return BigDecimal.valueOf(random.nextInt(10_000_000), 2).toPlainString();
    }

    private static Map<String, List<Object>> mysqlGroupBy() throws SQLException {
        Map<String, List<Object>> groups = new HashMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status")) {
            while (rs.next()) {
                groups.put(rs.getString(1), List.of(rs.getLong(2), rs.getBigDecimal(3).setScale(2)));
            }
        }
        return groups;
    }

    /** Applies a GROUP BY result's changelog: the groups and their (count, sum) now. */
    private static Map<String, List<Object>> materializeGroups(List<Row> rows) {
        Map<String, List<Object>> groups = new HashMap<>();
        for (Row r : rows) {
            String status = (String) r.getField(0);
            if (r.getKind() == RowKind.INSERT || r.getKind() == RowKind.UPDATE_AFTER) {
                groups.put(status, List.of(r.getField(1), ((BigDecimal) r.getField(2)).setScale(2)));
            } else {
                groups.remove(status);
            }
        }
        return groups;
    }

    // ---------------------------------------------------------------- type matrix

    @Test
    void typeMatrixReadThroughSqlHasTheExpectedValues() throws Exception {
        DB.execute(
                "CREATE TABLE types (id INT NOT NULL PRIMARY KEY,"
                        + " c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint_u SMALLINT UNSIGNED,"
                        + " c_mediumint MEDIUMINT, c_int_u INT UNSIGNED, c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED,"
                        + " c_decimal DECIMAL(12,2), c_float FLOAT, c_double DOUBLE, c_bit1 BIT(1), c_bit10 BIT(10),"
                        + " c_char CHAR(4), c_varchar VARCHAR(16), c_text TEXT, c_binary BINARY(4), c_varbinary VARBINARY(8),"
                        + " c_enum ENUM('a','b','c'), c_set SET('x','y','z'), c_json JSON, c_date DATE, c_time TIME(3),"
                        + " c_datetime DATETIME(3), c_timestamp TIMESTAMP(6) NULL, c_year YEAR)"
                        + " DEFAULT CHARSET = utf8mb4");
        String start = gtidExecuted(DB);
        tEnv.executeSql(
                createTable(
                        "types",
                        "id INT NOT NULL, c_tinyint TINYINT, c_tinyint_u SMALLINT, c_smallint_u INT,"
                                + " c_mediumint INT, c_int_u BIGINT, c_bigint BIGINT, c_bigint_u DECIMAL(20, 0),"
                                + " c_decimal DECIMAL(12, 2), c_float FLOAT, c_double DOUBLE, c_bit1 BOOLEAN, c_bit10 BYTES,"
                                + " c_char CHAR(4), c_varchar VARCHAR(16), c_text STRING, c_binary BINARY(4), c_varbinary BYTES,"
                                + " c_enum STRING, c_set STRING, c_json STRING, c_date DATE, c_time BIGINT,"
                                + " c_datetime TIMESTAMP(3), c_timestamp TIMESTAMP_LTZ(6), c_year INT,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "types", start)));
        try (ChangelogCollector changes = new ChangelogCollector(tEnv.executeSql("SELECT * FROM types"))) {
            DB.execute(
                    "SET time_zone = '+00:00'",
                    "INSERT INTO types VALUES (1, -128, 255, 65535, -8388608, 4294967295, -9223372036854775808,"
                            + " 18446744073709551615, -1234567890.12, 1.5, -2.25e300, b'1', b'1000000001',"
                            + " 'ab', 'héllo ✓', 'long text', x'0102', x'0a0b0c',"
                            + " 'b', 'z,x', '{\"k\": [1, 2]}', '2024-02-29', '12:34:56.789',"
                            + " '2024-02-29 12:34:56.789', '2024-02-29 12:34:56.123456', 2024)",
                    "INSERT INTO types (id) VALUES (2)");
            List<Row> rows = changes.awaitCount(2, TIMEOUT);
            Row expected =
                    Row.ofKind(
                            RowKind.INSERT,
                            1, (byte) -128, (short) 255, 65535, -8388608, 4294967295L, Long.MIN_VALUE,
                            new BigDecimal("18446744073709551615"), new BigDecimal("-1234567890.12"), 1.5f, -2.25e300,
                            true, new byte[] {0x02, 0x01}, "ab", "héllo ✓", "long text", new byte[] {1, 2, 0, 0},
                            new byte[] {0x0a, 0x0b, 0x0c}, "b", "x,z", "{\"k\": [1, 2]}", LocalDate.of(2024, 2, 29),
                            45_296_789_000L, LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000),
                            Instant.parse("2024-02-29T12:34:56.123456Z"), 2024);
            assertThat(rows.get(0)).isEqualTo(expected);
            Row nulls = new Row(RowKind.INSERT, 26);
            nulls.setField(0, 2);
            assertThat(rows.get(1)).isEqualTo(nulls);
        }
    }

    // ---------------------------------------------------------------- metadata columns

    @Test
    void metadataColumnsDescribeEachChange() throws Exception {
        DB.execute("CREATE TABLE meta (id INT NOT NULL PRIMARY KEY, v VARCHAR(8))");
        String start = gtidExecuted(DB);
        tEnv.executeSql(
                createTable(
                        "meta",
                        "id INT NOT NULL, v STRING,"
                                + " db STRING METADATA FROM 'database_name' VIRTUAL,"
                                + " tbl STRING METADATA FROM 'table_name' VIRTUAL,"
                                + " ts TIMESTAMP_LTZ(3) METADATA FROM 'op_ts' VIRTUAL,"
                                + " gtid STRING METADATA FROM 'gtid' VIRTUAL,"
                                + " kind STRING METADATA FROM 'row_kind' VIRTUAL,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "meta", start)));
        Instant before = Instant.now().minusSeconds(5);
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT kind, id, v, db, tbl, ts, gtid FROM meta"))) {
            DB.execute(
                    "INSERT INTO meta VALUES (1, 'one')",
                    "UPDATE meta SET v = 'uno' WHERE id = 1",
                    "DELETE FROM meta WHERE id = 1");
            List<Row> rows = changes.awaitCount(4, TIMEOUT);
            Instant after = Instant.now().plusSeconds(5);

            assertThat(rows).extracting(Row::getKind)
                    .containsExactly(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE);
            assertThat(rows).extracting(r -> r.getField(0)).containsExactly("+I", "-U", "+U", "-D");
            assertThat(rows).extracting(r -> r.getField(2)).containsExactly("one", "one", "uno", "uno");
            assertThat(rows).allSatisfy(r -> {
                assertThat(r.getField(3)).isEqualTo(DB.name());
                assertThat(r.getField(4)).isEqualTo("meta");
                assertThat((Instant) r.getField(5)).isBetween(before, after);
                assertThat((String) r.getField(6)).matches("[0-9a-f-]{36}:[0-9]+");
            });
            List<String> gtids = rows.stream().map(r -> (String) r.getField(6)).collect(Collectors.toList());
            assertThat(gtids.get(1)).as("-U and +U of one update share its transaction").isEqualTo(gtids.get(2));
            assertThat(gtids.get(0)).isNotEqualTo(gtids.get(1));
            assertThat(gtids.get(3)).isNotEqualTo(gtids.get(1));
        }
    }

    // ---------------------------------------------------------------- sharded tables

    @Test
    void shardedTablesReadThroughOneRegexTableCarryTheirTableName() throws Exception {
        for (String t : List.of("shard_1", "shard_2", "shard_x")) {
            DB.execute("CREATE TABLE " + t + " (id INT NOT NULL PRIMARY KEY, v VARCHAR(8))");
        }
        String start = gtidExecuted(DB);
        tEnv.executeSql(
                createTable(
                        "shards",
                        "id INT NOT NULL, v STRING, tbl STRING METADATA FROM 'table_name' VIRTUAL",
                        options(DB, "shard_[0-9]+", start)));
        try (ChangelogCollector changes = new ChangelogCollector(tEnv.executeSql("SELECT id, v, tbl FROM shards"))) {
            // The binlog is ordered: once shard_2's row is there, shard_x's would be too if matched.
            DB.execute(
                    "INSERT INTO shard_x VALUES (1, 'x')",
                    "INSERT INTO shard_1 VALUES (1, 'a')",
                    "INSERT INTO shard_2 VALUES (1, 'b')");
            List<Row> rows = changes.await(r -> r.stream().anyMatch(x -> "shard_2".equals(x.getField(2))), TIMEOUT);
            assertThat(rows).containsExactly(Row.of(1, "a", "shard_1"), Row.of(1, "b", "shard_2"));
        }
    }

    @Test
    void shardsOfDifferentShapesAreRefusedAtPlanning() throws Exception {
        DB.execute(
                "CREATE TABLE part_1 (id INT NOT NULL PRIMARY KEY, v VARCHAR(8))",
                "CREATE TABLE part_2 (id INT NOT NULL PRIMARY KEY, v BIGINT)");
        tEnv.executeSql(createTable("parts", "id INT NOT NULL, v STRING", options(DB, "part_[0-9]", gtidExecuted(DB))));
        String message = planningFailure("SELECT * FROM parts");
        assertThat(message)
                .contains("`" + DB.name() + "`.`part_2` differs from `" + DB.name() + "`.`part_1`")
                .contains("column 'v' is BIGINT instead of VARCHAR(8)");
    }

    // ---------------------------------------------------------------- planning-time refusals

    @Test
    void typeMismatchIsRefusedNamingColumnTypesAndWhatFits() throws Exception {
        DB.execute("CREATE TABLE typed (id INT NOT NULL PRIMARY KEY, amount DECIMAL(12,2), created TIMESTAMP(3) NULL, name VARCHAR(8))");
        tEnv.executeSql(
                createTable(
                        "typed",
                        "id INT NOT NULL, amount INT, created TIMESTAMP(3), name VARCHAR(4), PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "typed", gtidExecuted(DB))));
        String message = planningFailure("SELECT * FROM typed");
        assertThat(message)
                .contains("column 'amount': MySQL type DECIMAL(12,2) is read as DECIMAL(12, 2), declared INT")
                .contains("column 'created': MySQL type TIMESTAMP(3) is read as TIMESTAMP_LTZ(3), declared TIMESTAMP(3)")
                .contains("declare TIMESTAMP_LTZ(3)")
                .contains("column 'name': MySQL type VARCHAR(8) is read as VARCHAR(8), declared VARCHAR(4)");
    }

    @Test
    void keyMismatchAndUnknownColumnsAreRefused() throws Exception {
        DB.execute("CREATE TABLE keyed (id INT NOT NULL PRIMARY KEY, code VARCHAR(8) NOT NULL)");
        tEnv.executeSql(
                createTable(
                        "keyed",
                        "id INT NOT NULL, code STRING NOT NULL, colour STRING, PRIMARY KEY (code) NOT ENFORCED",
                        options(DB, "keyed", gtidExecuted(DB))));
        String message = planningFailure("SELECT * FROM keyed");
        assertThat(message)
                .contains("declared PRIMARY KEY 'code' differs from the MySQL primary key 'id'")
                .contains("column(s) 'colour' do not exist in the MySQL table");
    }

    @Test
    void noMatchingTableIsRefusedNamingThePatterns() throws Exception {
        tEnv.executeSql(createTable("missing", "id INT", options(DB, "no_such_table_.*", gtidExecuted(DB))));
        assertThat(planningFailure("SELECT * FROM missing"))
                .contains("No MySQL base table")
                .contains("'table-name' = 'no_such_table_.*'");
    }

    @Test
    void wrongPasswordFailsPlanningWithoutShowingIt() throws Exception {
        Map<String, String> o = options(DB, "keyed_pw", gtidExecuted(DB));
        o.put("password", "Wrong-Pw-MARKER-91c2");
        tEnv.executeSql(createTable("badpw", "id INT", o));
        String message = planningFailure("SELECT * FROM badpw");
        assertThat(message).contains("Access denied").doesNotContain("Wrong-Pw-MARKER-91c2");
    }

    @Test
    void explainNeverShowsThePassword() throws Exception {
        DB.execute("CREATE TABLE explained (id INT NOT NULL PRIMARY KEY, v VARCHAR(8), w VARCHAR(8))");
        tEnv.executeSql(
                createTable(
                        "explained",
                        "id INT NOT NULL, v STRING, w STRING, k STRING METADATA FROM 'row_kind' VIRTUAL, PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "explained", gtidExecuted(DB))));
        String plan =
                tEnv.explainSql(
                        "SELECT v, k FROM explained WHERE id > 3",
                        ExplainDetail.CHANGELOG_MODE,
                        ExplainDetail.ESTIMATED_COST,
                        ExplainDetail.JSON_EXECUTION_PLAN);
        StringBuilder explainStatement = new StringBuilder();
        tEnv.executeSql("EXPLAIN PLAN FOR SELECT * FROM explained").collect().forEachRemaining(explainStatement::append);

        String password = DB.connectorConfig().password();
        assertThat(password).isNotBlank();
        assertThat(plan).contains("explained").contains("capstan-mysql").doesNotContain(password);
        assertThat(plan).contains("changelogMode=[I,UB,UA,D]");
        // projection and metadata were pushed into the source
        assertThat(plan).contains("project=[id, v]").contains("metadata=[row_kind]");
        assertThat(explainStatement.toString()).contains("explained").doesNotContain(password);
    }

    @Test
    void compiledPlanHoldsNoPassword() throws Exception {
        DB.execute("CREATE TABLE compiled (id INT NOT NULL PRIMARY KEY)");
        tEnv.executeSql(createTable("compiled", "id INT NOT NULL", options(DB, "compiled", gtidExecuted(DB))));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink (id INT) WITH ('connector' = 'blackhole')");
        String json = tEnv.compilePlanSql("INSERT INTO sink SELECT id FROM compiled").asJsonString();
        assertThat(json).contains("compiled").doesNotContain(DB.connectorConfig().password());
    }

    /** Plans the query (without running it) and returns the failure's messages. */
    private String planningFailure(String query) {
        Throwable t = catchThrowable(() -> tEnv.explainSql(query));
        assertThat(t).as("planning must fail").isNotNull();
        String messages = allMessages(t);
        assertThat(messages).doesNotContain(DB.connectorConfig().password());
        return messages;
    }
}

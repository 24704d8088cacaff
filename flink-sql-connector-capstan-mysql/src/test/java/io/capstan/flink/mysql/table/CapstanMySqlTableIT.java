package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.FlinkLines;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.gtidExecuted;
import static io.capstan.flink.mysql.table.SqlItSupport.initialOptions;
import static io.capstan.flink.mysql.table.SqlItSupport.options;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The 'capstan-mysql' table connector against a real MySQL and a Flink MiniCluster.
 *
 * <p>The aggregate, type matrix and snapshot tests start in the 'initial' (default) and 'snapshot'
 * modes; the others start at 'specific-offset' = the server's gtid_executed before their writes, so
 * the changelog holds exactly those writes.
 *
 * <p>Three cases are tagged {@link FlinkLines#TWO_ONLY}: Flink 1.20's planner keeps no fractional
 * seconds in a declared {@code TIME(p)} ({@code TIME(3)} becomes {@code TIME(0)}, docs/sql.md),
 * which two cases declare, and its plans name a source "Source: &lt;table&gt;", not by the operator
 * name the explain case looks for (the compiled-plan case still checks the password absent on every
 * line).
 */
@Tag(FlinkLines.EVERY_LINE)
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

    private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "CANCELLED"};
    private static final int PRELOADED = 50_000;
    private static final int WRITERS = 3;

    @Test
    void groupByOverTheChangelogEqualsTheSameQueryOnMySqlAfterWritesDuringAndAfterTheSnapshot()
            throws Exception {
        DB.execute(
                "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer_id INT,"
                        + " status VARCHAR(16) NOT NULL, amount DECIMAL(12,2) NOT NULL,"
                        + " updated_at TIMESTAMP(3) NULL)");
        preloadOrders();
        Map<String, String> o = initialOptions(DB, "orders");
        o.put(
                "scan.incremental.snapshot.chunk.size",
                "250"); // 200 chunks: the snapshot takes a while
        tEnv.executeSql(
                createTable(
                        "orders",
                        "id BIGINT, customer_id INT, status STRING, amount DECIMAL(12,2),"
                                + " updated_at TIMESTAMP_LTZ(3), PRIMARY KEY (id) NOT ENFORCED",
                        o));

        Set<Long> dumpThreadsBefore = binlogDumpThreads();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong operations = new AtomicLong();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try (ChangelogCollector changes =
                new ChangelogCollector(
                        tEnv.executeSql(
                                "SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY status"))) {
            long started = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(
                        writers.submit(
                                () -> {
                                    writeOrders(writer, stop, operations);
                                    return null;
                                }));
            }
            // The binlog connection opens only once every chunk is finished: the end of the
            // snapshot.
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!binlogDumpThreadsExcept(dumpThreadsBefore)) {
                assertThat(System.nanoTime())
                        .as("the snapshot did not finish in time")
                        .isLessThan(deadline);
                for (Future<?> f : done) {
                    if (f.isDone()) {
                        f.get(); // throws the writer's failure
                        throw new AssertionError("a writer stopped early");
                    }
                }
                Thread.sleep(20);
            }
            long duringSnapshot = operations.get();
            long snapshotMillis = (System.nanoTime() - started) / 1_000_000;
            while (operations.get() < duringSnapshot + 600) {
                Thread.sleep(20);
            }
            stop.set(true);
            for (Future<?> f : done) {
                f.get();
            }
            System.out.printf(
                    "snapshot of %d rows took ~%d ms; %d write statements during it, %d after%n",
                    PRELOADED, snapshotMillis, duringSnapshot, operations.get() - duringSnapshot);
            assertThat(duringSnapshot).as("writes during the snapshot").isGreaterThanOrEqualTo(100);

            Map<String, List<Object>> expected = mysqlGroupBy();
            assertThat(expected).isNotEmpty();
            changes.await(rows -> materializeGroups(rows).equals(expected), TIMEOUT);
        } finally {
            stop.set(true);
            writers.shutdownNow();
        }
    }

    private static void preloadOrders() throws SQLException {
        Random random = new Random(7);
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            for (int first = 1; first <= PRELOADED; first += 2_000) {
                StringBuilder sql = new StringBuilder("INSERT INTO orders VALUES ");
                for (int id = first; id < first + 2_000 && id <= PRELOADED; id++) {
                    if (id > first) {
                        sql.append(", ");
                    }
                    sql.append('(')
                            .append(id)
                            .append(", ")
                            .append(random.nextInt(100))
                            .append(", '")
                            .append(STATUSES[random.nextInt(STATUSES.length)])
                            .append("', ")
                            .append(amount(random))
                            .append(", NOW(3))");
                }
                s.executeUpdate(sql.toString());
            }
        }
    }

    /**
     * Until stopped: random inserts, updates of status and amount, key changes (which move a row to
     * another chunk) and deletes, on this writer's share of the preloaded rows and its own new ids;
     * one in five is a transaction of up to four statements.
     */
    private static void writeOrders(int writer, AtomicBoolean stop, AtomicLong operations)
            throws SQLException, InterruptedException {
        Random random = new Random(42 + writer);
        List<Long> live = new ArrayList<>();
        for (long id = 1 + writer; id <= PRELOADED; id += WRITERS) {
            live.add(id);
        }
        long nextId = (writer + 1) * 1_000_000L;
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            while (!stop.get()) {
                boolean transaction = random.nextInt(5) == 0;
                if (transaction) {
                    c.setAutoCommit(false);
                }
                int statements = transaction ? 1 + random.nextInt(4) : 1;
                for (int k = 0; k < statements; k++) {
                    int op = random.nextInt(10);
                    if (op < 3) {
                        long id = nextId++;
                        s.executeUpdate(
                                "INSERT INTO orders VALUES ("
                                        + id
                                        + ", "
                                        + random.nextInt(100)
                                        + ", '"
                                        + STATUSES[random.nextInt(STATUSES.length)]
                                        + "', "
                                        + amount(random)
                                        + ", NOW(3))");
                        live.add(id);
                    } else if (op < 7) {
                        long id = live.get(random.nextInt(live.size()));
                        s.executeUpdate(
                                "UPDATE orders SET status = '"
                                        + STATUSES[random.nextInt(STATUSES.length)]
                                        + "', amount = "
                                        + amount(random)
                                        + " WHERE id = "
                                        + id);
                    } else if (op < 8) {
                        int index = random.nextInt(live.size());
                        long id = nextId++;
                        s.executeUpdate(
                                "UPDATE orders SET id = " + id + " WHERE id = " + live.get(index));
                        live.set(index, id);
                    } else {
                        long id = live.remove(random.nextInt(live.size()));
                        s.executeUpdate("DELETE FROM orders WHERE id = " + id);
                    }
                    operations.incrementAndGet();
                }
                if (transaction) {
                    c.commit();
                    c.setAutoCommit(true);
                }
                Thread.sleep(1); // leave the two test cores some room
            }
        }
    }

    /** Process ids of the connector user's binlog dump threads now. */
    private static Set<Long> binlogDumpThreads() throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'"
                                        + " AND USER = '"
                                        + DB.connectorAccount().username()
                                        + "'")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static boolean binlogDumpThreadsExcept(Set<Long> before) throws SQLException {
        Set<Long> now = binlogDumpThreads();
        now.removeAll(before);
        return !now.isEmpty();
    }

    // ---------------------------------------------------------------- snapshot mode

    @Test
    void snapshotModeReadsTheExactRowsAndFinishesReadingOnlyTheProjectedColumns() throws Exception {
        DB.execute("CREATE TABLE snap (id INT NOT NULL PRIMARY KEY, v VARCHAR(16), w VARCHAR(16))");
        Random random = new Random(3);
        Map<Integer, String> expected = new TreeMap<>();
        StringBuilder insert = new StringBuilder("INSERT INTO snap VALUES ");
        for (int i = 0; i < 2_000; i++) {
            int id = i * 3 + random.nextInt(3); // sparse keys: chunks planned by query
            String v = random.nextInt(10) == 0 ? null : "v" + random.nextInt(1_000_000);
            expected.put(id, v);
            insert.append(i == 0 ? "" : ", ")
                    .append('(')
                    .append(id)
                    .append(", ")
                    .append(v == null ? "NULL" : "'" + v + "'")
                    .append(", 'unused')");
        }
        DB.execute(insert.toString());
        Map<String, String> o = initialOptions(DB, "snap");
        o.put("scan.startup.mode", "snapshot");
        o.put("scan.incremental.snapshot.chunk.size", "128");
        tEnv.executeSql(
                createTable(
                        "snap",
                        "id INT NOT NULL, v STRING, w STRING, PRIMARY KEY (id) NOT ENFORCED",
                        o));

        List<Row> rows = new ArrayList<>();
        List<String> snapshotSelects;
        List<String> preparedSelects;
        // The server's general query log shows the statements the snapshot ran (test servers run
        // without performance_schema).
        DB.execute("SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = 'ON'");
        try {
            TableResult result = tEnv.executeSql("SELECT id, v FROM snap");
            try (CloseableIterator<Row> it = result.collect()) {
                it.forEachRemaining(rows::add); // ends: the source is bounded
            }
            result.getJobClient()
                    .orElseThrow()
                    .getJobExecutionResult()
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            snapshotSelects = selectsOn(DB.name(), "snap", "'Query', 'Prepare', 'Execute'");
            preparedSelects = selectsOn(DB.name(), "snap", "'Prepare'");
        } finally {
            DB.execute("SET GLOBAL general_log = 'OFF'", "TRUNCATE TABLE mysql.general_log");
        }

        assertThat(rows).allSatisfy(r -> assertThat(r.getKind()).isEqualTo(RowKind.INSERT));
        Map<Integer, String> read = new TreeMap<>();
        for (Row r : rows) {
            assertThat(read.containsKey((Integer) r.getField(0))).as("row read twice").isFalse();
            read.put((Integer) r.getField(0), (String) r.getField(1));
        }
        assertThat(read).isEqualTo(expected);

        // Projection push-down: the snapshot's SELECTs on the table never named the unused column.
        assertThat(snapshotSelects)
                .as("snapshot SELECTs in the general log")
                .anySatisfy(q -> assertThat(q).startsWith("SELECT `id`, `v` FROM"));
        assertThat(snapshotSelects).noneSatisfy(q -> assertThat(q).contains("`w`"));
        // Chunks are read over the binary protocol: their SELECT is prepared on the server.
        assertThat(preparedSelects)
                .as("server-side prepared snapshot SELECTs")
                .anySatisfy(q -> assertThat(q).startsWith("SELECT `id`, `v` FROM"));
    }

    /**
     * A zero date in a MySQL {@code DATE NOT NULL} column (allowed by a session without
     * NO_ZERO_DATE) is read as NULL: a Flink column declared nullable gets NULL; one declared NOT
     * NULL halts the job naming table and column, rather than pass a NULL the planner trusts cannot
     * occur.
     */
    @Test
    void aZeroDateIsNullOrHaltsWhereTheColumnIsDeclaredNotNull() throws Exception {
        DB.execute(
                "CREATE TABLE zero_day (id INT NOT NULL PRIMARY KEY, d DATE NOT NULL)",
                "SET SESSION sql_mode = ''",
                "INSERT INTO zero_day VALUES (1, '2024-02-29'), (2, '0000-00-00')");
        Map<String, String> o = initialOptions(DB, "zero_day");
        o.put("scan.startup.mode", "snapshot");
        tEnv.executeSql(
                createTable(
                        "zero_nullable",
                        "id INT NOT NULL, d DATE, PRIMARY KEY (id) NOT ENFORCED",
                        o));
        tEnv.executeSql(
                createTable(
                        "zero_not_null",
                        "id INT NOT NULL, d DATE NOT NULL, PRIMARY KEY (id) NOT ENFORCED",
                        o));

        Map<Integer, LocalDate> read = new TreeMap<>();
        try (CloseableIterator<Row> it =
                tEnv.executeSql("SELECT id, d FROM zero_nullable").collect()) {
            it.forEachRemaining(r -> read.put((Integer) r.getField(0), (LocalDate) r.getField(1)));
        }
        Map<Integer, LocalDate> expected = new HashMap<>();
        expected.put(1, LocalDate.of(2024, 2, 29));
        expected.put(2, null);
        assertThat(read).isEqualTo(expected);

        Throwable failure =
                catchThrowable(
                        () -> {
                            try (CloseableIterator<Row> it =
                                    tEnv.executeSql("SELECT id, d FROM zero_not_null").collect()) {
                                it.forEachRemaining(r -> {});
                            }
                        });
        assertThat(failure).isNotNull();
        assertThat(allMessages(failure))
                .contains("[invalid_configuration]")
                .contains("`" + DB.name() + "`.`zero_day`")
                .contains("column 'd' is declared NOT NULL");
    }

    /** The SELECT statements of the given general log command types that name {@code db.table}. */
    private static List<String> selectsOn(String db, String table, String commandTypes)
            throws SQLException {
        List<String> selects = new ArrayList<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log"
                                        + " WHERE command_type IN ("
                                        + commandTypes
                                        + ")")) {
            while (rs.next()) {
                String q = rs.getString(1);
                if (q != null
                        && q.startsWith("SELECT")
                        && q.contains("`" + db + "`.`" + table + "`")) {
                    selects.add(q);
                }
            }
        }
        return selects;
    }

    private static String amount(Random random) {
        return BigDecimal.valueOf(random.nextInt(10_000_000), 2).toPlainString();
    }

    private static Map<String, List<Object>> mysqlGroupBy() throws SQLException {
        Map<String, List<Object>> groups = new HashMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status")) {
            while (rs.next()) {
                groups.put(
                        rs.getString(1), List.of(rs.getLong(2), rs.getBigDecimal(3).setScale(2)));
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
                groups.put(
                        status, List.of(r.getField(1), ((BigDecimal) r.getField(2)).setScale(2)));
            } else {
                groups.remove(status);
            }
        }
        return groups;
    }

    // ---------------------------------------------------------------- type matrix

    @Test
    void typeMatrixReadThroughSqlInInitialModeHasTheExpectedValuesFromSnapshotAndBinlog()
            throws Exception {
        DB.execute(
                "CREATE TABLE types (id INT NOT NULL PRIMARY KEY,"
                        + " c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint_u SMALLINT UNSIGNED,"
                        + " c_mediumint MEDIUMINT, c_int_u INT UNSIGNED, c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED,"
                        + " c_decimal DECIMAL(12,2), c_float FLOAT, c_double DOUBLE, c_bit1 BIT(1), c_bit10 BIT(10),"
                        + " c_char CHAR(4), c_varchar VARCHAR(16), c_text TEXT, c_binary BINARY(4), c_varbinary VARBINARY(8),"
                        + " c_enum ENUM('a','b','c'), c_set SET('x','y','z'), c_json JSON, c_date DATE, c_time TIME(3),"
                        + " c_datetime DATETIME(3), c_timestamp TIMESTAMP(6) NULL, c_year YEAR)"
                        + " DEFAULT CHARSET = utf8mb4");
        String row1Values =
                "-128, 255, 65535, -8388608, 4294967295, -9223372036854775808,"
                        + " 18446744073709551615, -1234567890.12, 1.5, -2.25e300, b'1', b'1000000001',"
                        + " 'ab', 'héllo ✓', 'long text', x'0102', x'0a0b0c',"
                        + " 'b', 'z,x', '{\"k\": [1, 2]}', '2024-02-29', '12:34:56.789',"
                        + " '2024-02-29 12:34:56.789', '2024-02-29 12:34:56.123456', 2024)";
        // Rows 1 and 2 exist before the job (read by the snapshot), 3 and 4 come after (binlog).
        DB.execute(
                "SET time_zone = '+00:00'",
                "INSERT INTO types VALUES (1, " + row1Values,
                "INSERT INTO types (id) VALUES (2)");
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
                        initialOptions(DB, "types")));
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT * FROM types"))) {
            changes.awaitCount(2, TIMEOUT);
            DB.execute(
                    "SET time_zone = '+00:00'",
                    "INSERT INTO types VALUES (3, " + row1Values,
                    "INSERT INTO types (id) VALUES (4)");
            List<Row> rows = new ArrayList<>(changes.awaitCount(4, TIMEOUT));
            rows.sort(Comparator.comparing(r -> (Integer) r.getField(0)));
            for (int id : new int[] {1, 3}) {
                Row expected =
                        Row.ofKind(
                                RowKind.INSERT,
                                id,
                                (byte) -128,
                                (short) 255,
                                65535,
                                -8388608,
                                4294967295L,
                                Long.MIN_VALUE,
                                new BigDecimal("18446744073709551615"),
                                new BigDecimal("-1234567890.12"),
                                1.5f,
                                -2.25e300,
                                true,
                                new byte[] {0x02, 0x01},
                                "ab",
                                "héllo ✓",
                                "long text",
                                new byte[] {1, 2, 0, 0},
                                new byte[] {0x0a, 0x0b, 0x0c},
                                "b",
                                "x,z",
                                "{\"k\":[1,2]}", // use.legacy.json.format = true
                                LocalDate.of(2024, 2, 29),
                                45_296_789_000L,
                                LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000),
                                Instant.parse("2024-02-29T12:34:56.123456Z"),
                                2024);
                assertThat(rows.get(id - 1))
                        .as(id == 1 ? "snapshot row" : "binlog row")
                        .isEqualTo(expected);
            }
            for (int id : new int[] {2, 4}) {
                Row nulls = new Row(RowKind.INSERT, 26);
                nulls.setField(0, id);
                assertThat(rows.get(id - 1))
                        .as(id == 2 ? "snapshot row" : "binlog row")
                        .isEqualTo(nulls);
            }
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
                new ChangelogCollector(
                        tEnv.executeSql("SELECT kind, id, v, db, tbl, ts, gtid FROM meta"))) {
            DB.execute(
                    "INSERT INTO meta VALUES (1, 'one')",
                    "UPDATE meta SET v = 'uno' WHERE id = 1",
                    "DELETE FROM meta WHERE id = 1");
            List<Row> rows = changes.awaitCount(4, TIMEOUT);
            Instant after = Instant.now().plusSeconds(5);

            assertThat(rows)
                    .extracting(Row::getKind)
                    .containsExactly(
                            RowKind.INSERT,
                            RowKind.UPDATE_BEFORE,
                            RowKind.UPDATE_AFTER,
                            RowKind.DELETE);
            assertThat(rows).extracting(r -> r.getField(0)).containsExactly("+I", "-U", "+U", "-D");
            assertThat(rows)
                    .extracting(r -> r.getField(2))
                    .containsExactly("one", "one", "uno", "uno");
            assertThat(rows)
                    .allSatisfy(
                            r -> {
                                assertThat(r.getField(3)).isEqualTo(DB.name());
                                assertThat(r.getField(4)).isEqualTo("meta");
                                assertThat((Instant) r.getField(5)).isBetween(before, after);
                                assertThat((String) r.getField(6)).matches("[0-9a-f-]{36}:[0-9]+");
                            });
            List<String> gtids =
                    rows.stream().map(r -> (String) r.getField(6)).collect(Collectors.toList());
            assertThat(gtids.get(1))
                    .as("-U and +U of one update share its transaction")
                    .isEqualTo(gtids.get(2));
            assertThat(gtids.get(0)).isNotEqualTo(gtids.get(1));
            assertThat(gtids.get(3)).isNotEqualTo(gtids.get(1));
        }
    }

    // ---------------------------------------------------------------- a table without any key

    @Test
    void aTableWithoutKeyRetractsWholeRowsAndADeclaredKeyOnItIsRefused() throws Exception {
        DB.execute(
                "CREATE TABLE nokey (a INT, b VARCHAR(8))",
                "INSERT INTO nokey VALUES (1, 'x'), (1, 'x'), (2, 'z')");
        tEnv.executeSql(createTable("nokey", "a INT, b STRING", initialOptions(DB, "nokey")));
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT a, b FROM nokey"))) {
            changes.awaitCount(3, TIMEOUT);
            DB.execute(
                    "DELETE FROM nokey WHERE a = 1 LIMIT 1", // one of two identical rows
                    "UPDATE nokey SET b = 'y' WHERE a = 1");
            List<Row> rows = changes.awaitCount(6, TIMEOUT);
            assertThat(rows.subList(0, 3))
                    .as("the snapshot: two identical rows stay two rows")
                    .extracting(r -> r.getKind() + ":" + r.getField(0) + ":" + r.getField(1))
                    .containsExactlyInAnyOrder("INSERT:1:x", "INSERT:1:x", "INSERT:2:z");
            assertThat(rows.subList(3, 6))
                    .as("whole rows retracted: a retract changelog, not an upsert one")
                    .extracting(r -> r.getKind() + ":" + r.getField(0) + ":" + r.getField(1))
                    .containsExactly("DELETE:1:x", "UPDATE_BEFORE:1:x", "UPDATE_AFTER:1:y");
        }
        tEnv.executeSql(
                createTable(
                        "nokey_declared",
                        "a INT NOT NULL, b STRING, PRIMARY KEY (a) NOT ENFORCED",
                        initialOptions(DB, "nokey")));
        assertThat(planningFailure("SELECT * FROM nokey_declared"))
                .contains("declared PRIMARY KEY 'a' is not a key of the MySQL table")
                .contains("declare no primary key")
                .contains("one unsplit chunk");
        // A NOT NULL column that is not unique chunks by ranges of its values: still no key.
        DB.execute("CREATE TABLE ranged (a INT NOT NULL, b VARCHAR(8), INDEX (a))");
        Map<String, String> ranged = initialOptions(DB, "ranged");
        ranged.put("scan.incremental.snapshot.chunk.key-column", "a");
        tEnv.executeSql(
                createTable(
                        "ranged_declared",
                        "a INT NOT NULL, b STRING, PRIMARY KEY (a) NOT ENFORCED",
                        ranged));
        assertThat(planningFailure("SELECT * FROM ranged_declared"))
                .contains("no UNIQUE index of its own")
                .contains("ranges of its values")
                .contains("declare no primary key");
    }

    // ---------------------------------------------------------------- a mysql-cdc DDL with a hint

    @Test
    void aMysqlCdcDdlWithSnapshotAndNoOpOptionsStreamsUnderALatestOffsetHint() throws Exception {
        DB.execute(
                "CREATE TABLE hinted (id INT NOT NULL PRIMARY KEY, v VARCHAR(8))",
                "INSERT INTO hinted VALUES (1, 'before')");
        Map<String, String> o = initialOptions(DB, "hinted");
        // As a mysql-cdc table's DDL has them: a snapshot option, and options capstan takes as
        // no-ops or as flags whose value is what it always does.
        o.put("scan.incremental.snapshot.chunk.size", "4096");
        o.put("scan.snapshot.fetch.size", "1024");
        o.put("scan.incremental.snapshot.enabled", "true");
        o.put("scan.newly-added-table.enabled", "false");
        o.put("scan.incremental.snapshot.backfill.skip", "true");
        o.put("scan.incremental.close-idle-reader.enabled", "true");
        o.put("chunk-meta.group.size", "1000");
        o.put("chunk-key.even-distribution.factor.upper-bound", "1000.0");
        o.put("chunk-key.even-distribution.factor.lower-bound", "0.05");
        o.put("scan.incremental.snapshot.unbounded-chunk-first.enabled", "true");
        tEnv.executeSql(
                createTable(
                        "hinted", "id INT NOT NULL, v STRING, PRIMARY KEY (id) NOT ENFORCED", o));

        Set<Long> dumpThreadsBefore = binlogDumpThreads();
        try (ChangelogCollector changes =
                new ChangelogCollector(
                        tEnv.executeSql(
                                "SELECT id, v FROM hinted"
                                        + " /*+ OPTIONS('scan.startup.mode'='latest-offset') */"))) {
            // latest-offset starts at the server's gtid_executed when the binlog reader starts:
            // write only once it is connected.
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!binlogDumpThreadsExcept(dumpThreadsBefore)) {
                assertThat(System.nanoTime())
                        .as("the binlog reader did not connect in time")
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
            DB.execute("INSERT INTO hinted VALUES (2, 'after')");
            List<Row> rows = changes.awaitCount(1, TIMEOUT);
            Thread.sleep(500); // a snapshot row, were one read, would have arrived by now
            assertThat(changes.rows())
                    .as("no snapshot in latest-offset: only the insert")
                    .hasSize(1);
            assertThat(rows.get(0).getKind()).isEqualTo(RowKind.INSERT);
            assertThat(rows.get(0).getField(0)).isEqualTo(2);
            assertThat(rows.get(0).getField(1)).isEqualTo("after");
        }
    }

    // ---------------------------------------------------------------- declared as mysql-cdc maps

    /** Waits for a binlog connection of the connector user that was not there before. */
    private static void awaitBinlogReader(Set<Long> dumpThreadsBefore) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!binlogDumpThreadsExcept(dumpThreadsBefore)) {
            assertThat(System.nanoTime())
                    .as("the binlog reader did not connect in time")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void tinyintOneDeclaredBooleanIsMySqlsTruthInSnapshotAndBinlog() throws Exception {
        DB.execute(
                "CREATE TABLE flags (id INT NOT NULL PRIMARY KEY, b BOOL, t TINYINT(1) NOT NULL)",
                "INSERT INTO flags VALUES (1, FALSE, 0), (2, TRUE, 1), (3, 2, -1), (4, NULL, 127)");
        tEnv.executeSql(
                createTable(
                        "flags",
                        "id INT NOT NULL, b BOOLEAN, t BOOLEAN NOT NULL,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        initialOptions(DB, "flags")));
        Set<Long> before = binlogDumpThreads();
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT id, b, t FROM flags"))) {
            awaitBinlogReader(before); // the snapshot is done
            DB.execute(
                    "INSERT INTO flags VALUES (11, FALSE, 0), (12, TRUE, 1), (13, 2, -1),"
                            + " (14, NULL, 127)",
                    "UPDATE flags SET b = -5, t = 0 WHERE id = 1");
            List<Row> rows = changes.awaitCount(10, TIMEOUT);
            Map<Integer, List<Object>> snapshot = new TreeMap<>();
            Map<Integer, List<Object>> binlog = new TreeMap<>();
            for (Row r : rows.subList(0, 8)) {
                assertThat(r.getKind()).isEqualTo(RowKind.INSERT);
                int id = (Integer) r.getField(0);
                (id < 10 ? snapshot : binlog)
                        .put(id % 10, java.util.Arrays.asList(r.getField(1), r.getField(2)));
            }
            Map<Integer, List<Object>> expected = new TreeMap<>();
            expected.put(1, java.util.Arrays.asList(false, false));
            expected.put(2, java.util.Arrays.asList(true, true));
            expected.put(3, java.util.Arrays.asList(true, true));
            expected.put(4, java.util.Arrays.asList(null, true));
            assertThat(snapshot).as("snapshot").isEqualTo(expected);
            assertThat(binlog).as("binlog").isEqualTo(expected);
            assertThat(rows.subList(8, 10))
                    .extracting(Row::getKind, r -> r.getField(1), r -> r.getField(2))
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(
                                    RowKind.UPDATE_BEFORE, false, false),
                            org.assertj.core.groups.Tuple.tuple(RowKind.UPDATE_AFTER, true, false));
        }
    }

    @Tag(FlinkLines.TWO_ONLY)
    @Test
    void timeDeclaredTimeIsTheTimeOfDayInSnapshotAndBinlogAndHaltsOutsideADay() throws Exception {
        DB.execute(
                "CREATE TABLE clock (id INT NOT NULL PRIMARY KEY, clock_time TIME(3))",
                "INSERT INTO clock VALUES (1, '00:00:00'), (2, '12:34:56.789'),"
                        + " (3, '23:59:59.999'), (4, NULL)");
        tEnv.executeSql(
                createTable(
                        "clock",
                        "id INT NOT NULL, clock_time TIME(3), PRIMARY KEY (id) NOT ENFORCED",
                        initialOptions(DB, "clock")));
        Set<Long> before = binlogDumpThreads();
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT id, clock_time FROM clock"))) {
            awaitBinlogReader(before);
            DB.execute(
                    "INSERT INTO clock VALUES (11, '00:00:00'), (12, '12:34:56.789'),"
                            + " (13, '23:59:59.999'), (14, NULL)");
            List<Row> rows = changes.awaitCount(8, TIMEOUT);
            Map<Integer, Object> snapshot = new HashMap<>();
            Map<Integer, Object> binlog = new HashMap<>();
            for (Row r : rows) {
                int id = (Integer) r.getField(0);
                (id < 10 ? snapshot : binlog).put(id % 10, r.getField(1));
            }
            Map<Integer, Object> expected = new HashMap<>();
            expected.put(1, java.time.LocalTime.MIDNIGHT);
            expected.put(2, java.time.LocalTime.of(12, 34, 56, 789_000_000));
            expected.put(3, java.time.LocalTime.of(23, 59, 59, 999_000_000));
            expected.put(4, null);
            assertThat(snapshot).as("snapshot").isEqualTo(expected);
            assertThat(binlog).as("binlog").isEqualTo(expected);

            // A MySQL TIME that is no time of day halts the job; it is never wrapped or cut.
            DB.execute("INSERT INTO clock VALUES (20, '-00:00:01')");
            Throwable failure = catchThrowable(() -> changes.awaitCount(9, TIMEOUT));
            assertThat(failure).isNotNull();
            assertThat(allMessages(failure))
                    .contains("[invalid_configuration]")
                    .contains("`" + DB.name() + "`.`clock`")
                    .contains("column 'clock_time'")
                    .contains("declare the column BIGINT")
                    .doesNotContain("-00:00:01");
        }
    }

    @Test
    void aSnapshotTimeBeyondADayHaltsNamingTableAndColumn() throws Exception {
        DB.execute(
                "CREATE TABLE long_clock (id INT NOT NULL PRIMARY KEY, clock_time TIME(0) NOT NULL)",
                "INSERT INTO long_clock VALUES (1, '01:00:00'), (2, '100:00:00')");
        Map<String, String> o = initialOptions(DB, "long_clock");
        o.put("scan.startup.mode", "snapshot");
        tEnv.executeSql(
                createTable(
                        "long_clock",
                        "id INT NOT NULL, clock_time TIME(0) NOT NULL, PRIMARY KEY (id) NOT ENFORCED",
                        o));
        Throwable failure =
                catchThrowable(
                        () -> {
                            try (CloseableIterator<Row> it =
                                    tEnv.executeSql("SELECT id, clock_time FROM long_clock")
                                            .collect()) {
                                it.forEachRemaining(r -> {});
                            }
                        });
        assertThat(failure).isNotNull();
        assertThat(allMessages(failure))
                .contains("[invalid_configuration]")
                .contains("`" + DB.name() + "`.`long_clock`")
                .contains("column 'clock_time'")
                .doesNotContain("100:00:00");
    }

    // ---------------------------------------------------------------- append-only reading

    /**
     * {@code scan.read-changelog-as-append-only.enabled}: the snapshot rows and every later insert,
     * update (its before and after images) and delete arrive as {@code +I} rows with their own kind
     * in {@code row_kind}, each exactly once although the job fails twice in the snapshot and three
     * times while streaming (checkpointed collect: a row reaches the client once its checkpoint
     * completes).
     */
    @Test
    void appendOnlyRowsArriveExactlyOnceAcrossFailuresInTheSnapshotAndTheBinlog() throws Exception {
        StringBuilder rows = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            rows.append(i == 1 ? "" : ",")
                    .append("(")
                    .append(i)
                    .append(", 'a")
                    .append(i)
                    .append("')");
            expected.add("+I:" + i + ":a" + i);
        }
        DB.execute(
                "CREATE TABLE audit (id INT NOT NULL PRIMARY KEY, v VARCHAR(16))",
                "INSERT INTO audit VALUES " + rows);
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        t.createTemporarySystemFunction("fail_at", FailAtDistinctRows.class);
        Map<String, String> o = initialOptions(DB, "audit");
        o.put("scan.incremental.snapshot.chunk.size", "4");
        o.put("scan.read-changelog-as-append-only.enabled", "true");
        // as mysql-cdc's own append-only IT declares it: with the primary key
        t.executeSql(
                createTable(
                        "audit",
                        "id INT NOT NULL, v STRING,"
                                + " row_kind STRING METADATA FROM 'row_kind' VIRTUAL,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        o));
        FailAtDistinctRows.arm(List.of(6L, 15L, 27L, 38L, 50L));
        Set<Long> before = binlogDumpThreads();
        try (ChangelogCollector changes =
                new ChangelogCollector(
                        t.executeSql(
                                "SELECT fail_at(CONCAT(row_kind, ':', CAST(id AS STRING), ':',"
                                        + " v)) FROM audit"))) {
            awaitBinlogReader(before);
            for (int i = 21; i <= 30; i++) {
                DB.execute("INSERT INTO audit VALUES (" + i + ", 'b" + i + "')");
                expected.add("+I:" + i + ":b" + i);
            }
            for (int i = 1; i <= 10; i++) {
                DB.execute("UPDATE audit SET v = 'c" + i + "' WHERE id = " + i);
                expected.add("-U:" + i + ":a" + i);
                expected.add("+U:" + i + ":c" + i);
            }
            DB.execute("DELETE FROM audit WHERE id BETWEEN 11 AND 15");
            for (int i = 11; i <= 15; i++) {
                expected.add("-D:" + i + ":a" + i);
            }
            changes.awaitCount(expected.size(), TIMEOUT);
            Thread.sleep(1500); // a few more checkpoints: nothing more may arrive
            List<Row> got = changes.rows();
            assertThat(got).extracting(Row::getKind).containsOnly(RowKind.INSERT);
            assertThat(got)
                    .extracting(r -> (String) r.getField(0))
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(FailAtDistinctRows.fired()).as("injected failures").isEqualTo(5);
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
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT id, v, tbl FROM shards"))) {
            // The binlog is ordered: once shard_2's row is there, shard_x's would be too if
            // matched.
            DB.execute(
                    "INSERT INTO shard_x VALUES (1, 'x')",
                    "INSERT INTO shard_1 VALUES (1, 'a')",
                    "INSERT INTO shard_2 VALUES (1, 'b')");
            List<Row> rows =
                    changes.await(
                            r -> r.stream().anyMatch(x -> "shard_2".equals(x.getField(2))),
                            TIMEOUT);
            assertThat(rows).containsExactly(Row.of(1, "a", "shard_1"), Row.of(1, "b", "shard_2"));
        }
    }

    /**
     * Shards of different shapes under one pattern read as one table, as mysql-cdc reads them: a
     * declared nullable column a shard lacks is NULL in its rows, in the snapshot and the binlog;
     * declared NOT NULL it is refused naming column and shard; types are checked per shard.
     */
    @Test
    void shardsOfDifferentShapesReadAsOneTableWithNullWhereAShardLacksAColumn() throws Exception {
        DB.execute(
                "CREATE TABLE part_1 (id INT NOT NULL PRIMARY KEY, v VARCHAR(8),"
                        + " note VARCHAR(8) NOT NULL)",
                "CREATE TABLE part_2 (id INT NOT NULL PRIMARY KEY, v VARCHAR(16))",
                "INSERT INTO part_1 VALUES (1, 'a', 'n1')",
                "INSERT INTO part_2 VALUES (1, 'b')");
        tEnv.executeSql(
                createTable(
                        "parts",
                        "id INT NOT NULL, v STRING, note STRING,"
                                + " tbl STRING METADATA FROM 'table_name' VIRTUAL",
                        initialOptions(DB, "part_[0-9]")));
        Set<Long> before = binlogDumpThreads();
        try (ChangelogCollector changes =
                new ChangelogCollector(tEnv.executeSql("SELECT id, v, note, tbl FROM parts"))) {
            awaitBinlogReader(before);
            assertThat(changes.awaitCount(2, TIMEOUT))
                    .as("snapshot")
                    .containsExactlyInAnyOrder(
                            Row.of(1, "a", "n1", "part_1"), Row.of(1, "b", null, "part_2"));
            DB.execute(
                    "INSERT INTO part_1 VALUES (2, 'c', 'n2')",
                    "INSERT INTO part_2 VALUES (2, 'd')",
                    "UPDATE part_2 SET v = 'e' WHERE id = 2");
            List<Row> rows = changes.awaitCount(6, TIMEOUT);
            assertThat(rows.subList(2, 6))
                    .as("binlog")
                    .containsExactly(
                            Row.of(2, "c", "n2", "part_1"),
                            Row.of(2, "d", null, "part_2"),
                            Row.ofKind(RowKind.UPDATE_BEFORE, 2, "d", null, "part_2"),
                            Row.ofKind(RowKind.UPDATE_AFTER, 2, "e", null, "part_2"));
        }
        tEnv.executeSql(
                createTable(
                        "parts_nn",
                        "id INT NOT NULL, note STRING NOT NULL",
                        options(DB, "part_[0-9]", gtidExecuted(DB))));
        assertThat(planningFailure("SELECT * FROM parts_nn"))
                .contains(
                        "column 'note' is declared NOT NULL, but `"
                                + DB.name()
                                + "`.`part_2` has no such column");
        DB.execute(
                "CREATE TABLE odd_1 (id INT NOT NULL PRIMARY KEY, v VARCHAR(8))",
                "CREATE TABLE odd_2 (id INT NOT NULL PRIMARY KEY, v BIGINT)");
        tEnv.executeSql(
                createTable(
                        "odds",
                        "id INT NOT NULL, v STRING",
                        options(DB, "odd_[0-9]", gtidExecuted(DB))));
        assertThat(planningFailure("SELECT * FROM odds"))
                .contains("in `" + DB.name() + "`.`odd_2`: column 'v': MySQL type BIGINT");
    }

    // ---------------------------------------------------------------- planning-time refusals

    @Tag(FlinkLines.TWO_ONLY)
    @Test
    void typeMismatchIsRefusedNamingColumnTypesAndWhatFits() throws Exception {
        DB.execute(
                "CREATE TABLE typed (id INT NOT NULL PRIMARY KEY, amount DECIMAL(12,2), created TIMESTAMP(3) NULL, name VARCHAR(8))");
        tEnv.executeSql(
                createTable(
                        "typed",
                        "id INT NOT NULL, amount INT, created TIME(3), name BYTES, PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "typed", gtidExecuted(DB))));
        String message = planningFailure("SELECT * FROM typed");
        assertThat(message)
                .contains(
                        "column 'amount': MySQL type DECIMAL(12,2) is read as DECIMAL(12, 2), declared INT")
                // TIMESTAMP(3) declared TIMESTAMP(3) is accepted (the wall clock, see sql.md);
                // TIME(3) cannot hold an instant
                .contains(
                        "column 'created': MySQL type TIMESTAMP(3) is read as TIMESTAMP_LTZ(3), declared TIME(3)")
                // a shorter VARCHAR would be accepted and checked per value
                // (MySqlCdcDeclaredTypesIT)
                .contains(
                        "column 'name': MySQL type VARCHAR(8) is read as VARCHAR(8), declared BYTES");
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
        tEnv.executeSql(
                createTable(
                        "missing", "id INT", options(DB, "no_such_table_.*", gtidExecuted(DB))));
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

    @Tag(FlinkLines.TWO_ONLY)
    @Test
    void explainNeverShowsThePassword() throws Exception {
        DB.execute(
                "CREATE TABLE explained (id INT NOT NULL PRIMARY KEY, v VARCHAR(8), w VARCHAR(8))");
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
        tEnv.executeSql("EXPLAIN PLAN FOR SELECT * FROM explained")
                .collect()
                .forEachRemaining(explainStatement::append);

        String password = DB.connectorAccount().password();
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
        tEnv.executeSql(
                createTable(
                        "compiled", "id INT NOT NULL", options(DB, "compiled", gtidExecuted(DB))));
        tEnv.executeSql("CREATE TEMPORARY TABLE sink (id INT) WITH ('connector' = 'blackhole')");
        String json =
                tEnv.compilePlanSql("INSERT INTO sink SELECT id FROM compiled").asJsonString();
        assertThat(json).contains("compiled").doesNotContain(DB.connectorAccount().password());
    }

    /** Plans the query (without running it) and returns the failure's messages. */
    private String planningFailure(String query) {
        Throwable t = catchThrowable(() -> tEnv.explainSql(query));
        assertThat(t).as("planning must fail").isNotNull();
        String messages = allMessages(t);
        assertThat(messages).doesNotContain(DB.connectorAccount().password());
        return messages;
    }
}

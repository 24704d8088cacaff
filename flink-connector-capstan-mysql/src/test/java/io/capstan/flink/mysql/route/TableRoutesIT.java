package io.capstan.flink.mysql.route;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.testing.ChangelogView;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three tables of different shapes through one source (one binlog reader) and {@link TableRoutes}:
 * snapshot at parallelism 2, then the binlog, writers on all three throughout and the job failed on
 * purpose 4 times (snapshot and stream). Each table's routed changelog, applied by key ({@link
 * ChangelogView}), has no duplicate or gap and ends equal to the MySQL table, every column
 * compared; a row routed to another table's stream or read with another table's columns would show
 * as a wrong value or a failed conversion.
 */
class TableRoutesIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    private static final int SEED_ROWS = 1500;

    @TempDir Path sinkDir;

    @Test
    void tablesOfDifferentShapesFromOneSourceExactlyOnceAcrossFailures() throws Exception {
        DB.execute(
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer INT NOT NULL,"
                        + " amount DECIMAL(10,2), note VARCHAR(40), ver INT NOT NULL)",
                "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(50) NOT NULL,"
                        + " tier ENUM('gold','silver'), ver INT NOT NULL)",
                "CREATE TABLE events (seq BIGINT PRIMARY KEY, at DATETIME(3) NOT NULL,"
                        + " payload JSON, ver INT NOT NULL)");
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            for (int i = 1; i <= SEED_ROWS; i++) {
                s.addBatch(insertOrder(i));
                s.addBatch(insertCustomer(i));
                s.addBatch(insertEvent(i));
            }
            s.executeBatch();
        }

        CapstanMySqlSourceBuilder<RowData> builder =
                CapstanMySqlSource.<RowData>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .databaseList(DB.name())
                        .tableList(DB.name() + "\\..*")
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.initial())
                        .chunkSize(200)
                        .heartbeatInterval(Duration.ofSeconds(1));
        TableRoutes routes = TableRoutes.discover(builder);
        assertThat(routes.tables())
                .extracting(RoutedTable::id)
                .containsExactly(
                        TableId.of(DB.name(), "customers"),
                        TableId.of(DB.name(), "events"),
                        TableId.of(DB.name(), "orders"));
        assertThat(routes.table(TableId.of(DB.name(), "events")).primaryKey())
                .containsExactly("seq");

        // two failures among the snapshot's change lines (a fresh count per phase)
        FailAtCounts.arm(List.of(700L, 3_100L));

        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        DataStream<RowData> routed =
                env.fromSource(
                                builder.deserializer(routes.deserializer()).build(),
                                WatermarkStrategy.noWatermarks(),
                                "capstan-source")
                        .setParallelism(2);
        DataStream<String> lines = null;
        for (Map.Entry<TableId, DataStream<Row>> e : routes.split(routed).entrySet()) {
            String table = e.getKey().table();
            DataStream<String> l = e.getValue().map(r -> line(table, r), Types.STRING);
            lines = lines == null ? l : lines.union(l);
        }
        lines.map(new FailAtCounts()).sinkTo(new TwoPhaseFileSink(sinkDir));
        JobClient job = env.executeAsync("table-routes");
        try {
            write(0, 150); // while the snapshot runs
            SourceJobs.await(
                    "the snapshot's failures",
                    Duration.ofMinutes(2),
                    () -> FailAtCounts.fired() == 2);
            awaitQuiet();
            FailAtCounts.arm(List.of(300L, 1_500L)); // two in the stream
            write(150, 650);
            Map<String, Map<Long, String>> mysql = mysqlContents();
            ChangelogView[] view = new ChangelogView[1];
            SourceJobs.await(
                    "every routed table equal to MySQL",
                    Duration.ofMinutes(3),
                    () -> {
                        view[0] = applied();
                        return mysql.keySet().stream()
                                .allMatch(t -> mysql.get(t).equals(view[0].rows(t)));
                    });
            Thread.sleep(1_000); // more checkpoints: a late duplicate would show
            ChangelogView last = applied();
            assertThat(last.errors()).as("duplicates or gaps").isEmpty();
            for (String t : mysql.keySet()) {
                assertThat(last.rows(t)).as(t).isEqualTo(mysql.get(t));
            }
            assertThat(FailAtCounts.fired())
                    .as("injected failures in the stream (of %s lines)", FailAtCounts.seen())
                    .isEqualTo(2);
        } finally {
            job.cancel().get();
        }
    }

    private static String insertOrder(long id) {
        return "INSERT INTO orders VALUES ("
                + id
                + ", "
                + (id % 97)
                + ", "
                + id
                + ".25, 'o"
                + id
                + "', 1)";
    }

    private static String insertCustomer(long id) {
        return "INSERT INTO customers VALUES ("
                + id
                + ", 'c"
                + id
                + "', '"
                + (id % 2 == 0 ? "gold" : "silver")
                + "', 1)";
    }

    private static String insertEvent(long id) {
        return "INSERT INTO events VALUES ("
                + id
                + ", TIMESTAMP '2026-01-01 00:00:00.000' + INTERVAL "
                + id
                + " SECOND, JSON_OBJECT('k', "
                + id
                + "), 1)";
    }

    /** Waits until no new change line arrives for a second: the stream has caught up. */
    private static void awaitQuiet() throws InterruptedException {
        long seen;
        do {
            seen = FailAtCounts.seen();
            Thread.sleep(1_000);
        } while (FailAtCounts.seen() != seen);
    }

    /**
     * Transactions {@code from..to} of 5 inserts, updates (key moves on orders) and deletes on the
     * three tables.
     */
    private static void write(int from, int to) {
        Random random = new Random(from);
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            for (int txn = from; txn < to; txn++) {
                c.setAutoCommit(false);
                for (int k = 0; k < 5; k++) {
                    long id = 1 + random.nextInt(SEED_ROWS);
                    switch (random.nextInt(6)) {
                        case 0:
                            s.execute(insertOrder(SEED_ROWS + txn * 5L + k + 1));
                            break;
                        case 1:
                            s.execute(
                                    "UPDATE orders SET ver = ver + 1, amount = amount + 1,"
                                            + " note = NULL WHERE id = "
                                            + id);
                            break;
                        case 2:
                            s.execute(
                                    "UPDATE orders SET id = id + 1000000, ver = ver + 1 WHERE id = "
                                            + id);
                            break;
                        case 3:
                            s.execute(
                                    "UPDATE customers SET ver = ver + 1, tier = NULL WHERE id = "
                                            + id);
                            break;
                        case 4:
                            s.execute(
                                    "UPDATE events SET ver = ver + 1,"
                                            + " payload = JSON_SET(payload, '$.v', ver)"
                                            + " WHERE seq = "
                                            + id);
                            break;
                        default:
                            s.execute("DELETE FROM customers WHERE id = " + id);
                            s.execute("DELETE FROM events WHERE seq = " + id);
                    }
                }
                c.commit();
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** table|kind|id|every column: the first column is each table's key. */
    private static String line(String table, Row r) {
        StringJoiner values = new StringJoiner(",");
        for (int i = 0; i < r.getArity(); i++) {
            values.add(String.valueOf(r.getField(i)));
        }
        return table + "|" + r.getKind().shortString() + "|" + r.getField(0) + "|" + values;
    }

    private ChangelogView applied() {
        ChangelogView view = new ChangelogView();
        for (String line : committedLines()) {
            String[] f = line.split("\\|", 4);
            view.apply(f[0], f[1], Long.parseLong(f[2]), f[3]);
        }
        return view;
    }

    private List<String> committedLines() {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Each table's rows as the lines render them (JDBC gives the same Java classes as Flink). */
    private static Map<String, Map<Long, String>> mysqlContents() throws Exception {
        Map<String, Map<Long, String>> all = new TreeMap<>();
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            for (String t : new TreeSet<>(List.of("orders", "customers", "events"))) {
                Map<Long, String> rows = new TreeMap<>();
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + DB.name() + "." + t)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringJoiner values = new StringJoiner(",");
                        for (int i = 1; i <= n; i++) {
                            String type = rs.getMetaData().getColumnTypeName(i);
                            Object v =
                                    type.equals("JSON") || type.equals("ENUM")
                                            ? rs.getString(i)
                                            : rs.getObject(i);
                            values.add(String.valueOf(v));
                        }
                        rows.put(rs.getLong(1), values.toString());
                    }
                }
                all.put(t, rows);
            }
        }
        return all;
    }
}

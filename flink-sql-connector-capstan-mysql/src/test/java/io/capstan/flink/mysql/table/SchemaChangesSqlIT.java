package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.testing.ChangelogView;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;
import io.capstan.flink.mysql.testing.SchemaChangeWorkload;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.capstan.flink.mysql.table.SqlItSupport.awaitBinlogReader;
import static io.capstan.flink.mysql.table.SqlItSupport.binlogDumpThreads;
import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.initialOptions;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schema changes of {@link SchemaChangeWorkload} (ADD COLUMN last / AFTER / FIRST, DROP and
 * RENAME of an undeclared column, MODIFY widening a declared one, ADD INDEX, a gh-ost and a pt-osc
 * run) under one Flink SQL table over all scenario tables ({@code 'table-name' = 'sc_.*'}), in scan
 * mode {@code initial}: the writers run during the snapshot, during the changes and after. The
 * changelog, applied by key with its before images checked, must end equal to MySQL.
 */
class SchemaChangesSqlIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @Test
    void everySchemaChangeKeepsTheChangelogExact() throws Exception {
        SchemaChangeWorkload workload = new SchemaChangeWorkload(DB);
        workload.createTables();
        workload.startWriters();
        Map<String, String> o = initialOptions(DB, "sc_.*");
        o.put("scan.parse.online.schema.changes.enabled", "true");
        StreamTableEnvironment tEnv = SqlItSupport.tableEnv();
        tEnv.getConfig().set("parallelism.default", "1");
        tEnv.executeSql(
                createTable(
                        "sc",
                        "table_name STRING METADATA FROM 'table_name' VIRTUAL, id BIGINT NOT NULL,"
                                + " v INT, name STRING, PRIMARY KEY (id) NOT ENFORCED",
                        o));
        Set<Long> before = binlogDumpThreads(DB);
        TableResult result = tEnv.executeSql("SELECT table_name, id, v, name FROM sc");
        ConcurrentLinkedQueue<Row> rows = new ConcurrentLinkedQueue<>();
        ChangelogView view = new ChangelogView();
        try (CloseableIterator<Row> it = result.collect()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread reader =
                    new Thread(
                            () -> {
                                try {
                                    it.forEachRemaining(rows::add);
                                } catch (Throwable t) {
                                    failure.set(t);
                                }
                            },
                            "collect");
            reader.setDaemon(true);
            reader.start();
            awaitBinlogReader(DB, before, Duration.ofMinutes(2)); // the snapshot is done
            int beforeStreaming = workload.changesWritten();
            workload.runChanges();
            workload.stopWriters();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!equalsMySql(workload, drain(rows, view))) {
                if (System.nanoTime() > deadline || !reader.isAlive()) {
                    throw new AssertionError(
                            "the changelog did not reach MySQL's contents ("
                                    + differences(workload, view)
                                    + " after "
                                    + view.changes()
                                    + " records); errors "
                                    + view.errors()
                                    + ", job failure "
                                    + ExceptionUtils.findThrowable(
                                                    failure.get(), CapstanHaltException.class)
                                            .map(Throwable::getMessage)
                                            .orElse(String.valueOf(failure.get())));
                }
                Thread.sleep(100);
            }
            Thread.sleep(1_000); // anything extra (a duplicate) would show
            drain(rows, view);
            assertThat(view.errors()).isEmpty();
            for (String t : SchemaChangeWorkload.TABLES) {
                assertThat(view.rows(t)).as(t).isEqualTo(workload.contents(t));
            }
            // every change written while streaming came as one or two records
            assertThat(view.changes())
                    .isGreaterThanOrEqualTo(workload.changesWritten() - beforeStreaming);
        }
    }

    private static ChangelogView drain(ConcurrentLinkedQueue<Row> rows, ChangelogView view) {
        for (Row r = rows.poll(); r != null; r = rows.poll()) {
            view.apply(
                    (String) r.getField(0),
                    r.getKind().shortString(),
                    (Long) r.getField(1),
                    r.getField(2) + "|" + r.getField(3));
        }
        return view;
    }

    /** Per differing table: the keys held only downstream, only in MySQL, or with other values. */
    private static String differences(SchemaChangeWorkload workload, ChangelogView view)
            throws SQLException {
        StringBuilder sb = new StringBuilder();
        for (String t : SchemaChangeWorkload.TABLES) {
            Map<Long, String> mysql = workload.contents(t);
            Map<Long, String> down = view.rows(t);
            if (mysql.equals(down)) {
                continue;
            }
            Set<Long> onlyDown = new java.util.TreeSet<>(down.keySet());
            onlyDown.removeAll(mysql.keySet());
            Set<Long> onlyMySql = new java.util.TreeSet<>(mysql.keySet());
            onlyMySql.removeAll(down.keySet());
            long other =
                    mysql.keySet().stream()
                            .filter(k -> down.containsKey(k) && !down.get(k).equals(mysql.get(k)))
                            .count();
            sb.append(t)
                    .append(": only downstream ")
                    .append(onlyDown)
                    .append(", only in MySQL ")
                    .append(onlyMySql)
                    .append(", other values ")
                    .append(other)
                    .append("; ");
        }
        return sb.toString();
    }

    private static boolean equalsMySql(SchemaChangeWorkload workload, ChangelogView view)
            throws SQLException {
        for (String t : SchemaChangeWorkload.TABLES) {
            if (!view.rows(t).equals(workload.contents(t))) {
                return false;
            }
        }
        return true;
    }
}

package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.options;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * mysql-cdc's file/position start through SQL: the job starts exactly at the position, and planning
 * the same DDL never reads the file (a restore resubmits it after the file may have been purged); a
 * new job whose start file was purged halts by name before reading.
 */
class FilePositionStartSqlIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static Row next(CloseableIterator<Row> it) throws Exception {
        return CompletableFuture.supplyAsync(it::next).get(60, TimeUnit.SECONDS);
    }

    @Test
    void theJobStartsAtThePositionAndPlanningNeverNeedsTheFile() throws Exception {
        DB.execute(
                "CREATE TABLE fp (id INT NOT NULL PRIMARY KEY, v INT)",
                "INSERT INTO fp VALUES (1, 10)");
        String file;
        long pos;
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            file = rs.getString("File");
            pos = rs.getLong("Position");
        }
        DB.execute("INSERT INTO fp VALUES (2, 20)");

        Map<String, String> o = options(DB, "fp", "");
        o.remove("scan.startup.specific-offset.gtid-set");
        o.put("scan.startup.specific-offset.file", file);
        o.put("scan.startup.specific-offset.pos", Long.toString(pos));
        String ddl =
                createTable("fp_src", "id INT NOT NULL, v INT, PRIMARY KEY (id) NOT ENFORCED", o);

        StreamTableEnvironment tEnv = SqlItSupport.tableEnv();
        tEnv.executeSql(ddl);
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT id, v FROM fp_src").collect()) {
            assertThat(next(it).getField(0))
                    .as("the row after the position, not before")
                    .isEqualTo(2);
        }

        // The file leaves the server (a restore comes later): the same DDL still plans.
        DB.server().purgeBinaryLogs();
        StreamTableEnvironment again = SqlItSupport.tableEnv();
        again.executeSql(ddl);
        assertThat(again.sqlQuery("SELECT id, v FROM fp_src").explain()).contains("fp_src");

        // A new job from that DDL cannot start exactly any more: it halts by name.
        Throwable failure;
        try (CloseableIterator<Row> it = again.executeSql("SELECT id, v FROM fp_src").collect()) {
            failure =
                    catchThrowable(
                            () ->
                                    CompletableFuture.supplyAsync(it::hasNext)
                                            .get(60, TimeUnit.SECONDS));
        }
        assertThat(failure).isNotNull();
        assertThat(allMessages(failure)).contains("[data_gap]").contains(file);
    }
}

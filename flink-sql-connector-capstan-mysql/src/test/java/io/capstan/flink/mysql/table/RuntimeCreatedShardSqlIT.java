package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.gtidExecuted;
import static io.capstan.flink.mysql.table.SqlItSupport.options;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A shard created while a Flink SQL job runs (docs/operations.md, "Tables created while the job
 * runs"): one that fits the declared table streams into it; one that does not halts by name.
 */
class RuntimeCreatedShardSqlIT {

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
    void aFittingNewShardStreamsAndAMisfittingOneHaltsNamingTableAndColumn() throws Exception {
        DB.execute("CREATE TABLE shard_1 (id INT NOT NULL PRIMARY KEY, v INT)");
        Map<String, String> o = options(DB, "shard_[0-9]+", gtidExecuted(DB));
        StreamTableEnvironment tEnv = SqlItSupport.tableEnv();
        tEnv.executeSql(
                createTable("shards", "id INT NOT NULL, v INT, PRIMARY KEY (id) NOT ENFORCED", o));
        List<Row> rows = new ArrayList<>();
        Throwable failure;
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT id, v FROM shards").collect()) {
            DB.execute("INSERT INTO shard_1 VALUES (1, 10)");
            rows.add(next(it));
            DB.execute(
                    "CREATE TABLE shard_2 (id INT NOT NULL PRIMARY KEY, v INT)",
                    "INSERT INTO shard_2 VALUES (2, 20)");
            rows.add(next(it));
            DB.execute(
                    "CREATE TABLE shard_3 (id INT NOT NULL PRIMARY KEY, w VARCHAR(10))",
                    "INSERT INTO shard_3 VALUES (3, 'secret')");
            failure =
                    catchThrowable(
                            () ->
                                    CompletableFuture.runAsync(
                                                    () -> {
                                                        while (it.hasNext()) {
                                                            rows.add(it.next());
                                                        }
                                                    })
                                            .get(60, TimeUnit.SECONDS));
        }
        assertThat(rows).extracting(r -> r.getField(0)).containsExactly(1, 2);
        assertThat(failure).isNotNull();
        assertThat(allMessages(failure))
                .contains("[invalid_configuration]")
                .contains("`" + DB.name() + "`.`shard_3`")
                .contains("column 'v'")
                .doesNotContain("secret");
    }
}

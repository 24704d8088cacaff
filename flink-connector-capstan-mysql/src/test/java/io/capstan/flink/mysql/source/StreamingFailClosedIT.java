package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializerColumnsTest.RowTypeInfo;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Whole jobs (snapshot, then binlog) meeting changes after the snapshot that a deserializer must
 * not pass on silently: a column added FIRST under a declared RowData row type, a TRUNCATE emitted
 * as the JSON envelope's {@code op: "t"}, a parent's delete that a foreign key cascades into the
 * captured table below the binary log, and a row moved between chunks by its chunk key column.
 */
class StreamingFailClosedIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    private static <T> CapstanMySqlSource<T> source(
            String table, CapstanDeserializer<T> deserializer, TruncateHandling truncate) {
        return CapstanMySqlSource.<T>builder()
                .hostname(DB.server().host())
                .port(DB.server().port())
                .username(DB.server().connectorAccount().username())
                .password(DB.server().connectorAccount().password())
                .tableList(DB.name() + "." + table)
                .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                .startupOptions(StartupOptions.initial())
                .deserializer(deserializer)
                .truncateHandling(truncate)
                .build();
    }

    private static StreamExecutionEnvironment env() {
        return SourceJobs.env(200, null);
    }

    /** The next record, failing after 60 s rather than hanging when it never comes. */
    private static <T> T nextWithin(CloseableIterator<T> it) throws Exception {
        return CompletableFuture.supplyAsync(it::next).get(60, TimeUnit.SECONDS);
    }

    /**
     * A column added FIRST is not declared: rows keep coming by name. A declared column dropped
     * halts naming table and column instead of emitting rows without it.
     */
    @Test
    void aDeclaredColumnDroppedHaltsARowDataJobNamingTableAndColumn() throws Exception {
        DB.execute("CREATE TABLE rd (id INT PRIMARY KEY, v INT)", "INSERT INTO rd VALUES (1, 10)");
        RowType declared =
                RowType.of(
                        new LogicalType[] {new IntType(false), new IntType()},
                        new String[] {"id", "v"});
        CapstanMySqlSource<RowData> source =
                source(
                        "rd",
                        new RowDataDeserializer(new RowTypeInfo(declared)),
                        TruncateHandling.HALT);
        List<RowData> rows = new CopyOnWriteArrayList<>();
        Throwable failure;
        try (CloseableIterator<RowData> it =
                env().fromSource(source, WatermarkStrategy.noWatermarks(), "rowdata")
                        .executeAndCollect()) {
            rows.add(it.next()); // the snapshot row
            DB.execute("INSERT INTO rd VALUES (2, 20)");
            rows.add(it.next());
            DB.execute(
                    "ALTER TABLE rd ADD COLUMN c INT NOT NULL DEFAULT 7 FIRST",
                    "INSERT INTO rd VALUES (8, 3, 30)");
            rows.add(nextWithin(it));
            DB.execute("ALTER TABLE rd DROP COLUMN v", "INSERT INTO rd VALUES (9, 4)");
            // Without the check the job would keep running: wait a bounded time.
            CompletableFuture<Void> drained =
                    CompletableFuture.runAsync(
                            () -> {
                                while (it.hasNext()) {
                                    rows.add(it.next());
                                }
                            });
            failure = catchThrowable(() -> drained.get(60, TimeUnit.SECONDS));
        }
        assertThat(rows).as("rows before the halt").hasSize(3).allMatch(r -> r.getArity() == 2);
        assertThat(rows.get(2).getInt(0)).isEqualTo(3);
        assertThat(rows.get(2).getInt(1)).isEqualTo(30);
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(String.valueOf(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION);
        assertThat(halt.get().getMessage())
                .contains("`" + DB.name() + "`.`rd`")
                .contains("column 'v'");
    }

    @Test
    void anEmittedTruncateIsTheJsonEnvelopesOpT() throws Exception {
        DB.execute("CREATE TABLE jt (id INT PRIMARY KEY)", "INSERT INTO jt VALUES (1)");
        CapstanMySqlSource<String> source =
                source("jt", new JsonDebeziumDeserializer(), TruncateHandling.EMIT);
        List<String> out = new ArrayList<>();
        try (CloseableIterator<String> it =
                env().fromSource(source, WatermarkStrategy.noWatermarks(), "json")
                        .executeAndCollect()) {
            out.add(nextWithin(it)); // the snapshot row
            DB.execute("TRUNCATE TABLE jt", "INSERT INTO jt VALUES (2)");
            out.add(nextWithin(it));
            out.add(nextWithin(it));
        }
        assertThat(out.get(0)).contains("\"op\":\"r\"");
        assertThat(out.get(1))
                .startsWith("{\"before\":null,\"after\":null,\"op\":\"t\"")
                .contains("\"table\":\"jt\"");
        assertThat(out.get(2)).contains("\"op\":\"c\"").contains("\"after\":{\"id\":2}");
    }

    @Test
    void aParentDeleteCascadingIntoTheCapturedChildHaltsTheJobWhileWritersRun() throws Exception {
        DB.execute(
                "CREATE TABLE fk_parent (id INT PRIMARY KEY)",
                "CREATE TABLE fk_child (id INT PRIMARY KEY AUTO_INCREMENT, parent_id INT NOT NULL,"
                        + " CONSTRAINT fk_child_parent FOREIGN KEY (parent_id)"
                        + " REFERENCES fk_parent (id) ON DELETE CASCADE)",
                "INSERT INTO fk_parent VALUES (1), (2)",
                "INSERT INTO fk_child (parent_id) VALUES (1), (1), (2)");
        CapstanMySqlSource<String> source =
                source("fk_child", new JsonDebeziumDeserializer(), TruncateHandling.HALT);
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(
                        () -> {
                            while (writing.get()) {
                                DB.execute("INSERT INTO fk_child (parent_id) VALUES (2)");
                                LockSupport.parkNanos(10_000_000L);
                            }
                        });
        List<String> out = new CopyOnWriteArrayList<>();
        Throwable failure;
        try (CloseableIterator<String> it =
                env().fromSource(source, WatermarkStrategy.noWatermarks(), "fk")
                        .executeAndCollect()) {
            for (int i = 0; i < 5; i++) {
                out.add(nextWithin(it)); // snapshot rows, then the writer's
            }
            DB.execute("DELETE FROM fk_parent WHERE id = 1"); // deletes two children, unlogged
            CompletableFuture<Void> drained =
                    CompletableFuture.runAsync(
                            () -> {
                                while (it.hasNext()) {
                                    out.add(it.next());
                                }
                            });
            failure = catchThrowable(() -> drained.get(60, TimeUnit.SECONDS));
        } finally {
            writing.set(false);
            writer.get(30, TimeUnit.SECONDS);
        }
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(String.valueOf(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
        assertThat(halt.get().getMessage())
                .contains(
                        TableId.of(DB.name(), "fk_child").toString(),
                        "`fk_child_parent`",
                        TableId.of(DB.name(), "fk_parent").toString());
        assertThat(out).noneMatch(json -> json.contains("\"op\":\"d\""));
    }

    /**
     * A primary key that cannot be a chunk key (DOUBLE) and a UNIQUE chunk key column beside it,
     * which a writer moves from the first chunk's range to the open end while the (throttled)
     * snapshot runs: a moved row is in a chunk read before the move and in one read after it, so
     * the job halts by name instead of showing it twice under one primary key.
     */
    @Test
    void aRowMovedBetweenChunksByAChunkKeyColumnBesideThePrimaryKeyHalts() throws Exception {
        DB.execute(
                "CREATE TABLE moved (id DOUBLE PRIMARY KEY, no BIGINT NOT NULL, v INT,"
                        + " UNIQUE INDEX (no))",
                "SET SESSION cte_max_recursion_depth = 10000",
                "INSERT INTO moved WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
                        + " WHERE i < 3000) SELECT i + 0.5, i, 0 FROM n");
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .tableList(DB.name() + ".moved")
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.initial())
                        .deserializer(new JsonDebeziumDeserializer())
                        .chunkKeyColumn("no")
                        .chunkSize(200)
                        .snapshotMaxRowsPerSecond(1_000)
                        .build();
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(
                        () -> {
                            for (long next = 1_000_000; writing.get(); next++) {
                                DB.execute(
                                        "UPDATE moved SET no = " + next + " ORDER BY no LIMIT 1");
                                LockSupport.parkNanos(10_000_000L);
                            }
                        });
        Throwable failure;
        try (CloseableIterator<String> it =
                env().fromSource(source, WatermarkStrategy.noWatermarks(), "moved")
                        .executeAndCollect()) {
            CompletableFuture<Void> drained =
                    CompletableFuture.runAsync(
                            () -> {
                                while (it.hasNext()) {
                                    it.next();
                                }
                            });
            failure = catchThrowable(() -> drained.get(90, TimeUnit.SECONDS));
        } finally {
            writing.set(false);
            writer.get(30, TimeUnit.SECONDS);
        }
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(String.valueOf(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.ROW_MOVED_BETWEEN_CHUNKS);
        assertThat(halt.get().getMessage())
                .contains(TableId.of(DB.name(), "moved").toString(), "column no")
                .doesNotContain("1000000");
    }
}

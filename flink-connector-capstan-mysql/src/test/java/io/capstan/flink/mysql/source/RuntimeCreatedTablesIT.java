package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializerColumnsTest.RowTypeInfo;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tables created while the job runs (docs/operations.md): a new shard matching the table list's
 * regex is captured from its CREATE on, exactly once, with no snapshot; a table renamed into the
 * regex, or a new shard that does not fit the declared row type, halts by name.
 */
class RuntimeCreatedTablesIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;
    @TempDir Path savepoints;

    private static <T> CapstanMySqlSource<T> source(
            String tableRegex, StartupOptions start, CapstanDeserializer<T> deserializer) {
        return CapstanMySqlSource.<T>builder()
                .hostname(DB.server().host())
                .port(DB.server().port())
                .username(DB.server().connectorAccount().username())
                .password(DB.server().connectorAccount().password())
                .tableList(DB.name() + "\\." + tableRegex)
                .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                .startupOptions(start)
                .deserializer(deserializer)
                .heartbeatInterval(Duration.ofSeconds(1))
                .build();
    }

    /** One transaction inserting {@code seq} into each of {@code tables}. */
    private static void insertIntoEach(Workload w, long seq, String... tables) throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (String t : tables) {
                s.executeUpdate("INSERT INTO " + t + " VALUES (" + seq + "," + seq + ",1,'both')");
                w.expected().add(t + "|c|" + seq + "|1");
            }
            c.commit();
        }
    }

    private static void awaitCommitted(Path sinkDir, int count) throws Exception {
        SourceJobs.await(
                count + " changes committed",
                Duration.ofMinutes(2),
                () -> SourceJobs.committedCount(sinkDir) >= count);
    }

    /** Starts the job on the tables {@code regex} matches ({@code initial}), from a savepoint. */
    private JobClient startJob(String regex, String savepoint, String name) throws Exception {
        StreamExecutionEnvironment env = SourceJobs.env(300, savepoint);
        SourceJobs.pipeline(
                env,
                source(regex, StartupOptions.initial(), new ChangeLineDeserializer()),
                sinkDir);
        return env.executeAsync(name);
    }

    private String stopWithSavepoint(JobClient job) throws Exception {
        return job.stopWithSavepoint(
                        false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
    }

    /** Waits for every expected change, lets a duplicate show if one would, and checks. */
    private void cancelOnceAllArrivedAndCheck(Workload w, JobClient job) throws Exception {
        List<String> expected = w.expected();
        awaitCommitted(sinkDir, expected.size());
        Thread.sleep(1_500);
        job.cancel().get();
        ExactlyOnceCheck.assertExactlyOnce(expected, SourceJobs.committed(sinkDir));
    }

    @Test
    void aShardCreatedWhileStreamingIsCapturedExactlyOnce() throws Exception {
        DB.execute(Workload.createTable("orders_1"));
        FailAtCounts.arm(List.of());
        Workload w = new Workload(DB, "p");
        w.insert("orders_1", 1, 100, 50); // read by the snapshot

        JobClient job = startJob("orders_\\d+", null, "runtime-created-tables");
        w.insert("orders_1", 101, 200, 50);
        awaitCommitted(sinkDir, 200); // streaming now

        // The new shard, written at once: rows in one and in several transactions.
        DB.execute(Workload.createTable("orders_2"));
        w.insert("orders_2", 1, 300, 100);
        w.bumpVersion("orders_2", 1, 100, 30);
        w.moveKeys("orders_2", 101, 150, 50);
        w.delete("orders_2", 201, 300, 40);
        // A transaction that creates nothing but writes both shards.
        insertIntoEach(w, 1_000, "orders_1", "orders_2");
        // CREATE ... LIKE: captured the same way.
        DB.execute("CREATE TABLE orders_3 LIKE orders_1");
        w.insert("orders_3", 1, 20, 7);
        // Not matching: never captured (the check below allows nothing else).
        DB.execute(Workload.createTable("orders_x"), Workload.createTable("audit_1"));
        w.insert("orders_1", 201, 220, 10);
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO orders_x VALUES (1, 1, 1, 'no')");
            s.executeUpdate("INSERT INTO audit_1 VALUES (1, 1, 1, 'no')");
        }
        // IF NOT EXISTS of a captured shard: nothing changes.
        DB.execute("CREATE TABLE IF NOT EXISTS orders_2 (id BIGINT PRIMARY KEY)");
        w.insert("orders_2", 301, 320, 10);

        cancelOnceAllArrivedAndCheck(w, job);
    }

    @Test
    void aShardCreatedWhileStreamingSurvivesASavepointAndRestore() throws Exception {
        DB.execute(Workload.createTable("sp_1"));
        FailAtCounts.arm(List.of());
        Workload w = new Workload(DB, "p");
        w.insert("sp_1", 1, 50, 25);

        JobClient first = startJob("sp_\\d+", null, "runtime-created-first");
        w.insert("sp_1", 51, 60, 10);
        awaitCommitted(sinkDir, 60);
        DB.execute(Workload.createTable("sp_2"));
        w.insert("sp_2", 1, 2_000, 2_000); // one transaction, likely cut by the savepoint
        awaitCommitted(sinkDir, 61);
        String savepoint = stopWithSavepoint(first);

        // Writes to the new shard while no job runs.
        w.bumpVersion("sp_2", 1, 500, 100);
        w.delete("sp_2", 1_001, 1_500, 100);

        JobClient second = startJob("sp_\\d+", savepoint, "runtime-created-second");
        w.insert("sp_2", 2_001, 2_100, 20);
        insertIntoEach(w, 5_000, "sp_1", "sp_2");

        cancelOnceAllArrivedAndCheck(w, second);
    }

    /**
     * The restore's handshake sees a table its split lacks: with {@code
     * scan.newly-added-table.enabled} off it is no halt, because the table may have been created
     * after the split's position (here, while the job was stopped); the stream captures it from its
     * {@code CREATE}, every row exactly once.
     */
    @Test
    void aShardCreatedWhileTheJobWasStoppedIsCapturedFromItsCreate() throws Exception {
        DB.execute(Workload.createTable("dn_1"));
        FailAtCounts.arm(List.of());
        Workload w = new Workload(DB, "d");
        w.insert("dn_1", 1, 50, 25);

        JobClient first = startJob("dn_\\d+", null, "created-while-stopped-first");
        w.insert("dn_1", 51, 60, 10);
        awaitCommitted(sinkDir, 60);
        String savepoint = stopWithSavepoint(first);

        // While no job runs: a new shard, its rows and changes, and more on the old one.
        DB.execute(Workload.createTable("dn_2"));
        w.insert("dn_2", 1, 1_000, 250);
        w.bumpVersion("dn_2", 1, 300, 100);
        w.delete("dn_2", 901, 1_000, 50);
        w.insert("dn_1", 61, 80, 10);

        JobClient second = startJob("dn_\\d+", savepoint, "created-while-stopped-second");
        insertIntoEach(w, 5_000, "dn_1", "dn_2");

        cancelOnceAllArrivedAndCheck(w, second);
    }

    /**
     * A table added to a restored job's list (without {@code scan.newly-added-table.enabled}) that
     * existed before the job started, then named by a {@code CREATE TABLE IF NOT EXISTS} while the
     * job was stopped: the server logs the statement although it created nothing, so it must halt
     * rather than capture the table from there (its existing rows would never arrive).
     */
    @Test
    void aCreateIfNotExistsOfATableThatExistedHaltsByName() throws Exception {
        DB.execute(Workload.createTable("ine_1"), Workload.createTable("ine_2"));
        FailAtCounts.arm(List.of());
        Workload w = new Workload(DB, "i");
        w.insert("ine_1", 1, 10, 10);
        w.insert("ine_2", 1, 10, 10); // rows only a snapshot could read

        JobClient first = startJob("ine_1", null, "if-not-exists-first");
        awaitCommitted(sinkDir, 10);
        String savepoint = stopWithSavepoint(first);
        DB.execute(
                Workload.createTable("ine_2")
                        .replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"));

        JobClient second = startJob("ine_\\d+", savepoint, "if-not-exists-second");
        insertIntoEach(w, 5_000, "ine_1", "ine_2");
        Throwable failure =
                catchThrowable(() -> second.getJobExecutionResult().get(2, TimeUnit.MINUTES));
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        if (halt.isEmpty()) {
            catchThrowable(() -> second.cancel().get(30, TimeUnit.SECONDS)); // frees the slot
        }
        assertThat(halt).as(String.valueOf(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
        assertThat(halt.get().getMessage())
                .contains(DB.name() + ".ine_2")
                .contains("IF NOT EXISTS")
                .contains("scan.newly-added-table.enabled");
    }

    /** Runs a job until it fails, returning its halt. */
    private static <T> CapstanHaltException haltOf(
            CapstanMySqlSource<T> source, ThrowingRunnable whileStreaming) throws Exception {
        Throwable failure;
        try (CloseableIterator<T> it =
                SourceJobs.env(200, null)
                        .fromSource(source, WatermarkStrategy.noWatermarks(), "halting")
                        .executeAndCollect()) {
            CompletableFuture.supplyAsync(it::next).get(60, TimeUnit.SECONDS); // streaming
            whileStreaming.run();
            CompletableFuture<Void> drained =
                    CompletableFuture.runAsync(
                            () -> {
                                while (it.hasNext()) {
                                    it.next();
                                }
                            });
            failure = catchThrowable(() -> drained.get(60, TimeUnit.SECONDS));
        }
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(String.valueOf(failure)).isPresent();
        return halt.get();
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void aTableRenamedIntoTheRegexHaltsByName() throws Exception {
        DB.execute(
                "CREATE TABLE rn_1 (id INT PRIMARY KEY)",
                "INSERT INTO rn_1 VALUES (1)",
                "CREATE TABLE staging (id INT PRIMARY KEY)",
                "INSERT INTO staging VALUES (1)");
        CapstanHaltException halt =
                haltOf(
                        source("rn_\\d+", StartupOptions.initial(), new JsonDebeziumDeserializer()),
                        () -> DB.execute("RENAME TABLE staging TO rn_2"));
        assertThat(halt.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
        assertThat(halt.getMessage())
                .contains(DB.name() + ".rn_2")
                .contains("scan.newly-added-table.enabled");
    }

    @Test
    void aNewShardThatDoesNotFitTheDeclaredRowTypeHaltsByName() throws Exception {
        DB.execute(
                "CREATE TABLE fit_1 (id INT PRIMARY KEY, v INT)",
                "INSERT INTO fit_1 VALUES (1, 10)");
        RowType declared =
                RowType.of(
                        new LogicalType[] {new IntType(false), new IntType()},
                        new String[] {"id", "v"});
        CapstanHaltException halt =
                haltOf(
                        source(
                                "fit_\\d+",
                                StartupOptions.initial(),
                                new RowDataDeserializer(new RowTypeInfo(declared))),
                        () ->
                                DB.execute(
                                        "CREATE TABLE fit_2 (id INT PRIMARY KEY, v VARCHAR(10))",
                                        "INSERT INTO fit_2 VALUES (2, 'x')"));
        assertThat(halt.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION);
        assertThat(halt.getMessage())
                .contains("fit_2")
                .contains("column 'v'")
                .doesNotContain("'x'");
    }
}

package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.FailOnWrite;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.FlinkLines;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@code snapshot} mode (bounded) over the kinds of tables: a BIGINT key, a composite key (INT,
 * VARBINARY), a table without primary key but with a chunk key column, an empty table; a table
 * refused for lacking a key; a DDL on a table during its snapshot (halts), a DDL on another table
 * (does not), and {@code initial} without checkpointing (hands over anyway).
 */
@Tag(FlinkLines.EVERY_LINE)
class SnapshotTablesIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2, REPORTER);

    @BeforeAll
    static void tables() throws Exception {
        DB.execute(
                "CREATE TABLE big (id BIGINT PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE comp (a INT NOT NULL, b VARBINARY(8) NOT NULL, v INT NOT NULL,"
                        + " PRIMARY KEY (a, b))",
                "CREATE TABLE nopk (code BIGINT NOT NULL, v INT NOT NULL, UNIQUE KEY uk_code (code))",
                "CREATE TABLE empty_t (id BIGINT PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE nokey (x INT, v INT NOT NULL)",
                "CREATE TABLE drift (id BIGINT PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE calm (id BIGINT PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE other (id BIGINT PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE heap (id BIGINT PRIMARY KEY, v INT NOT NULL) ENGINE = MyISAM");
        insert("big", 20_000, i -> (i * 3L) + ", " + i);
        insert(
                "comp",
                3_000,
                i ->
                        (i % 50)
                                + ", x'"
                                + String.format("%02x%02xff00", (i >> 8) & 0xFF, i & 0xFF)
                                + "', "
                                + i);
        insert("nopk", 2_500, i -> (1_000_000L - i * 7L) + ", " + i);
        insert("drift", 20_000, i -> i + ", " + i);
        insert("calm", 20_000, i -> i + ", " + i);
        DB.execute("ANALYZE TABLE big, comp, nopk, drift, calm");
    }

    /** Inserts rows 0..rows-1 given as SQL literals, 2,000 per statement. */
    static void insert(String table, int rows, java.util.function.IntFunction<String> values) {
        for (int lo = 0; lo < rows; lo += 2_000) {
            StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
            for (int i = lo; i < Math.min(rows, lo + 2_000); i++) {
                sql.append(i == lo ? "(" : ", (").append(values.apply(i)).append(')');
            }
            DB.execute(sql.toString());
        }
    }

    private static io.capstan.flink.mysql.CapstanMySqlSourceBuilder<String> source(
            StartupOptions start, String... tables) {
        io.capstan.flink.mysql.CapstanMySqlSourceBuilder<String> b =
                SnapshotJobs.source(DB, start)
                        .deserializer(new ValueLineDeserializer())
                        .chunkSize(500);
        List<String> names = new ArrayList<>();
        for (String t : tables) {
            names.add(DB.name() + "." + t);
        }
        return b.tableList(names.toArray(new String[0]));
    }

    private static StreamExecutionEnvironment env(boolean checkpointing) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        if (checkpointing) {
            env.enableCheckpointing(300);
        }
        return env;
    }

    private static List<String> expected(String table, int rows) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            out.add(table + "|r|" + i);
        }
        return out;
    }

    @Test
    void snapshotModeEmitsExactlyEveryRowOfEveryKindOfTableAndFinishes() throws Exception {
        // The DataStream tableList takes regular expressions per part; nopk needs its chunk key.
        CapstanMySqlSource<String> source =
                source(StartupOptions.snapshot(), "big", "comp", "nopk", "empty_t")
                        .chunkKeyColumn(DB.name() + ".nopk", "code")
                        .build();
        List<String> out = new ArrayList<>();
        StreamExecutionEnvironment env = env(false);
        try (CloseableIterator<String> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "snapshot")
                        .executeAndCollect()) {
            it.forEachRemaining(out::add); // returns only when the bounded job finished
        }
        List<String> expected = new ArrayList<>();
        expected.addAll(expected("big", 20_000));
        expected.addAll(expected("comp", 3_000));
        expected.addAll(expected("nopk", 2_500));
        assertThat(out).hasSameSizeAs(expected).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aTableWithoutKeyAboveTheLimitIsRefusedBeforeAnythingIsRead() {
        DB.execute(
                "DELETE FROM nokey",
                "INSERT INTO nokey VALUES (1, 1), (1, 1), (2, 2), (3, 3)",
                "ANALYZE TABLE nokey"); // the limit compares the server's row estimate
        CapstanMySqlSource<String> source =
                source(StartupOptions.snapshot(), "big", "nokey").keylessTableMaxRows(3).build();
        StreamExecutionEnvironment env = env(false);
        // Not a collect sink: the job fails while its tasks start (see FailOnWrite).
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "refused")
                .sinkTo(FailOnWrite.sink());
        Throwable failure = catchThrowable(() -> env.execute("refused"));
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(ExceptionUtils.stringifyException(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.TABLE_WITHOUT_KEY);
        assertThat(halt.get().getMessage())
                .contains(DB.name() + ".nokey")
                .contains("scan.snapshot.keyless-table.max-rows")
                .contains("chunk.key-column")
                .contains("chunkKeyColumn");
    }

    @Test
    void aNonTransactionalTableIsRefusedBeforeAnythingIsRead() {
        // MyISAM keeps no read view after UNLOCK TABLES: a chunk could show writes after its G.
        DB.execute("INSERT INTO heap VALUES (1, 1), (2, 2)");
        CapstanMySqlSource<String> source = source(StartupOptions.initial(), "big", "heap").build();
        StreamExecutionEnvironment env = env(false);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "refused-engine")
                .sinkTo(FailOnWrite.sink());
        Throwable failure = catchThrowable(() -> env.execute("refused-engine"));
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(ExceptionUtils.stringifyException(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.NON_TRANSACTIONAL_TABLE);
        assertThat(halt.get().getMessage()).contains(DB.name() + ".heap").contains("MyISAM");
    }

    @Test
    void unalignedCheckpointsAreRefusedWhileTheHandoffIsAhead() throws Exception {
        CapstanMySqlSource<String> source = source(StartupOptions.initial(), "big").build();
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(300);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "unaligned")
                .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
        JobClient job = env.executeAsync("unaligned");
        // Without the refusal the job would stream on: bounded wait, then it must have failed.
        Throwable failure =
                catchThrowable(() -> job.getJobExecutionResult().get(2, TimeUnit.MINUTES));
        if (failure instanceof TimeoutException) {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(ExceptionUtils.stringifyException(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION);
        assertThat(halt.get().getMessage()).contains("execution.checkpointing.unaligned.enabled");
    }

    /** Slows the job down so that the test can act while the snapshot is running. */
    static class Slow implements MapFunction<String, String> {
        private transient long seen;

        @Override
        public String map(String value) throws Exception {
            if (++seen % 4 == 0) {
                Thread.sleep(1);
            }
            return value;
        }
    }

    /**
     * Also: a halt is not restarted. The job may restart endlessly here, yet it must end, failed
     * with the halt; a restart would meet the drift again (the checkpointed fingerprint is the old
     * schema's). A restart the job does take (Flink fails the task again when the enumerator's
     * answer to a split request arrives after the halt) does not hide the halt either.
     */
    @Test
    void aDdlOnATableDuringItsSnapshotHaltsAsSchemaDriftedAndIsNotRestarted() throws Exception {
        CapstanMySqlSource<String> source = source(StartupOptions.snapshot(), "drift").build();
        StreamExecutionEnvironment env = env(true);
        env.configure(unboundedRestarts());
        CheckpointedSlow.completed = false;
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "drift")
                .setParallelism(1)
                .map(new CheckpointedSlow())
                .setParallelism(1)
                .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
        JobClient job = env.executeAsync("drift");
        // The snapshot is reading (20,000 rows at most 4,000/s) and a checkpoint holds its
        // fingerprint, so that a restart would resume it rather than plan it again.
        SourceJobs.await(
                "a checkpoint of the snapshot",
                Duration.ofMinutes(1),
                () -> CheckpointedSlow.completed);
        DB.execute("ALTER TABLE drift ADD COLUMN extra INT NULL");
        Throwable failure =
                catchThrowable(() -> job.getJobExecutionResult().get(2, TimeUnit.MINUTES));
        assertThat(failure)
                .as("the job ended, failed")
                .isNotNull()
                .isNotInstanceOf(TimeoutException.class);
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as(causeChain(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED);
        assertThat(halt.get().getMessage()).contains(DB.name() + ".drift");
    }

    private static Configuration unboundedRestarts() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        return conf;
    }

    /**
     * Each cause's class and message on one line each (the whole trace is too long for a CI log).
     */
    private static String causeChain(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append("\n  ").append(c.getClass().getName()).append(": ").append(c.getMessage());
        }
        return sb.toString();
    }

    /** {@link Slow}, and it notes when a checkpoint completed. */
    static final class CheckpointedSlow extends Slow implements CheckpointListener {
        static volatile boolean completed;

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            completed = true;
        }
    }

    @Test
    void aDdlOnAnotherTableDoesNotHaltAndInitialHandsOverWithoutCheckpointing() throws Exception {
        CapstanMySqlSource<String> source = source(StartupOptions.initial(), "calm").build();
        StreamExecutionEnvironment env = env(false); // no checkpoints: the handoff must not wait
        List<String> out = new CopyOnWriteArrayList<>();
        CloseableIterator<String> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "calm")
                        .map(new Slow())
                        .setParallelism(1)
                        .collectAsync();
        JobClient job = env.executeAsync("calm");
        Thread reader = new Thread(() -> it.forEachRemaining(out::add));
        reader.start();
        try {
            SourceJobs.await(
                    "the snapshot to be under way", Duration.ofMinutes(1), () -> out.size() > 500);
            // Not a captured table; in the binlog range the stream reads after the snapshot.
            DB.execute("ALTER TABLE other ADD COLUMN extra INT NULL");
            SourceJobs.await(
                    "the whole snapshot", Duration.ofMinutes(2), () -> out.size() >= 20_000);
            DB.execute("INSERT INTO calm VALUES (1000000, 1000000)");
            SourceJobs.await(
                    "the insert after the snapshot",
                    Duration.ofMinutes(1),
                    () -> out.contains("calm|c|1000000"));
            assertThat(out.stream().filter(l -> l.contains("|r|")).count()).isEqualTo(20_000);
            assertThat(out.indexOf("calm|c|1000000")).isEqualTo(out.size() - 1);
            // The source's numRecordsIn counts row changes, not the elements it polls (a whole
            // chunk, a row change, a transaction end): 20,000 snapshot rows and one insert.
            SourceJobs.await(
                    "numRecordsIn of the source",
                    Duration.ofSeconds(30),
                    () -> sourceRecordsIn(job) == 20_001);
            // mysql-cdc's dashboards read these names: the enumerator's phase and chunk
            // counts, in total and per table, and the reader's rows by kind per table.
            SourceJobs.await(
                    "mysql-cdc's metrics to show the stream",
                    Duration.ofSeconds(30),
                    () ->
                            metric(job, "isStreamReading", null).contains(1L)
                                    && metricSum(job, "numInsertDMLRecords", "calm") == 1);
            assertThat(metric(job, "isSnapshotting", null)).containsExactly(0L);
            assertThat(metric(job, "numTablesSnapshotted", null)).containsExactly(1L);
            assertThat(metric(job, "numSnapshotSplitsRemaining", null)).containsOnly(0L);
            assertThat(metric(job, "numSnapshotSplitsFinished", "calm"))
                    .singleElement()
                    .isEqualTo(metric(job, "numSnapshotSplitsFinished", null).get(0))
                    .matches(n -> n > 1, "more than one chunk");
            assertThat(metricSum(job, "numSnapshotRecords", "calm")).isEqualTo(20_000L);
            // Streaming, the source holds two connections: the binlog dump and the gtid_executed
            // poll. The snapshot's (chunk reading, schemas, planning) are released.
            SourceJobs.await(
                    "only the streaming connections open",
                    Duration.ofSeconds(30),
                    () -> connectorConnections() == 2);
        } finally {
            it.close();
            reader.join(10_000);
        }
    }

    /**
     * The values of the job's metrics called {@code name} (gauges as numbers, counters' counts),
     * one per group: of the groups of {@code table}, or of the groups of no table when it is null.
     */
    private static List<Long> metric(JobClient job, String name, String table) {
        List<Long> values = new ArrayList<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                REPORTER.getMetricsByGroup().entrySet()) {
            Map<String, String> vars = g.getKey().getAllVariables();
            Metric m = g.getValue().get(name);
            if (m != null
                    && job.getJobID().toString().equals(vars.get("<job_id>"))
                    && java.util.Objects.equals(table, vars.get("<table>"))) {
                values.add(
                        m instanceof Counter
                                ? ((Counter) m).getCount()
                                : ((Number) ((Gauge<?>) m).getValue()).longValue());
            }
        }
        return values;
    }

    private static long metricSum(JobClient job, String name, String table) {
        return metric(job, name, table).stream().mapToLong(Long::longValue).sum();
    }

    /** The source operator's numRecordsIn, summed over its subtasks. */
    private static long sourceRecordsIn(JobClient job) {
        long n = 0;
        for (OperatorMetricGroup g :
                REPORTER.findOperatorMetricGroups(job.getJobID(), "Source: calm")) {
            n += g.getIOMetricGroup().getNumRecordsInCounter().getCount();
        }
        return n;
    }

    private static long connectorConnections() {
        try (Connection c = DB.openRootConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = ?")) {
            ps.setString(1, connectorConfig(DB).username());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

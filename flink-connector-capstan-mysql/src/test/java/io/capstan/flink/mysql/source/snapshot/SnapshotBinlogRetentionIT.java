package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.enumerator.CapstanEnumeratorMetrics;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An {@code initial} snapshot whose handoff start the server purges while it runs halts with {@code
 * data_gap} within the check interval, long before its last chunk; one estimated to outlast the
 * binlog retention warns and shows its estimate in the enumerator's gauges. It purges binlogs and
 * changes the retention, so it runs on an extra embedded MySQL of its own (as
 * BinlogServerLifecycleIT does).
 */
class SnapshotBinlogRetentionIT {

    private static final int ROWS = 4000;

    /** Rows that passed the slow map; the MiniCluster runs in this JVM. */
    private static final AtomicInteger SEEN = new AtomicInteger();

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1, REPORTER);

    /** The retention warning, logged by the enumerator in this JVM. */
    @RegisterExtension
    final LoggerAuditingExtension retentionWarnings =
            new LoggerAuditingExtension(
                    "io.capstan.flink.mysql.source.enumerator.SnapshotRetentionMonitor",
                    Level.WARN);

    private static MySqlServer server;

    @BeforeAll
    static void startServer() {
        server = MySqlServer.startEmbedded(ServerOptions.defaults());
        server.executeAsRoot(
                "CREATE DATABASE retention",
                "CREATE TABLE retention.big (id BIGINT PRIMARY KEY, seq BIGINT, ver INT)",
                "CREATE TABLE retention.other (id INT PRIMARY KEY)",
                "SET SESSION cte_max_recursion_depth = " + (ROWS + 1),
                "INSERT INTO retention.big WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL"
                        + " SELECT n + 1 FROM seq WHERE n < "
                        + ROWS
                        + ") SELECT n, n, 1 FROM seq");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPurgeOfTheHandoffStartDuringTheSnapshotHaltsItEarlyWithDataGap() throws Exception {
        SEEN.set(0);
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(server.host())
                        .port(server.port())
                        .username(server.connectorAccount().username())
                        .password(server.connectorAccount().password())
                        .tableList("retention\\.big")
                        .serverId(4711)
                        .startupOptions(StartupOptions.initial())
                        .deserializer(new SnapshotLineDeserializer())
                        .chunkSize(20)
                        .binlogRetentionCheckInterval(Duration.ofSeconds(1))
                        .build();
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        // 5 ms a row: the 4000-row snapshot takes at least 20 s.
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .map(new SlowMap(5))
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("retention-watch");

        // Rows arrive only after the first chunk's G was taken: what commits now is after it.
        SourceJobs.await("the first snapshot rows", Duration.ofSeconds(60), () -> SEEN.get() > 0);
        for (int i = 1; i <= 3; i++) {
            server.executeAsRoot("INSERT INTO retention.other VALUES (" + i + ")");
        }
        server.purgeBinaryLogs();
        long purgedAt = System.nanoTime();

        Throwable failure =
                catchThrowable(() -> job.getJobExecutionResult().get(120, TimeUnit.SECONDS));
        long haltedAfterMillis = (System.nanoTime() - purgedAt) / 1_000_000;
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as("failure: %s", ExceptionUtils.stringifyException(failure)).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.DATA_GAP);
        // The watch's halt, not the handoff's at the end of the snapshot.
        assertThat(halt.get().getMessage()).contains("while the snapshot runs");
        assertThat(SEEN.get()).as("rows read before the halt").isLessThan(ROWS);
        assertThat(haltedAfterMillis).isLessThan(15_000);
    }

    /**
     * A snapshot that takes longer than the binlog retention warns and publishes its estimate, and
     * goes on (the retention is short, but nothing is purged while it runs: the server purges only
     * when it rotates its binary log).
     */
    @Test
    void aSnapshotEstimatedLongerThanTheRetentionWarnsAndShowsTheEstimate() throws Exception {
        SEEN.set(0);
        String before = server.queryStringAsRoot("SELECT @@global.binlog_expire_logs_seconds");
        server.executeAsRoot("SET GLOBAL binlog_expire_logs_seconds = 20");
        try {
            CapstanMySqlSource<String> source =
                    CapstanMySqlSource.<String>builder()
                            .hostname(server.host())
                            .port(server.port())
                            .username(server.connectorAccount().username())
                            .password(server.connectorAccount().password())
                            .tableList("retention\\.big")
                            .serverId(4712)
                            .startupOptions(StartupOptions.initial())
                            .deserializer(new SnapshotLineDeserializer())
                            .chunkSize(20)
                            .binlogRetentionCheckInterval(Duration.ofSeconds(1))
                            .build();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            // 10 ms a row: the 4000-row snapshot takes at least 40 s; the estimate needs 30 s.
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                    .map(new SlowMap(10))
                    .sinkTo(new DiscardingSink<>());
            JobClient job = env.executeAsync("retention-estimate");
            try {
                AtomicLong remaining = new AtomicLong(-1);
                SourceJobs.await(
                        "the snapshot's estimate",
                        Duration.ofSeconds(60),
                        () -> {
                            remaining.set(
                                    gauge(
                                            job.getJobID(),
                                            CapstanEnumeratorMetrics
                                                    .SNAPSHOT_ESTIMATED_REMAINING_SECONDS));
                            return remaining.get() >= 0;
                        });
                assertThat(gauge(job.getJobID(), CapstanEnumeratorMetrics.BINLOG_RETENTION_SECONDS))
                        .isEqualTo(20);
                // at least 30 s measured after the first chunk, and rows still to read
                assertThat(
                                gauge(
                                        job.getJobID(),
                                        CapstanEnumeratorMetrics
                                                .SNAPSHOT_ESTIMATED_DURATION_SECONDS))
                        .isGreaterThan(30);
                assertThat(SEEN.get()).as("rows read so far").isLessThan(ROWS);
                assertThat(remaining.get()).isPositive();
                SourceJobs.await(
                        "the retention warning",
                        Duration.ofSeconds(5),
                        () -> !retentionWarnings.getMessages().isEmpty());
                assertThat(retentionWarnings.getMessages())
                        .singleElement()
                        .asString()
                        .contains("1 table(s)", "binlog retention of 20 s")
                        .contains("binlog_expire_logs_seconds", "parallelism");
            } finally {
                job.cancel().get(30, TimeUnit.SECONDS);
            }
        } finally {
            server.executeAsRoot("SET GLOBAL binlog_expire_logs_seconds = " + before);
        }
    }

    /** The enumerator's gauge of the job, or -1 while it is not registered. */
    private static long gauge(JobID job, String name) {
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                REPORTER.getMetricsByGroup().entrySet()) {
            Metric m = g.getValue().get(name);
            if (m instanceof Gauge<?> gauge
                    && job.toString().equals(g.getKey().getAllVariables().get("<job_id>"))) {
                return ((Number) gauge.getValue()).longValue();
            }
        }
        return -1;
    }

    /** Slows the snapshot down (backpressure) and counts the rows that reached it. */
    private static final class SlowMap implements MapFunction<String, String> {
        private final long millisPerRow;

        SlowMap(long millisPerRow) {
            this.millisPerRow = millisPerRow;
        }

        @Override
        public String map(String line) throws Exception {
            SEEN.incrementAndGet();
            Thread.sleep(millisPerRow);
            return line;
        }
    }
}

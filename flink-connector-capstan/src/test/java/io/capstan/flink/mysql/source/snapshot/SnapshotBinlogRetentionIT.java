package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An {@code initial} snapshot whose handoff start the server purges while it runs halts with {@code
 * data_gap} within the check interval, long before its last chunk. It purges binlogs, so it runs on
 * an extra embedded MySQL of its own (as BinlogServerLifecycleIT does).
 */
class SnapshotBinlogRetentionIT {

    private static final int ROWS = 4000;

    /** Rows that passed the slow map; the MiniCluster runs in this JVM. */
    private static final AtomicInteger SEEN = new AtomicInteger();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

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
                .map(new SlowMap())
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

    /** Slows the snapshot down (backpressure) and counts the rows that reached it. */
    private static final class SlowMap implements MapFunction<String, String> {
        @Override
        public String map(String line) throws Exception {
            SEEN.incrementAndGet();
            Thread.sleep(5);
            return line;
        }
    }
}

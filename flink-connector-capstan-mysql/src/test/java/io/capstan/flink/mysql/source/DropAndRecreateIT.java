package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code earliest-offset} over a binlog that drops and re-creates captured tables: a table dropped
 * before any row of it was emitted (created, dropped, re-created with other columns, then written)
 * streams on with the new incarnation's rows; a table dropped after a row of it was emitted halts
 * {@code captured_table_removed} at the DROP, since downstream would keep a row MySQL no longer
 * has.
 */
class DropAndRecreateIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    static final ConcurrentLinkedQueue<String> OUT = new ConcurrentLinkedQueue<>();

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static String tableOf(String json) {
        try {
            return MAPPER.readTree(json).path("source").path("table").asText();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aDropBeforeEmittedRowsPassesADropAfterThemHalts() throws Exception {
        // before any row: dropped and re-created with another column, then written
        DB.execute(
                "CREATE TABLE dr_a (id INT PRIMARY KEY, old_col INT)",
                "DROP TABLE dr_a",
                "CREATE TABLE dr_a (id INT PRIMARY KEY, new_col VARCHAR(10))",
                "INSERT INTO dr_a VALUES (1, 'x'), (2, 'y')");
        DB.execute("CREATE TABLE dr_b (id INT PRIMARY KEY)", "INSERT INTO dr_b VALUES (10)");
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .databaseList(DB.name())
                        .tableList(DB.name() + "\\.dr_.*")
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.earliest())
                        .deserializer(new JsonDebeziumDeserializer())
                        .heartbeatInterval(Duration.ofSeconds(1))
                        .build();
        StreamExecutionEnvironment env = SourceJobs.env(500, null);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .map(
                        j -> {
                            OUT.add(j);
                            return 0;
                        })
                .returns(Integer.class)
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("drop-and-recreate");
        try {
            // after a row reached downstream: the old row would stay there. (Written only then:
            // a halt fails the job at once, and rows the reader has not yet handed to Flink when
            // it halts are never emitted, so a DROP written beside the row could overtake it.)
            SourceJobs.await(
                    "dr_b's row downstream",
                    Duration.ofMinutes(2),
                    () -> OUT.stream().anyMatch(j -> tableOf(j).equals("dr_b")));
            DB.execute(
                    "DROP TABLE dr_b",
                    "CREATE TABLE dr_b (id INT PRIMARY KEY)",
                    "INSERT INTO dr_b VALUES (20)");
            SourceJobs.await(
                    "the job ends",
                    Duration.ofMinutes(3),
                    () -> job.getJobStatus().join().isGloballyTerminalState());
            Optional<CapstanHaltException> halt =
                    job.getJobExecutionResult()
                            .handle(
                                    (r, e) ->
                                            ExceptionUtils.findThrowable(
                                                    e, CapstanHaltException.class))
                            .join();
            assertThat(halt).isPresent();
            assertThat(halt.get().reason()).isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
            assertThat(halt.get().getMessage()).contains("dr_b").doesNotContain("dr_a");

            List<String> rows = new ArrayList<>();
            for (String j : OUT) {
                rows.add(tableOf(j) + ":" + MAPPER.readTree(j).path("after"));
            }
            // dr_a's new incarnation, then dr_b's first row; nothing after dr_b's DROP
            assertThat(rows)
                    .containsExactly(
                            "dr_a:{\"id\":1,\"new_col\":\"x\"}",
                            "dr_a:{\"id\":2,\"new_col\":\"y\"}",
                            "dr_b:{\"id\":10}");
        } finally {
            job.cancel();
        }
    }
}

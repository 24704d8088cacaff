package io.capstan.flink.mysql.e2e.cluster;

import io.capstan.flink.mysql.e2e.jobs.SequenceToFilesJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real-cluster path end to end with trivial jobs: a standalone cluster of separate JVMs (one
 * JobManager, two TaskManagers of one slot each), a DataStream job jar submitted over REST that
 * survives a SIGKILLed TaskManager with exactly-once output, and a SQL INSERT through the SQL
 * Gateway's REST API.
 */
class StandaloneClusterIT {
    private static FlinkStandaloneCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster =
                FlinkStandaloneCluster.builder()
                        .name("StandaloneClusterIT")
                        .taskManagers(2)
                        .slotsPerTaskManager(1)
                        .checkpointInterval(Duration.ofSeconds(1))
                        .stateBackend(System.getProperty("capstan.e2e.state-backend", "hashmap"))
                        .start();
        System.out.printf("Cluster up in %d ms: %s%n", cluster.startupMillis(), cluster.restUrl());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void jobSurvivesTaskManagerSigkillWithExactlyOnceOutput() {
        long count = 4_000;
        Path output = cluster.workDir().resolve("sequence-out");
        String jobId =
                cluster.submitJar(
                        E2eBuild.jobsJar(),
                        SequenceToFilesJob.class.getName(),
                        List.of(
                                "--output",
                                output.toString(),
                                "--count",
                                Long.toString(count),
                                "--rate",
                                "200",
                                "--checkpoint-interval",
                                "500"),
                        2);
        cluster.waitForJobState(jobId, Duration.ofMinutes(2), "RUNNING");
        cluster.waitForCompletedCheckpoints(jobId, 2, Duration.ofMinutes(2));
        int committedBeforeKill = OutputFiles.committedLines(output).size();
        assertThat(committedBeforeKill)
                .as("committed before the kill")
                .isBetween(1, (int) count - 1);

        String victim = cluster.aTaskManagerRunning(jobId, Duration.ofMinutes(1));
        long victimPid =
                cluster.taskManagers().stream()
                        .filter(tm -> tm.name().equals(victim))
                        .findFirst()
                        .orElseThrow()
                        .pid();
        long killedAt = System.nanoTime();
        assertThat(cluster.killTaskManager(victim))
                .as("exit code of a SIGKILLed JVM")
                .isEqualTo(137);
        assertThat(ProcessHandle.of(victimPid)).isEmpty();
        cluster.startTaskManager();
        System.out.printf(
                "Killed %s (pid %d); replacement registered after %d ms%n",
                victim, victimPid, (System.nanoTime() - killedAt) / 1_000_000);

        assertThat(cluster.waitForJobState(jobId, Duration.ofMinutes(3), "FINISHED"))
                .isEqualTo("FINISHED");
        System.out.printf(
                "Job finished %d ms after the kill, %d restarts%n",
                (System.nanoTime() - killedAt) / 1_000_000, cluster.rest().restarts(jobId));
        assertThat(cluster.rest().restarts(jobId))
                .as("restarts after the kill")
                .isGreaterThanOrEqualTo(1);
        SequenceOutputCheck.assertExactlyOnce(OutputFiles.committedLines(output), count);
    }

    @Test
    void sqlInsertThroughTheGateway() {
        Path output = cluster.workDir().resolve("sql-out");
        long started = System.nanoTime();
        SqlGateway gateway = cluster.startSqlGateway(List.of());
        System.out.printf("SQL Gateway up in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        try (SqlGateway.Session session = gateway.openSession()) {
            session.execute(
                    "CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen',"
                            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '500')");
            session.execute(
                    "CREATE TABLE numbers_out (id BIGINT) WITH ('connector' = 'filesystem',"
                            + " 'path' = '"
                            + output.toUri()
                            + "', 'format' = 'csv')");
            String jobId =
                    session.execute("INSERT INTO numbers_out SELECT id FROM numbers")
                            .requireJobId();
            cluster.waitForJobState(jobId, Duration.ofMinutes(3), "FINISHED");
            System.out.printf(
                    "SQL INSERT job finished %d ms after the gateway start%n",
                    (System.nanoTime() - started) / 1_000_000);

            List<Long> ids =
                    OutputFiles.committedLines(output).stream()
                            .map(Long::parseLong)
                            .sorted()
                            .toList();
            List<Long> expected = new ArrayList<>();
            for (long id = 1; id <= 500; id++) {
                expected.add(id);
            }
            assertThat(ids).isEqualTo(expected);

            SqlGateway.SqlResult count = session.execute("SELECT COUNT(*) FROM numbers");
            assertThat(count.materialized()).containsExactly(List.of("500"));
        }
    }
}

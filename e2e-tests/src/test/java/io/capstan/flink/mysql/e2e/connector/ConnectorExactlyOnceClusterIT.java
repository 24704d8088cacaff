package io.capstan.flink.mysql.e2e.connector;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.cluster.OutputFiles;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once of the real connector on a real cluster: {@code CdcToFilesJob} (CapstanMySqlSource
 * into the exactly-once FileSink, checkpoints every 500 ms) submitted over REST to a standalone
 * cluster of separate JVMs (1 JobManager, 2 TaskManagers of one slot), four concurrent writers
 * running multi-row transactions (inserts, updates, key moves, deletes) against the real MySQL, a
 * TaskManager SIGKILLed and replaced while they write: once while streaming, once while the {@code
 * initial} mode's snapshot of 100,000 rows is read. After the load stops, the committed output must
 * catch up with the table and pass {@link ChangelogCheck} (no duplicate, no gap, final contents
 * equal).
 */
class ConnectorExactlyOnceClusterIT {
    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static FlinkStandaloneCluster cluster;
    private static CdcJobFixture fixture;

    @BeforeAll
    static void startCluster() {
        cluster =
                FlinkStandaloneCluster.builder()
                        .name("ConnectorExactlyOnceClusterIT")
                        .taskManagers(2)
                        .slotsPerTaskManager(1)
                        .stateBackend(System.getProperty("capstan.e2e.state-backend", "hashmap"))
                        .start();
        fixture = new CdcJobFixture(cluster, DB);
        System.out.printf("Cluster up in %d ms%n", cluster.startupMillis());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            CdcJobFixture.assertNoProcessesLeft(cluster);
        }
    }

    @Test
    void taskManagerKilledWhileStreaming() throws Exception {
        String table = "accounts_streaming";
        fixture.createTable(table);
        String start =
                "gtid:" + fixture.gtidExecuted(); // the empty table: every row arrives as an insert
        Path output = cluster.workDir().resolve("streaming-out");
        long begun = System.nanoTime();
        String jobId = fixture.submit("streaming", table, start, 5501, output);
        cluster.waitForJobState(jobId, Duration.ofMinutes(2), "RUNNING");
        cluster.waitForCompletedCheckpoints(jobId, 1, Duration.ofMinutes(2));

        try (VersionedLoad load = fixture.startLoad(table, 4, 1, 200_000, 5)) {
            awaitCommittedLines(output, 200, Duration.ofMinutes(1));
            int committedBeforeKill = OutputFiles.committedLines(output).size();
            long transactionsBeforeKill = load.committedTransactions();

            killOneTaskManagerAndRecover(
                    jobId,
                    "with "
                            + committedBeforeKill
                            + " lines committed after "
                            + transactionsBeforeKill
                            + " transactions");
            Thread.sleep(3_000); // writes continue on the recovered job
            load.close();
            System.out.printf(
                    "Load: %d transactions (%d retried after deadlocks)%n",
                    load.committedTransactions(), load.retriedTransactions());
            assertThat(load.committedTransactions()).isGreaterThan(transactionsBeforeKill);
        }

        verifyExactlyOnce(jobId, output, table, false, begun);
    }

    @Test
    void taskManagerKilledDuringSnapshot() throws Exception {
        String table = "accounts_snapshot";
        int rows = Integer.getInteger("capstan.e2e.snapshot-rows", 100_000);
        fixture.createTable(table);
        long filling = System.nanoTime();
        fixture.fill(table, rows);
        System.out.printf("Filled %d rows in %d ms%n", rows, millisSince(filling));
        Path output = cluster.workDir().resolve("snapshot-out");
        long begun = System.nanoTime();
        String jobId = fixture.submit("snapshot", table, "initial", 5502, output);

        try (VersionedLoad load = fixture.startLoad(table, 4, rows + 1, 200_000, 5)) {
            cluster.waitForJobState(jobId, Duration.ofMinutes(2), "RUNNING");
            long readsBeforeKill = awaitSnapshotReads(output, rows / 20, Duration.ofMinutes(2));
            assertThat(readsBeforeKill)
                    .as("snapshot rows committed before the kill")
                    .isLessThan(rows);
            killOneTaskManagerAndRecover(
                    jobId,
                    "with "
                            + readsBeforeKill
                            + " of "
                            + rows
                            + " snapshot rows committed ("
                            + millisSince(begun)
                            + " ms after the submission)");
            awaitSnapshotDoneAndStreaming(output, rows);
            load.close();
            System.out.printf(
                    "Load: %d transactions (%d retried after deadlocks)%n",
                    load.committedTransactions(), load.retriedTransactions());
        }

        ChangelogCheck.Result result = verifyExactlyOnce(jobId, output, table, true, begun);
        assertThat(result.snapshotReads())
                .as("rows that arrived as snapshot reads")
                .isGreaterThan(rows / 2);
    }

    /**
     * SIGKILLs a TaskManager of the job, starts a replacement, waits for restart and new
     * checkpoints.
     */
    private static void killOneTaskManagerAndRecover(String jobId, String when)
            throws InterruptedException {
        String victim = cluster.aTaskManagerRunning(jobId, Duration.ofMinutes(1));
        long killedAt = System.nanoTime();
        assertThat(cluster.killTaskManager(victim))
                .as("exit code of a SIGKILLed JVM")
                .isEqualTo(137);
        cluster.startTaskManager();
        awaitRestartedAndCheckpointing(jobId);
        System.out.printf(
                "Killed %s %s; running again with new checkpoints %d ms later%n",
                victim, when, millisSince(killedAt));
    }

    /** Cancels every job still running, so a failed test does not hold the next one's slots. */
    @AfterEach
    void cancelLeftoverJobs() {
        for (String id : cluster.rest().jobIds()) {
            String state = cluster.jobState(id);
            if (!state.equals("CANCELED") && !state.equals("FINISHED") && !state.equals("FAILED")) {
                cluster.cancelJob(id);
            }
        }
    }

    /**
     * Waits until the committed snapshot reads have stopped growing (the snapshot is done) and then
     * until 200 more binlog changes are committed, so the writes also run against the streaming
     * phase of the recovered job.
     */
    private static void awaitSnapshotDoneAndStreaming(Path output, int rows)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        long reads = -1;
        long stableSince = System.nanoTime();
        long streamedAtEnd = -1;
        while (System.nanoTime() < deadline) {
            List<String> lines = OutputFiles.committedLines(output);
            long nowReads = lines.stream().filter(l -> l.startsWith("r,")).count();
            long streamed = lines.size() - nowReads;
            if (nowReads != reads) {
                reads = nowReads;
                stableSince = System.nanoTime();
            } else if (streamedAtEnd < 0 && reads > rows / 2 && millisSince(stableSince) > 2_000) {
                streamedAtEnd = streamed;
                System.out.printf(
                        "Snapshot done: %d snapshot rows, %d binlog changes committed%n",
                        reads, streamed);
            }
            if (streamedAtEnd >= 0 && streamed >= streamedAtEnd + 200) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(
                "The snapshot did not end or no binlog changes followed it ("
                        + reads
                        + " snapshot rows, done: "
                        + (streamedAtEnd >= 0)
                        + ")\n"
                        + cluster.diagnostics());
    }

    private static long awaitSnapshotReads(Path output, long reads, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long committed =
                    OutputFiles.committedLines(output).stream()
                            .filter(l -> l.startsWith("r,"))
                            .count();
            if (committed >= reads) {
                return committed;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "Fewer than "
                                + reads
                                + " snapshot rows committed in "
                                + timeout
                                + "\n"
                                + cluster.diagnostics());
            }
            Thread.sleep(100);
        }
    }

    private static ChangelogCheck.Result verifyExactlyOnce(
            String jobId, Path output, String table, boolean withSnapshot, long begun)
            throws InterruptedException {
        List<ChangelogCheck.Row> finalTable = fixture.finalRows(table);
        long waitFrom = System.nanoTime();
        ChangelogCheck.Result caughtUp =
                fixture.awaitCaughtUp(output, finalTable, withSnapshot, Duration.ofSeconds(90));
        System.out.printf(
                "Output caught up with the table %d ms after the load stopped: %s%n",
                millisSince(waitFrom), caughtUp);
        assertThat(cluster.rest().restarts(jobId))
                .as("restarts after the kill")
                .isGreaterThanOrEqualTo(1);
        cluster.cancelJob(jobId);
        cluster.waitForJobState(jobId, Duration.ofMinutes(1), "CANCELED");
        // After the job is gone nothing more can be committed: check the final output once more.
        ChangelogCheck.Result result =
                ChangelogCheck.check(OutputFiles.committedLines(output), finalTable, withSnapshot);
        System.out.printf("Final check (%d ms in all): %s%n", millisSince(begun), result);
        assertThat(result.problems()).as(result.toString()).isEmpty();
        assertThat(result.changes()).isGreaterThan(1_000);
        CdcJobFixture.assertPasswordNotInLogs(cluster, DB.connectorAccount().password());
        return result;
    }

    private static void awaitRestartedAndCheckpointing(String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (cluster.rest().restarts(jobId) < 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "The job did not restart after the kill\n" + cluster.diagnostics());
            }
            Thread.sleep(250);
        }
        cluster.waitForJobState(jobId, Duration.ofMinutes(2), "RUNNING");
        long checkpoints = cluster.rest().completedCheckpoints(jobId);
        cluster.waitForCompletedCheckpoints(jobId, checkpoints + 2, Duration.ofMinutes(2));
    }

    private static void awaitCommittedLines(Path output, int lines, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (OutputFiles.committedLines(output).size() < lines) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "Fewer than "
                                + lines
                                + " lines committed in "
                                + timeout
                                + "\n"
                                + cluster.diagnostics());
            }
            Thread.sleep(250);
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}

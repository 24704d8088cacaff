package io.capstan.flink.mysql.e2e.connector;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.cluster.OutputFiles;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adding a table on restore ({@code scan.newly-added-table.enabled}) on a real cluster of separate
 * JVMs: {@code CdcToFilesJob} captures two tables (scan mode {@code initial}) while writers change
 * all three; it stops with a savepoint and is restored with the third table added; a TaskManager is
 * SIGKILLed (and replaced) while the third table's snapshot of 100,000 rows is being read. After
 * the writers stop, the committed output of both runs must catch up and pass {@link ChangelogCheck}
 * for each table: the added one complete and exact, the two others without gap or duplicate across
 * the savepoint, the pause, the kill and the resume.
 */
class AddTableOnClusterIT {
    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final String ORDERS = "grow_orders";
    private static final String CUSTOMERS = "grow_customers";
    private static final String PAYMENTS = "grow_payments";
    private static final List<String> TABLES = List.of(ORDERS, CUSTOMERS, PAYMENTS);
    private static final int CAPTURED_ROWS = 2_000;
    private static final int ADDED_ROWS = 100_000;

    private static FlinkStandaloneCluster cluster;
    private static CdcJobFixture fixture;

    @BeforeAll
    static void startCluster() {
        cluster =
                FlinkStandaloneCluster.builder()
                        .name("AddTableOnClusterIT")
                        .taskManagers(2)
                        .slotsPerTaskManager(1)
                        .start();
        fixture = new CdcJobFixture(cluster, DB);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            CdcJobFixture.assertNoProcessesLeft(cluster);
        }
    }

    @Test
    void tableAddedOnRestoreWithTaskManagerKilledDuringItsSnapshot() throws Exception {
        for (String table : TABLES) {
            fixture.createTable(table);
            fixture.fill(table, table.equals(PAYMENTS) ? ADDED_ROWS : CAPTURED_ROWS);
        }
        Path output = cluster.workDir().resolve("add-table-out");
        long begun = System.nanoTime();
        List<VersionedLoad> loads = new ArrayList<>();
        String second;
        try {
            for (String table : TABLES) {
                long firstId = (table.equals(PAYMENTS) ? ADDED_ROWS : CAPTURED_ROWS) + 1;
                loads.add(fixture.startLoad(table, 2, firstId, 200_000, 10));
            }
            String first =
                    fixture.submit("two-tables", ORDERS + "," + CUSTOMERS, "initial", 5601, output);
            cluster.waitForJobState(first, Duration.ofMinutes(2), "RUNNING");
            // Binlog changes, not lines: the load also grows the snapshot, and a savepoint taken
            // before the handoff cannot be restored with another table list (table_list_changed).
            awaitChanges(output, ORDERS, 200, Duration.ofMinutes(1));
            awaitChanges(output, CUSTOMERS, 200, Duration.ofMinutes(1));
            String savepoint = cluster.stopWithSavepoint(first, Duration.ofMinutes(1));
            System.out.printf(
                    "Stopped with a savepoint %d ms after the start%n", millisSince(begun));

            long submitted = System.nanoTime();
            second =
                    fixture.submit(
                            "three-tables",
                            String.join(",", TABLES),
                            "initial",
                            5601,
                            output,
                            List.of("--scan-newly-added-table", "true", "--chunk-size", "2000"),
                            savepoint);
            cluster.waitForJobState(second, Duration.ofMinutes(2), "RUNNING");
            long readsBeforeKill = awaitReads(output, PAYMENTS, ADDED_ROWS / 20);
            assertThat(readsBeforeKill)
                    .as("snapshot rows of the added table committed before the kill")
                    .isLessThan(ADDED_ROWS);
            killOneTaskManagerAndRecover(
                    second,
                    "with "
                            + readsBeforeKill
                            + " of "
                            + ADDED_ROWS
                            + " snapshot rows of the added table committed ("
                            + millisSince(submitted)
                            + " ms after the restore's submission)");
            awaitReadsSettledAndStreaming(output);
        } finally {
            for (VersionedLoad load : loads) {
                load.close();
                System.out.printf(
                        "Load: %d transactions (%d retried)%n",
                        load.committedTransactions(), load.retriedTransactions());
            }
        }
        verifyExactlyOnce(second, output, begun);
    }

    private static void killOneTaskManagerAndRecover(String jobId, String when)
            throws InterruptedException {
        String victim = cluster.aTaskManagerRunning(jobId, Duration.ofMinutes(1));
        long killedAt = System.nanoTime();
        assertThat(cluster.killTaskManager(victim))
                .as("exit code of a SIGKILLed JVM")
                .isEqualTo(137);
        cluster.startTaskManager();
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
        System.out.printf(
                "Killed %s %s; running again with new checkpoints %d ms later%n",
                victim, when, millisSince(killedAt));
    }

    /**
     * Waits until the added table's snapshot reads stop growing (its snapshot is done) and then
     * until each of the three tables has 100 more committed binlog changes: the binlog split has
     * resumed with the added table.
     */
    private static void awaitReadsSettledAndStreaming(Path output) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        long reads = -1;
        long stableSince = System.nanoTime();
        long[] changesAtEnd = null;
        while (System.nanoTime() < deadline) {
            List<String> lines = OutputFiles.committedLines(output);
            long nowReads = count(CdcJobFixture.linesOf(lines, PAYMENTS), true);
            long[] changes = new long[TABLES.size()];
            for (int i = 0; i < TABLES.size(); i++) {
                changes[i] = count(CdcJobFixture.linesOf(lines, TABLES.get(i)), false);
            }
            if (nowReads != reads) {
                reads = nowReads;
                stableSince = System.nanoTime();
            } else if (changesAtEnd == null
                    && reads > ADDED_ROWS / 2
                    && millisSince(stableSince) > 2_000) {
                changesAtEnd = changes;
                System.out.printf("Added table's snapshot done: %d snapshot rows%n", reads);
            }
            if (changesAtEnd != null) {
                boolean streamingAll = true;
                for (int i = 0; i < changes.length; i++) {
                    streamingAll &= changes[i] >= changesAtEnd[i] + 100;
                }
                if (streamingAll) {
                    return;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError(
                "The added table's snapshot did not end or the tables did not stream after it ("
                        + reads
                        + " snapshot rows)\n"
                        + cluster.diagnostics());
    }

    private static void verifyExactlyOnce(String jobId, Path output, long begun)
            throws InterruptedException {
        List<List<ChangelogCheck.Row>> finalTables = new ArrayList<>();
        for (String table : TABLES) {
            finalTables.add(fixture.finalRows(table));
        }
        long waitFrom = System.nanoTime();
        for (int i = 0; i < TABLES.size(); i++) {
            ChangelogCheck.Result caughtUp =
                    fixture.awaitCaughtUp(
                            output,
                            TABLES.get(i),
                            finalTables.get(i),
                            true,
                            Duration.ofSeconds(60));
            System.out.printf(
                    "%s caught up %d ms after the load stopped: %s%n",
                    TABLES.get(i), millisSince(waitFrom), caughtUp);
        }
        assertThat(cluster.rest().restarts(jobId)).as("restarts after the kill").isGreaterThan(0);
        cluster.cancelJob(jobId);
        cluster.waitForJobState(jobId, Duration.ofMinutes(1), "CANCELED");
        // Nothing more can be committed now: the final check over both runs' output.
        List<String> lines = OutputFiles.committedLines(output);
        for (int i = 0; i < TABLES.size(); i++) {
            ChangelogCheck.Result result =
                    ChangelogCheck.check(
                            CdcJobFixture.linesOf(lines, TABLES.get(i)), finalTables.get(i), true);
            System.out.printf(
                    "Final check of %s (%d ms in all): %s%n",
                    TABLES.get(i), millisSince(begun), result);
            assertThat(result.problems()).as(TABLES.get(i) + ": " + result).isEmpty();
            assertThat(result.changes()).as(TABLES.get(i)).isGreaterThan(CAPTURED_ROWS + 200);
        }
        CdcJobFixture.assertPasswordNotInLogs(cluster, DB.connectorAccount().password());
    }

    private static long awaitReads(Path output, String table, long reads)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            long committed =
                    count(CdcJobFixture.linesOf(OutputFiles.committedLines(output), table), true);
            if (committed >= reads) {
                return committed;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "Fewer than "
                                + reads
                                + " snapshot rows of "
                                + table
                                + " committed\n"
                                + cluster.diagnostics());
            }
            Thread.sleep(100);
        }
    }

    private static void awaitChanges(Path output, String table, int changes, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count(CdcJobFixture.linesOf(OutputFiles.committedLines(output), table), false)
                < changes) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "Fewer than "
                                + changes
                                + " binlog changes of "
                                + table
                                + " committed in "
                                + timeout
                                + "\n"
                                + cluster.diagnostics());
            }
            Thread.sleep(250);
        }
    }

    /** The snapshot reads ({@code reads}) or the binlog changes among one table's lines. */
    private static long count(List<String> lines, boolean reads) {
        return lines.stream().filter(l -> l.startsWith("r,") == reads).count();
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}

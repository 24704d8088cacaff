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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handoff fits through Flink's RPC (docs/adr/0007): the binlog split carries the cursor gate
 * from the JobManager to a TaskManager in one message, limited by {@code pekko.framesize}. Here the
 * frame is 128 KiB and the snapshot has about 3,000 chunks of 10 rows, read while two writers
 * commit throughout (every chunk gets its own G), on a server whose {@code gtid_executed} holds a
 * second source UUID with a gap. In the old encoding (each distinct G as text, ~100 bytes a chunk)
 * the gate was ~200-300 KB: the assignment failed, the job failed over, the split came back and was
 * sent again, forever. Now the job must hand off without a restart and end exactly once.
 */
class GateOverSmallFrameClusterIT {
    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final String OTHER_SOURCE = "b8c5a1e2-0c2d-11ef-8d41-0242ac120002";
    private static final int ROWS = Integer.getInteger("capstan.e2e.gate-rows", 30_000);
    private static final int CHUNK_SIZE = 10;

    private static FlinkStandaloneCluster cluster;
    private static CdcJobFixture fixture;

    @BeforeAll
    static void startCluster() {
        cluster =
                FlinkStandaloneCluster.builder()
                        .name("GateOverSmallFrameClusterIT")
                        .taskManagers(1)
                        .slotsPerTaskManager(2)
                        .config("pekko.framesize", "131072b")
                        // deployment descriptors above this go through the blob server
                        .config("blob.offload.minsize", "32768")
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
    void aGateOfThousandsOfDistinctGPassesASmallFrame() throws Exception {
        String table = "accounts_gate";
        fixture.createTable(table);
        fixture.fill(table, ROWS);
        // a second source UUID (with a gap) in gtid_executed: every G names two sources
        for (int n : new int[] {1, 2, 3, 5, 8}) {
            DB.execute(
                    "SET gtid_next = '" + OTHER_SOURCE + ":" + n + "'",
                    "BEGIN",
                    "COMMIT",
                    "SET gtid_next = 'AUTOMATIC'");
        }
        assertThat(fixture.gtidExecuted()).contains(OTHER_SOURCE);
        Path output = cluster.workDir().resolve("gate-out");
        long begun = System.nanoTime();
        String jobId =
                fixture.submit(
                        "gate",
                        table,
                        "initial",
                        5601,
                        output,
                        List.of("--chunk-size", Integer.toString(CHUNK_SIZE)));

        // two writers, 100 ms apart: about as many transactions as chunks read (most chunks get a
        // G of their own), and new rows slower than the snapshot reads, which must catch up
        try (VersionedLoad load = fixture.startLoad(table, 2, ROWS + 1, 200_000, 100)) {
            cluster.waitForJobState(jobId, Duration.ofMinutes(2), "RUNNING");
            awaitSnapshotDoneAndStreaming(jobId, output);
            load.close();
            System.out.printf(
                    "Load: %d transactions during the snapshot and after%n",
                    load.committedTransactions());
        }

        List<ChangelogCheck.Row> finalTable = fixture.finalRows(table);
        ChangelogCheck.Result caughtUp =
                fixture.awaitCaughtUp(output, finalTable, true, Duration.ofSeconds(90));
        System.out.println("Caught up: " + caughtUp);
        assertThat(cluster.rest().restarts(jobId))
                .as("restarts (an assignment over the frame size fails the job over)")
                .isZero();
        cluster.cancelJob(jobId);
        cluster.waitForJobState(jobId, Duration.ofMinutes(1), "CANCELED");
        ChangelogCheck.Result result =
                ChangelogCheck.check(OutputFiles.committedLines(output), finalTable, true);
        System.out.printf(
                "Final check (%d ms in all): %s%n",
                (System.nanoTime() - begun) / 1_000_000, result);
        assertThat(result.problems()).as(result.toString()).isEmpty();
        assertThat(result.snapshotReads()).isGreaterThan(ROWS / 2);
        assertThat(result.changes()).isGreaterThan(1_000);
    }

    /**
     * Waits until the snapshot reads stop growing and 200 binlog changes follow them; fails early
     * when the job restarts (what an assignment over the frame size causes).
     */
    private static void awaitSnapshotDoneAndStreaming(String jobId, Path output)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(8).toNanos();
        long reads = -1;
        long stableSince = System.nanoTime();
        long streamedAtEnd = -1;
        while (System.nanoTime() < deadline) {
            long restarts = cluster.rest().restarts(jobId);
            if (restarts > 0) {
                throw new AssertionError(
                        "The job restarted "
                                + restarts
                                + " time(s) before streaming\n"
                                + cluster.rest().exceptions(jobId)
                                + "\n"
                                + cluster.diagnostics());
            }
            List<String> lines = OutputFiles.committedLines(output);
            long nowReads = lines.stream().filter(l -> l.startsWith("r,")).count();
            long streamed = lines.size() - nowReads;
            if (nowReads != reads) {
                reads = nowReads;
                stableSince = System.nanoTime();
            } else if (streamedAtEnd < 0
                    && reads > ROWS / 2
                    && (System.nanoTime() - stableSince) > 2_000_000_000L) {
                streamedAtEnd = streamed;
                System.out.printf(
                        "Snapshot done: %d snapshot rows, %d binlog changes committed%n",
                        reads, streamed);
            }
            if (streamedAtEnd >= 0 && streamed >= streamedAtEnd + 200) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError(
                "The snapshot did not end or no binlog changes followed it ("
                        + reads
                        + " snapshot rows)\n"
                        + cluster.diagnostics());
    }
}

package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The streaming start positions against the real server (each table is new, so its expected changes
 * are known), and a source of parallelism 2 where the reader without a split is told so and
 * checkpoints keep completing.
 */
class StartPositionsAndParallelismIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    @TempDir Path sinkDir;

    @BeforeEach
    void noFailures() {
        FailAtCounts.arm(List.of());
    }

    private List<String> runUntil(
            StartupOptions start, int sourceParallelism, int expectedCount, Runnable whileRunning)
            throws Exception {
        return runUntil(start, sourceParallelism, expectedCount, line -> true, whileRunning);
    }

    /** Runs until {@code expectedCount} committed lines match {@code counted}. */
    private List<String> runUntil(
            StartupOptions start,
            int sourceParallelism,
            int expectedCount,
            Predicate<String> counted,
            Runnable whileRunning)
            throws Exception {
        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(
                env,
                SourceJobs.source(DB, start, new ChangeLineDeserializer()),
                sinkDir,
                sourceParallelism);
        JobClient job = env.executeAsync("start-positions");
        try {
            whileRunning.run();
            SourceJobs.await(
                    "changes committed",
                    Duration.ofMinutes(2),
                    () -> committedMatching(counted) >= expectedCount);
            Thread.sleep(1_000);
        } finally {
            job.cancel().get();
        }
        return SourceJobs.committed(sinkDir);
    }

    private long committedMatching(Predicate<String> counted) {
        try {
            return SourceJobs.committed(sinkDir).stream().filter(counted).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void unchecked(ThrowingRunnable r) {
        try {
            r.run();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void earliestStreamsEverythingTheServerStillHolds() throws Exception {
        DB.execute(Workload.createTable("e1"));
        Workload w = new Workload(DB, "p");
        w.insert("e1", 1, 300, 100);
        w.bumpVersion("e1", 1, 50, 50);
        List<String> out =
                new ArrayList<>(
                        runUntil(
                                StartupOptions.earliest(),
                                1,
                                w.expected().size(),
                                line -> line.startsWith("e1|"),
                                () -> {}));
        // Earliest also replays the other tables this class's database ever held; judge e1 only.
        out.removeIf(l -> !l.startsWith("e1|"));
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), out);
    }

    @Test
    void latestStreamsOnlyWhatCommitsAfterTheStart() throws Exception {
        DB.execute(Workload.createTable("l1"));
        Workload before = new Workload(DB, "p");
        before.insert("l1", 1, 100, 100);
        Workload after = new Workload(DB, "p");
        List<String> out =
                runUntil(
                        StartupOptions.latest(),
                        1,
                        200,
                        () ->
                                unchecked(
                                        () -> {
                                            // The split is planned asynchronously: wait until the
                                            // job streams (a first
                                            // committed record) before the writes whose presence is
                                            // asserted.
                                            Workload probe = new Workload(DB, "p");
                                            SourceJobs.await(
                                                    "the stream to run",
                                                    Duration.ofMinutes(1),
                                                    () -> {
                                                        unchecked(
                                                                () ->
                                                                        probe.insert(
                                                                                "l1",
                                                                                10_000 + probeSeq++,
                                                                                10_000 + probeSeq
                                                                                        - 1,
                                                                                1));
                                                        return SourceJobs.committedCount(sinkDir)
                                                                > 0;
                                                    });
                                            after.insert("l1", 101, 300, 50);
                                        }));
        List<String> fromAfter = new ArrayList<>(out);
        fromAfter.removeIf(l -> Long.parseLong(l.split("\\|")[2]) >= 10_000); // the probes
        ExactlyOnceCheck.assertExactlyOnce(after.expected(), fromAfter);
    }

    private long probeSeq;

    @Test
    void timestampStreamsTransactionsCommittedFromThatTime() throws Exception {
        DB.execute(Workload.createTable("ts1"));
        Workload old = new Workload(DB, "p");
        old.insert("ts1", 1, 100, 100);
        Thread.sleep(1_100); // binlog commit times have second precision in event headers
        long from = System.currentTimeMillis();
        Thread.sleep(1_100);
        Workload recent = new Workload(DB, "p");
        recent.insert("ts1", 101, 250, 50);
        List<String> out =
                runUntil(StartupOptions.timestamp(from), 1, recent.expected().size(), () -> {});
        ExactlyOnceCheck.assertExactlyOnce(recent.expected(), out);
    }

    @Test
    void withTwoReadersOneStreamsAndCheckpointsStillComplete() throws Exception {
        DB.execute(Workload.createTable("p2"));
        StartupOptions start = SourceJobs.fromBinlogEnd(DB);
        Workload w = new Workload(DB, "p");
        // Output is only committed on completed checkpoints: it arriving proves they complete
        // with the idle reader finished.
        List<String> out =
                runUntil(
                        start,
                        2,
                        1_500,
                        () ->
                                unchecked(
                                        () -> {
                                            w.insert("p2", 1, 1_000, 100);
                                            w.delete("p2", 501, 1_000, 100);
                                        }));
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), out);
    }
}

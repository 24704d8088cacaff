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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 100,000 row changes over 3 tables (one transaction of 50,000 rows, key-changing updates,
 * deletes), streamed from the GTID set read before the writes, with checkpoints every 200 ms while
 * the job is failed on purpose at 5 random places in the stream (2 inside the big transaction, 3
 * among the later small ones; see {@link FailAtCounts}). The output goes through {@link
 * io.capstan.flink.mysql.source.it.TwoPhaseFileSink}, whose committed files hold exactly what
 * completed checkpoints cover; the check then names any duplicate, gap or reordering of a row's
 * changes, not just counts.
 */
class BinlogExactlyOnceIT {
    private static final Logger LOG = LoggerFactory.getLogger(BinlogExactlyOnceIT.class);

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    @Test
    void everyChangeExactlyOnceAcrossFiveInjectedFailures() throws Exception {
        DB.execute(
                Workload.createTable("t0"), Workload.createTable("t1"), Workload.createTable("t2"));
        StartupOptions start = SourceJobs.fromBinlogEnd(DB);

        long seed = System.nanoTime();
        Random random = new Random(seed);
        TreeSet<Long> points = new TreeSet<>();
        while (points.size() < 2) {
            points.add(2_000L + random.nextInt(46_000)); // inside the 50,000-row transaction
        }
        while (points.size() < 5) {
            points.add(52_000L + random.nextInt(46_000)); // among the small transactions after it
        }
        LOG.info("Failure points {} (seed {})", points, seed);
        FailAtCounts.arm(points);

        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(
                env, SourceJobs.source(DB, start, new ChangeLineDeserializer()), sinkDir);
        JobClient job = env.executeAsync("binlog-exactly-once");

        Workload w = new Workload(DB, "p");
        CompletableFuture<Void> writes =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                w.insert("t0", 1, 50_000, 50_000); // ONE transaction of 50,000 rows
                                w.insert("t1", 1, 10_000, 100);
                                w.insert("t2", 1, 10_000, 100);
                                w.bumpVersion("t0", 1, 10_000, 500);
                                w.moveKeys("t1", 1, 5_000, 250); // UPDATE ... SET id = id + 1000000
                                w.bumpVersion("t2", 1, 1_000, 1); // single-row transactions
                                w.bumpVersion("t2", 1_001, 5_000, 400);
                                w.delete("t0", 40_001, 50_000, 1_000);
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        });
        writes.get();
        List<String> expected = w.expected();
        assertThat(expected).hasSize(100_000);

        SourceJobs.await(
                "all changes committed",
                Duration.ofMinutes(4),
                () -> SourceJobs.committedCount(sinkDir) >= expected.size());
        Thread.sleep(1_500); // several more checkpoints: anything extra (a duplicate) would show
        job.cancel().get();

        assertThat(FailAtCounts.fired()).as("injected failures").isEqualTo(5);
        ExactlyOnceCheck.assertExactlyOnce(expected, SourceJobs.committed(sinkDir));
    }
}

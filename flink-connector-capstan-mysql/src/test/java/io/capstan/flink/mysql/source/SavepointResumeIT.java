package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stop-with-savepoint while writes continue, more writes while the job is down, resume from the
 * savepoint: every change exactly once across both runs (same two-phase sink directory).
 */
class SavepointResumeIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;
    @TempDir Path savepoints;

    @Test
    void resumesFromASavepointWithoutGapOrDuplicate() throws Exception {
        DB.execute(Workload.createTable("a"), Workload.createTable("b"));
        StartupOptions start = SourceJobs.fromBinlogEnd(DB);
        FailAtCounts.arm(List.of());
        Workload w = new Workload(DB, "p");

        StreamExecutionEnvironment env = SourceJobs.env(500, null);
        SourceJobs.pipeline(
                env, SourceJobs.source(DB, start, new ChangeLineDeserializer()), sinkDir);
        JobClient first = env.executeAsync("savepoint-first-run");

        w.insert("a", 1, 3_000, 3_000); // one transaction, likely cut by the savepoint
        w.insert("b", 1, 2_000, 10);
        SourceJobs.await(
                "some output", Duration.ofMinutes(2), () -> SourceJobs.committedCount(sinkDir) > 0);
        String savepoint =
                first.stopWithSavepoint(
                                false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get();
        int afterFirst = SourceJobs.committedCount(sinkDir);

        // Writes while no job runs.
        w.bumpVersion("a", 1, 1_000, 100);
        w.moveKeys("b", 1, 500, 50);
        w.delete("a", 2_001, 3_000, 250);

        StreamExecutionEnvironment env2 = SourceJobs.env(500, savepoint);
        // The start option is ignored on restore; a different one proves it.
        SourceJobs.pipeline(
                env2,
                SourceJobs.source(DB, StartupOptions.latest(), new ChangeLineDeserializer()),
                sinkDir);
        JobClient second = env2.executeAsync("savepoint-second-run");
        w.insert("b", 2_001, 2_500, 50); // and writes after the resume

        List<String> expected = w.expected();
        SourceJobs.await(
                "all changes committed",
                Duration.ofMinutes(2),
                () -> SourceJobs.committedCount(sinkDir) >= expected.size());
        Thread.sleep(1_500);
        second.cancel().get();

        assertThat(afterFirst).isLessThan(expected.size());
        ExactlyOnceCheck.assertExactlyOnce(expected, SourceJobs.committed(sinkDir));
    }
}

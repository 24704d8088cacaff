package io.capstan.flink.mysql.source.xa;

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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * XA transactions streamed exactly once (docs/adr/0008), by a job failed on purpose twice: once
 * while two XA transactions are prepared and pending, restoring from a checkpoint completed while
 * they were pending, and once while the rows of an XA COMMIT are being delivered. Between them: a
 * rollback (delivers nothing), a one-phase commit, and an XA transaction prepared and committed
 * around ordinary ones. Without XA support the stream halts at the first XA PREPARE.
 */
class XaExactlyOnceIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    @Test
    void preparedCommittedRolledBackAndOnePhaseXaExactlyOnceAcrossFailures() throws Exception {
        DB.execute(Workload.createTable("x0"), Workload.createTable("x1"));
        StartupOptions start = SourceJobs.fromBinlogEnd(DB);
        // Distinct records: 1..200 and 201..400 ordinary (fails at 300, A and R pending), 401..450
        // one-phase, 451..500 ordinary, 501..600 B's commit, 601..1100 A's commit (fails at 800).
        FailAtCounts.arm(List.of(300L, 800L));

        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(
                env, SourceJobs.source(DB, start, new ChangeLineDeserializer()), sinkDir);
        JobClient job = env.executeAsync("xa-exactly-once");

        Workload w = new Workload(DB, "p");
        XaWrites xa = new XaWrites(DB);
        List<String> xaLines = new ArrayList<>();
        xa.prepare("A", "x0", 1, 500);
        xa.prepare("R", "x0", 1_001, 1_100);
        w.insert("x1", 1, 200, 10);
        await(sinkDir, 200); // a checkpoint completed while A and R are prepared
        w.insert("x1", 201, 400, 10);
        await(sinkDir, 400); // the failure at 300 restored from a checkpoint with A, R pending
        xa.rollback("R");
        xa.onePhase("D", "x0", 2_001, 2_050);
        XaWrites.expectInserts(xaLines, "x0", 2_001, 2_050);
        xa.prepare("B", "x0", 3_001, 3_100);
        w.insert("x1", 401, 450, 10);
        xa.commit("B");
        XaWrites.expectInserts(xaLines, "x0", 3_001, 3_100);
        xa.commit("A"); // its delivery fails at record 800
        XaWrites.expectInserts(xaLines, "x0", 1, 500);

        List<String> expected = new ArrayList<>(w.expected());
        expected.addAll(xaLines);
        assertThat(expected).hasSize(1_100);
        await(sinkDir, expected.size());
        Thread.sleep(1_500); // more checkpoints: a duplicate would show
        job.cancel().get();

        assertThat(FailAtCounts.fired()).as("injected failures").isEqualTo(2);
        List<String> committed = SourceJobs.committed(sinkDir);
        ExactlyOnceCheck.assertExactlyOnce(expected, committed);
        // Delivered in the order of the commits: B's rows before A's, though A was prepared first.
        assertThat(committed.indexOf("x0|c|3001|1")).isLessThan(committed.indexOf("x0|c|1|1"));
    }

    private static void await(Path sinkDir, int lines) throws InterruptedException {
        SourceJobs.await(
                lines + " committed lines",
                Duration.ofMinutes(2),
                () -> SourceJobs.committedCount(sinkDir) >= lines);
    }
}

package io.capstan.flink.mysql.source.xa;

import io.capstan.flink.mysql.CapstanMySqlSource;
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
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * XA transactions across a snapshot (docs/adr/0008). X is prepared on table xb before the job
 * starts and committed while the snapshot runs: the chunks of xa are read while X is prepared
 * (their G holds X's prepared part, not its commit), the chunks of xb wait for X's metadata lock,
 * so the binlog split starts at an intersection of G that holds X's prepared part but not its
 * commit, and the snapshot of xb holds X's rows. They must appear once: neither dropped nor
 * streamed again at the commit. Y is prepared on xa while the snapshot runs and committed after:
 * its rows come from the binlog, once. ChangeLineDeserializer writes a snapshot read and an insert
 * alike, so a doubled row shows as a duplicate line.
 */
class XaSnapshotHandoffIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    @Test
    void anXaTransactionPreparedBeforeAChunksGAndCommittedAfterItAppearsOnce() throws Exception {
        DB.execute(Workload.createTable("xa"), Workload.createTable("xb"));
        Workload w = new Workload(DB, "p");
        w.insert("xa", 1, 2_000, 500);
        w.insert("xb", 1, 2_000, 500);
        XaWrites xa = new XaWrites(DB);
        List<String> expected = new ArrayList<>(w.expected());
        xa.prepare("X", "xb", 5_001, 5_100);
        XaWrites.expectInserts(expected, "xb", 5_001, 5_100);
        FailAtCounts.arm(List.of());

        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .databaseList(DB.name())
                        .serverId(ThreadLocalRandom.current().nextLong(300_000, 400_000))
                        .startupOptions(StartupOptions.initial())
                        .deserializer(new ChangeLineDeserializer())
                        .heartbeatInterval(Duration.ofSeconds(1))
                        .chunkSize(500)
                        .build();
        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(env, source, sinkDir);
        JobClient job = env.executeAsync("xa-snapshot-handoff");

        // xa's chunks (2,000 rows) are read while X is prepared; xb's wait for X's lock. (Were
        // xb read first, it would wait for X's commit: then no G holds X's prepared part alone.)
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (SourceJobs.committedCount(sinkDir) < 2_000 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        xa.prepare("Y", "xa", 6_001, 6_050);
        XaWrites.expectInserts(expected, "xa", 6_001, 6_050);
        xa.commit("X");
        SourceJobs.await(
                "xb's snapshot",
                Duration.ofMinutes(1),
                () -> SourceJobs.committedCount(sinkDir) >= 4_100);
        xa.commit("Y");
        w.insert("xb", 7_001, 7_010, 5);
        expected.addAll(w.expected().subList(4_000, w.expected().size()));

        assertThat(expected).hasSize(4_160);
        SourceJobs.await(
                "all changes",
                Duration.ofMinutes(1),
                () -> SourceJobs.committedCount(sinkDir) >= expected.size());
        Thread.sleep(1_500); // more checkpoints: a duplicate would show
        job.cancel().get();

        ExactlyOnceCheck.assertExactlyOnce(expected, SourceJobs.committed(sinkDir));
    }
}

package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.source.reader.CapstanReaderMetrics;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stop-with-savepoint in the middle of the snapshot (parallelism 2, writers bumping versions all
 * along), resume from the savepoint: the {@code snapshotChunksRead} counters of the two runs add up
 * to the table's chunks plus at most the chunks in flight at the savepoint (finished chunks are not
 * read again), and the output of both runs applied by key is exactly the table.
 */
class SnapshotSavepointResumeIT {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotSavepointResumeIT.class);

    private static final int ROWS = 60_000;
    private static final int CHUNK = 1_000;

    /** Dense ids 1..60,000 split arithmetically into ranges of 1,000 keys: exactly 60 chunks. */
    private static final int CHUNKS = ROWS / CHUNK;

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension
    static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2, REPORTER);

    @TempDir Path sinkDir;
    @TempDir Path savepoints;

    @Test
    void finishedChunksAreNotReadAgainAfterASavepointTakenMidSnapshot() throws Exception {
        DB.execute(VersionedWriters.createTable("vt"));
        VersionedWriters.fill(DB, "vt", ROWS, 1);
        FailInPhases.arm(List.of(), List.of(), 4); // slow: the savepoint lands mid-snapshot
        VersionedWriters writers = new VersionedWriters(DB, "vt", 2, ROWS, 5).updatesOnly(1);
        writers.start(System.nanoTime());

        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(DB, StartupOptions.initial()).chunkSize(CHUNK).build(),
                sinkDir,
                2);
        JobClient first = env.executeAsync("savepoint-mid-snapshot-first");
        SourceJobs.await(
                "a third of the snapshot",
                Duration.ofMinutes(2),
                () -> FailInPhases.distinctReads() > ROWS / 3);
        String savepoint =
                first.stopWithSavepoint(
                                false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get();
        long readFirst = chunksRead(first.getJobID());
        long readsBeforeSavepoint = FailInPhases.distinctReads();

        StreamExecutionEnvironment env2 = SourceJobs.env(300, savepoint);
        SnapshotJobs.pipeline(
                env2,
                SnapshotJobs.source(DB, StartupOptions.initial()).chunkSize(CHUNK).build(),
                sinkDir,
                2);
        JobClient second = env2.executeAsync("savepoint-mid-snapshot-second");
        try {
            SourceJobs.await(
                    "the stream after the snapshot",
                    Duration.ofMinutes(2),
                    () -> FailInPhases.distinctChanges() > 300);
            writers.stop();
            Map<Long, long[]> table = VersionedWriters.read(DB, "vt");
            SourceJobs.await(
                    "the output to equal the table",
                    Duration.ofMinutes(2),
                    () ->
                            SnapshotHandoffExactlyOnceIT.sameRows(
                                    ChangelogCheck.apply(committed()), table));
            // Caught up: the reader streaming the binlog has processed all the server executed.
            SourceJobs.await(
                    "processedGtidLag 0",
                    Duration.ofSeconds(30),
                    () -> processedGtidLags(second.getJobID()).contains(0L));
            assertThat(processedGtidLags(second.getJobID())).allMatch(lag -> lag <= 0);
            // FLIP-33's backlog, through Flink's own source metric group: every reader reports
            // it, and none has anything left once the snapshot is read and the binlog caught up.
            SourceJobs.await(
                    "pendingRecords 0",
                    Duration.ofSeconds(30),
                    () -> pendingRecords(second.getJobID()).equals(List.of(0L, 0L)));
            Thread.sleep(1_000);
        } finally {
            second.cancel().get();
        }
        long readSecond = chunksRead(second.getJobID());
        LOG.info(
                "Chunks read: {} before the savepoint, {} after it ({} in the table); {} rows read"
                        + " before the savepoint",
                readFirst,
                readSecond,
                CHUNKS,
                readsBeforeSavepoint);

        ChangelogCheck check = ChangelogCheck.apply(committed());
        assertThat(check.violations()).isEmpty();
        assertThat(SnapshotHandoffExactlyOnceIT.sameRows(check, VersionedWriters.read(DB, "vt")))
                .isTrue();
        assertThat(check.reads()).isEqualTo(ROWS);
        // Mid-snapshot: both runs read chunks. Finished ones are not read again: at most the
        // chunks in hand at the savepoint (two per reader: one read ahead) are read twice.
        assertThat(readFirst).isBetween(1L, CHUNKS - 1L);
        assertThat(readSecond).isBetween(1L, CHUNKS - readFirst + 4);
        assertThat(readFirst + readSecond).isBetween((long) CHUNKS, CHUNKS + 4L);
    }

    /**
     * Per reader subtask: -1 while it does not stream the binlog (or the server was not read yet).
     */
    private static List<Long> processedGtidLags(JobID job) {
        List<Long> lags = new ArrayList<>();
        for (Metric m :
                REPORTER.findMetrics(job, CapstanReaderMetrics.PROCESSED_GTID_LAG).values()) {
            lags.add(((Number) ((Gauge<?>) m).getValue()).longValue());
        }
        return lags;
    }

    /** Per reader subtask. */
    private static List<Long> pendingRecords(JobID job) {
        List<Long> pending = new ArrayList<>();
        for (Metric m : REPORTER.findMetrics(job, CapstanReaderMetrics.PENDING_RECORDS).values()) {
            pending.add(((Number) ((Gauge<?>) m).getValue()).longValue());
        }
        return pending;
    }

    private static long chunksRead(JobID job) {
        long n = 0;
        for (Metric m :
                REPORTER.findMetrics(job, CapstanReaderMetrics.SNAPSHOT_CHUNKS_READ).values()) {
            n += ((Counter) m).getCount();
        }
        return n;
    }

    private List<String> committed() {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

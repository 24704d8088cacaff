package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.reader.CapstanReaderMetrics;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scan.snapshot.max-rows-per-second} and {@code scan.snapshot.max-concurrent-chunk-reads} on
 * a real server: a source of parallelism 3 limited to 2 concurrent chunk reads and 1,500 rows/s
 * reads a 45,000-row table; over 20 s of its snapshot the rows read (the readers' {@code
 * snapshotRowsRead} counters, summed) come at the limit, within 10 %; only subtasks 0 and 1 read
 * chunks, each about half of the rows, and the waits show in {@code snapshotThrottledMillis}. The
 * rate is measured from counters sampled at two instants, not from a timed assertion: the band is
 * what the test holds.
 */
class SnapshotThrottleIT {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotThrottleIT.class);

    private static final int ROWS = 45_000;
    private static final long LIMIT = 1_500;
    private static final long MEASURED_MILLIS = 20_000;

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension
    static final MiniClusterExtension FLINK = SourceJobs.miniCluster(3, REPORTER);

    @Test
    void theSnapshotReadsAtTheLimitSharedByTheBoundedReaders() throws Exception {
        DB.execute(VersionedWriters.createTable("paced"));
        VersionedWriters.fill(DB, "paced", ROWS);
        StreamExecutionEnvironment env = SourceJobs.env(1_000, null);
        env.fromSource(
                        SnapshotJobs.source(DB, StartupOptions.snapshot())
                                .deserializer(new SnapshotLineDeserializer())
                                .chunkSize(150) // a chunk per reader every 0.2 s at its share
                                .snapshotMaxRowsPerSecond(LIMIT)
                                .snapshotMaxConcurrentChunkReads(2)
                                .build(),
                        WatermarkStrategy.noWatermarks(),
                        "throttled")
                .setParallelism(3)
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1);
        JobClient job = env.executeAsync("snapshot-throttle");
        Map<Integer, Long> first;
        Map<Integer, Long> last;
        long firstAt;
        long lastAt;
        try {
            SourceJobs.await(
                    "the snapshot to run",
                    Duration.ofMinutes(1),
                    () ->
                            total(counters(job.getJobID(), CapstanReaderMetrics.SNAPSHOT_ROWS_READ))
                                    > 3 * LIMIT);
            firstAt = System.nanoTime();
            first = counters(job.getJobID(), CapstanReaderMetrics.SNAPSHOT_ROWS_READ);
            Thread.sleep(MEASURED_MILLIS);
            lastAt = System.nanoTime();
            last = counters(job.getJobID(), CapstanReaderMetrics.SNAPSHOT_ROWS_READ);
        } finally {
            try {
                job.cancel().get();
            } catch (ExecutionException finishedAlready) {
                LOG.warn("The snapshot ended before the measurement did; the checks below say why");
            }
        }
        double seconds = (lastAt - firstAt) / 1e9;
        double rate = (total(last) - total(first)) / seconds;
        Map<Integer, Long> throttled =
                counters(job.getJobID(), CapstanReaderMetrics.SNAPSHOT_THROTTLED_MILLIS);
        LOG.info(
                "Snapshot rate over {} s: {} rows/s (limit {}); rows read per subtask {};"
                        + " throttled ms per subtask {}",
                String.format("%.1f", seconds),
                String.format("%.0f", rate),
                LIMIT,
                last,
                throttled);
        assertThat(total(last)).as("the snapshot was still running").isLessThan(ROWS);
        assertThat(rate).as("rows/s over %.1f s", seconds).isBetween(LIMIT * 0.9, LIMIT * 1.1);
        assertThat(last.getOrDefault(2, 0L)).as("subtask 2 reads no chunk").isZero();
        long r0 = last.getOrDefault(0, 0L) - first.getOrDefault(0, 0L);
        long r1 = last.getOrDefault(1, 0L) - first.getOrDefault(1, 0L);
        assertThat(Math.abs(r0 - r1))
                .as("the two chunk readers share the rate equally (%s vs %s rows)", r0, r1)
                .isLessThan((r0 + r1) / 5);
        assertThat(throttled.getOrDefault(0, 0L)).as("reader 0 waited").isPositive();
    }

    /** A reader counter per subtask index (the latest attempt's, summed over attempts). */
    private static Map<Integer, Long> counters(JobID job, String name) {
        Map<Integer, Long> out = new TreeMap<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                REPORTER.getMetricsByGroup().entrySet()) {
            Map<String, String> vars = g.getKey().getAllVariables();
            Metric m = g.getValue().get(name);
            if (m instanceof Counter c && job.toString().equals(vars.get("<job_id>"))) {
                out.merge(Integer.parseInt(vars.get("<subtask_index>")), c.getCount(), Long::sum);
            }
        }
        return out;
    }

    private static long total(Map<Integer, Long> counters) {
        return counters.values().stream().mapToLong(Long::longValue).sum();
    }
}

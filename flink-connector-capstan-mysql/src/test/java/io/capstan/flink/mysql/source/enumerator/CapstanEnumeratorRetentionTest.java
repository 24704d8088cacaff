package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.source.enumerator.CapstanEnumeratorSnapshotTest.FakePlanning;
import io.capstan.flink.mysql.source.enumerator.CapstanEnumeratorSnapshotTest.UnusedBinlogPlanner;
import io.capstan.flink.mysql.source.event.ChunksCompletedEvent;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code initial} snapshot weighs its estimated duration against the binlog retention: gauges
 * and one warning, never a halt.
 */
class CapstanEnumeratorRetentionTest {

    private static final String UUID = CapstanEnumeratorSnapshotTest.UUID;

    @RegisterExtension
    final LoggerAuditingExtension warnings =
            new LoggerAuditingExtension(SnapshotRetentionMonitor.class, Level.WARN);

    /** The enumerator's metric group, keeping its own gauges by name. */
    static final class GaugeGroup extends UnregisteredMetricsGroup
            implements SplitEnumeratorMetricGroup {
        final Map<String, Gauge<?>> gauges = new HashMap<>();

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            gauges.put(name, gauge);
            return gauge;
        }

        @Override
        public <G extends Gauge<Long>> G setUnassignedSplitsGauge(G gauge) {
            return gauge;
        }

        long value(String name) {
            return ((Number) gauges.get(name).getValue()).longValue();
        }
    }

    private final GaugeGroup metrics = new GaugeGroup();
    private final TestingSplitEnumeratorContext<CapstanSplit> context =
            new TestingSplitEnumeratorContext<>(1) {
                @Override
                public SplitEnumeratorMetricGroup metricGroup() {
                    return metrics;
                }
            };
    private final AtomicLong now = new AtomicLong();
    private final FakePlanning planning = new FakePlanning(20); // 20 chunks of 100 rows

    private CapstanEnumerator start(long retentionSeconds) {
        planning.retention =
                new SnapshotPlanning.RetentionFacts(
                        Optional.of(
                                new BinlogRetention(
                                        retentionSeconds, BinlogRetention.EXPIRE_SECONDS)),
                        OptionalLong.of(2_000));
        context.registerReader(0, "localhost");
        CapstanEnumerator e =
                new CapstanEnumerator(
                        context,
                        StartupMode.INITIAL,
                        planning,
                        new UnusedBinlogPlanner(),
                        EnumState.initial(),
                        Duration.ofMinutes(3),
                        now::get);
        e.start();
        context.triggerAllActions();
        return e;
    }

    /** Reads {@code n} chunks, 10 s each (10 rows/s). */
    private void read(CapstanEnumerator e, int n) {
        for (int i = 0; i < n; i++) {
            now.addAndGet(10_000);
            e.handleSplitRequest(0, "localhost");
            context.triggerAllActions();
            List<CapstanSplit> a = context.getSplitAssignments().get(0).getAssignedSplits();
            SnapshotChunkSplit s = a.get(a.size() - 1).asSnapshotChunkSplit();
            e.handleSourceEvent(
                    0,
                    new ChunksCompletedEvent(
                            List.of(
                                    s.withCompletion(
                                            new ChunkCompletion(
                                                    GtidSet.parse(UUID + ":1-5"), 100)))));
        }
    }

    @Test
    void aSnapshotLongerThanTheRetentionWarnsOnceAndShowsItsEstimate() {
        CapstanEnumerator e = start(120);
        assertThat(planning.retentionAsks)
                .as("the row estimate asked once, at the start; the purge watch's looks without")
                .filteredOn(keys -> !keys.isEmpty())
                .singleElement()
                .asList()
                .hasSize(1);
        assertThat(metrics.value(CapstanEnumeratorMetrics.BINLOG_RETENTION_SECONDS)).isEqualTo(120);
        read(e, 4);
        assertThat(metrics.value(CapstanEnumeratorMetrics.SNAPSHOT_ESTIMATED_REMAINING_SECONDS))
                .as("30 s after the first completion, but 3 chunks")
                .isEqualTo(-1);
        assertThat(warnings.getMessages()).isEmpty();

        read(e, 1); // 400 rows in 40 s after the first chunk: 10 rows/s, 1,500 rows to go
        assertThat(metrics.value(CapstanEnumeratorMetrics.SNAPSHOT_ESTIMATED_REMAINING_SECONDS))
                .isEqualTo(150);
        assertThat(metrics.value(CapstanEnumeratorMetrics.SNAPSHOT_ESTIMATED_DURATION_SECONDS))
                .isEqualTo(50 + 150);
        assertThat(warnings.getMessages())
                .singleElement()
                .asString()
                .contains("1 table(s)", "200 s", "150 s remaining", "10 rows/s", "120 s")
                .contains("binlog_expire_logs_seconds", "parallelism", "data_gap");

        read(e, 5); // the same rate: no second warning
        assertThat(warnings.getMessages()).hasSize(1);
        read(e, 10);
        assertThat(e.tracker().phase()).as("never halts").isNotEqualTo(EnumeratorPhase.STREAMING);
        assertThat(metrics.value(CapstanEnumeratorMetrics.SNAPSHOT_ESTIMATED_REMAINING_SECONDS))
                .as("every chunk read")
                .isZero();
    }

    @Test
    void aSnapshotWellWithinTheRetentionDoesNotWarn() {
        CapstanEnumerator e = start(3_600);
        read(e, 8);
        assertThat(metrics.value(CapstanEnumeratorMetrics.SNAPSHOT_ESTIMATED_REMAINING_SECONDS))
                .isEqualTo(120);
        assertThat(warnings.getMessages()).isEmpty();
    }

    @Test
    void theRetentionIsReadAgainAtEveryLookOfThePurgeWatch() {
        CapstanEnumerator e = start(120);
        read(e, 5);
        assertThat(warnings.getMessages()).hasSize(1);
        planning.retention =
                new SnapshotPlanning.RetentionFacts(
                        Optional.of(new BinlogRetention(0, BinlogRetention.EXPIRE_SECONDS)),
                        OptionalLong.of(2_000));
        int asks = planning.retentionAsks.size();
        context.getExecutorService().triggerPeriodicScheduledTasks();
        assertThat(planning.retentionAsks.subList(asks, planning.retentionAsks.size()))
                .as("a look of the purge watch reads the retention, not the row estimate")
                .isNotEmpty()
                .allMatch(List::isEmpty);
        assertThat(metrics.value(CapstanEnumeratorMetrics.BINLOG_RETENTION_SECONDS)).isZero();
        read(e, 10);
        assertThat(warnings.getMessages()).hasSize(1);
    }
}

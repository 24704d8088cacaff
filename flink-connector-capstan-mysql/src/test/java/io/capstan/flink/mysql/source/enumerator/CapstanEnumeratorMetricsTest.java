package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The mysql-cdc named snapshot gauges follow the enumerator's phases and chunk bookkeeping. */
class CapstanEnumeratorMetricsTest {

    static final ChunkKey KEY = TestKeys.bigint();
    static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    /** Keeps every gauge by its dotted path below the root group. */
    static final class CapturingGroup extends UnregisteredMetricsGroup {
        final Map<String, Gauge<?>> gauges;
        final String prefix;

        CapturingGroup() {
            this(new HashMap<>(), "");
        }

        private CapturingGroup(Map<String, Gauge<?>> gauges, String prefix) {
            this.gauges = gauges;
            this.prefix = prefix;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            gauges.put(prefix + name, gauge);
            return gauge;
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return new CapturingGroup(gauges, prefix + key + "." + value + ".");
        }

        Number value(String path) {
            assertThat(gauges).containsKey(path);
            return (Number) gauges.get(path).getValue();
        }
    }

    private final CapturingGroup group = new CapturingGroup();
    private final AtomicLong clock = new AtomicLong(1_000);
    private final CapstanEnumeratorMetrics metrics =
            new CapstanEnumeratorMetrics(group, clock::get);
    private final String table =
            "namespace." + KEY.table().database() + ".schema..table." + KEY.table().table() + ".";

    private void refresh(SplitAssignmentTracker t) {
        metrics.refresh(t.phase(), t.book());
    }

    private SnapshotChunkSplit take(SplitAssignmentTracker t, int subtask) {
        t.splitRequested(subtask);
        List<SplitReply> replies = t.serveWaiting(s -> true, 2);
        assertThat(replies).hasSize(1);
        return ((SplitReply.Assign) replies.get(0)).split().asSnapshotChunkSplit();
    }

    private static SnapshotChunkSplit done(SnapshotChunkSplit chunk, long gLast) {
        return chunk.withCompletion(new ChunkCompletion(GtidSet.parse(UUID + ":1-" + gLast), 10));
    }

    @Test
    void snapshotSplitsMoveFromRemainingToProcessedToFinishedThenTheSourceStreams() {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, EnumState.initial());
        refresh(t);
        assertThat(group.value("isSnapshotting")).isEqualTo(1);
        assertThat(group.value("isStreamReading")).isEqualTo(0);

        t.tablesResolved(List.of(new SnapshotTable(KEY, 42L)));
        SplitAssignmentTracker.PlanRequest r = t.startPlanning(1_000).orElseThrow();
        SnapshotPlanning.Planned planned =
                new CapstanEnumeratorSnapshotTest.FakePlanning(3)
                        .planMore(r.keys(), r.states(), r.max());
        t.planned(planned.chunks(), planned.states());
        refresh(t);
        assertThat(group.value("numSnapshotSplitsRemaining")).isEqualTo(3);
        assertThat(group.value("numSnapshotSplitsProcessed")).isEqualTo(0);
        assertThat(group.value("numTablesRemaining")).isEqualTo(1);
        assertThat(group.value(table + "numSnapshotSplitsRemaining")).isEqualTo(3);
        assertThat(group.value(table + "snapshotStartTime")).isEqualTo(1_000L);
        assertThat(group.value(table + "snapshotEndTime")).isEqualTo(0L);

        SnapshotChunkSplit first = take(t, 0);
        SnapshotChunkSplit second = take(t, 1);
        t.chunksCompleted(List.of(done(first, 100)));
        refresh(t);
        assertThat(group.value("numSnapshotSplitsRemaining")).isEqualTo(1);
        assertThat(group.value("numSnapshotSplitsProcessed")).isEqualTo(2);
        assertThat(group.value("numSnapshotSplitsFinished")).isEqualTo(1);
        assertThat(group.value(table + "numSnapshotSplitsProcessed")).isEqualTo(2);
        assertThat(group.value(table + "numSnapshotSplitsFinished")).isEqualTo(1);
        assertThat(group.value("numTablesSnapshotted")).isEqualTo(0);

        SnapshotChunkSplit third = take(t, 0);
        clock.set(5_000);
        t.chunksCompleted(List.of(done(second, 101), done(third, 102)));
        refresh(t);
        assertThat(group.value("numSnapshotSplitsRemaining")).isEqualTo(0);
        assertThat(group.value("numSnapshotSplitsFinished")).isEqualTo(3);
        assertThat(group.value(table + "numSnapshotSplitsFinished")).isEqualTo(3);
        assertThat(group.value("numTablesSnapshotted")).isEqualTo(1);
        assertThat(group.value("numTablesRemaining")).isEqualTo(0);
        assertThat(group.value(table + "snapshotEndTime")).isEqualTo(5_000L);

        // parallelism 1: no handoff checkpoint is needed, the binlog split goes out
        t.splitRequested(0);
        t.serveWaiting(s -> true, 1);
        refresh(t);
        assertThat(t.phase()).isEqualTo(EnumeratorPhase.STREAMING);
        assertThat(group.value("isSnapshotting")).isEqualTo(0);
        assertThat(group.value("isStreamReading")).isEqualTo(1);
        assertThat(group.value("numSnapshotSplitsFinished")).isEqualTo(3);
    }

    @Test
    void aStreamOnlyJobIsNeverSnapshotting() {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.LATEST, EnumState.initial());
        refresh(t);
        assertThat(group.value("isSnapshotting")).isEqualTo(0);
        assertThat(group.value("isStreamReading")).isEqualTo(0);
        t.binlogSplitPrepared(
                new BinlogSplit(
                        List.of(KEY.table()),
                        BinlogStartPosition.of(GtidSet.parse(UUID + ":1-50"))));
        t.splitRequested(0);
        t.serveWaiting(s -> true, 1);
        refresh(t);
        assertThat(group.value("isStreamReading")).isEqualTo(1);
        assertThat(group.value("numSnapshotSplitsRemaining")).isEqualTo(0);
    }
}

package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.BinlogSplitState;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.OperatorIOMetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.delete;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.TestChanges.insert;
import static io.capstan.flink.mysql.source.TestChanges.update;
import static org.assertj.core.api.Assertions.assertThat;

/** The reader metrics registered under Flink CDC mysql-cdc's names, in total and per table. */
class MySqlCdcReaderMetricsTest {

    /** Keeps every metric by its dotted path, subgroups included. */
    static final class CapturingGroup extends UnregisteredMetricsGroup
            implements SourceReaderMetricGroup {
        final Map<String, Metric> metrics;
        final String prefix;

        CapturingGroup() {
            this(new HashMap<>(), "");
        }

        private CapturingGroup(Map<String, Metric> metrics, String prefix) {
            this.metrics = metrics;
            this.prefix = prefix;
        }

        @Override
        public Counter counter(String name) {
            SimpleCounter c = new SimpleCounter();
            metrics.put(prefix + name, c);
            return c;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            metrics.put(prefix + name, gauge);
            return gauge;
        }

        @Override
        public MetricGroup addGroup(String key, String value) {
            return new CapturingGroup(metrics, prefix + key + "." + value + ".");
        }

        @Override
        public Counter getNumRecordsInErrorsCounter() {
            return new SimpleCounter();
        }

        @Override
        public void setPendingBytesGauge(Gauge<Long> g) {}

        @Override
        public void setPendingRecordsGauge(Gauge<Long> g) {}

        @Override
        public OperatorIOMetricGroup getIOMetricGroup() {
            return UnregisteredMetricsGroup.createOperatorIOMetricGroup();
        }

        long count(String path) {
            assertThat(metrics).containsKey(path);
            return ((Counter) metrics.get(path)).getCount();
        }
    }

    @Test
    void snapshotRowsAndBinlogChangesAreCountedByKindInTotalAndPerTable() throws Exception {
        CapturingGroup group = new CapturingGroup();
        CapstanReaderMetrics metrics = new CapstanReaderMetrics(group);
        assertThat(group.metrics)
                .containsKeys(
                        "numSnapshotRecords",
                        "numInsertDMLRecords",
                        "numUpdateDMLRecords",
                        "numDeleteDMLRecords",
                        "currentReadTimestampMs");
        assertThat(((Gauge<?>) group.metrics.get("currentReadTimestampMs")).getValue())
                .isEqualTo(-1L);

        TableId other = TableId.of("db", "other");
        metrics.snapshotRowsEmitted(TABLE, 5);
        metrics.snapshotRowsEmitted(other, 2);

        BinlogRecordEmitter<String> emitter =
                new BinlogRecordEmitter<>(new BinlogRecordEmitterTest.Labels(), metrics);
        BinlogSplitState state =
                new BinlogSplitState(
                        new BinlogSplit(
                                List.of(TABLE),
                                BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10"))));
        BinlogRecordEmitterTest.Output out = new BinlogRecordEmitterTest.Output();
        emitter.emitRecord(insert(11, 0, 1, "a"), null, out, state);
        emitter.emitRecord(insert(11, 1, 2, "b"), null, out, state);
        emitter.emitRecord(update(11, 2, 1, "a", "c"), null, out, state);
        emitter.emitRecord(delete(11, 3, 2, "b"), null, out, state);
        emitter.emitRecord(end(11), null, out, state);

        assertThat(group.count("numSnapshotRecords")).isEqualTo(7);
        assertThat(group.count("numInsertDMLRecords")).isEqualTo(2);
        assertThat(group.count("numUpdateDMLRecords")).isEqualTo(1);
        assertThat(group.count("numDeleteDMLRecords")).isEqualTo(1);

        String t = "database.db.table.t.";
        assertThat(group.count(t + "numSnapshotRecords")).isEqualTo(5);
        assertThat(group.count(t + "numInsertDMLRecords")).isEqualTo(2);
        assertThat(group.count(t + "numUpdateDMLRecords")).isEqualTo(1);
        assertThat(group.count(t + "numDeleteDMLRecords")).isEqualTo(1);
        assertThat(group.count(t + "numRecordsIn")).isEqualTo(9);
        assertThat(group.count("database.db.table.other.numRecordsIn")).isEqualTo(2);
        assertThat(group.count("database.db.table.other.numInsertDMLRecords")).isZero();

        metrics.recordFetched(5_000_000L, 7_500L);
        assertThat(((Gauge<?>) group.metrics.get("currentReadTimestampMs")).getValue())
                .isEqualTo(5_000L);
    }
}

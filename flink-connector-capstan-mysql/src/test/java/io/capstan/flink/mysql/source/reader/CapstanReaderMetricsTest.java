package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.BinlogSplitState;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.OperatorIOMetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.TestChanges.insert;
import static org.assertj.core.api.Assertions.assertThat;

class CapstanReaderMetricsTest {

    /** Keeps what is registered, by name. */
    static final class CapturingGroup extends UnregisteredMetricsGroup
            implements SourceReaderMetricGroup {
        final Map<String, Metric> metrics = new HashMap<>();

        @Override
        public Counter counter(String name) {
            SimpleCounter c = new SimpleCounter();
            metrics.put(name, c);
            return c;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            metrics.put(name, gauge);
            return gauge;
        }

        @Override
        public Counter getNumRecordsInErrorsCounter() {
            return new SimpleCounter();
        }

        @Override
        public void setPendingBytesGauge(Gauge<Long> g) {}

        @Override
        public void setPendingRecordsGauge(Gauge<Long> g) {
            metrics.put("pendingRecords", g); // as Flink's InternalSourceReaderMetricGroup names it
        }

        @Override
        public OperatorIOMetricGroup getIOMetricGroup() {
            return UnregisteredMetricsGroup.createOperatorIOMetricGroup();
        }

        long count(String name) {
            return ((Counter) metrics.get(name)).getCount();
        }

        Object gauge(String name) {
            return ((Gauge<?>) metrics.get(name)).getValue();
        }
    }

    @Test
    void countsRowsTransactionsSkipsAndFetchLag() throws Exception {
        CapturingGroup group = new CapturingGroup();
        CapstanReaderMetrics metrics = new CapstanReaderMetrics(group);
        assertThat(group.metrics)
                .containsKeys(
                        "currentFetchEventTimeLag",
                        "rowsEmitted",
                        "transactionsProcessed",
                        "rowsSkippedOnResume",
                        "rowsEventsFiltered",
                        "transactionsSeen",
                        "binlogReconnects");
        assertThat(group.gauge("currentFetchEventTimeLag")).isEqualTo(-1L);
        assertThat(group.gauge("rowsEventsFiltered")).isEqualTo(0L); // before a streamer exists
        assertThat(group.gauge("processedGtidLag"))
                .isEqualTo(-1L); // before the binlog split streams

        BinlogRecordEmitter<String> emitter =
                new BinlogRecordEmitter<>(new BinlogRecordEmitterTest.Labels(), metrics);
        BinlogSplitState state =
                new BinlogSplitState(
                        new BinlogSplit(
                                List.of(TABLE),
                                BinlogStartPosition.of(
                                        GtidSet.parse(UUID + ":1-10"),
                                        io.capstan.flink.mysql.source.TestChanges.gtid(11),
                                        1)));
        BinlogRecordEmitterTest.Output out = new BinlogRecordEmitterTest.Output();
        AtomicReference<GtidSet> server = new AtomicReference<>();
        metrics.binlogStarted(state.processed(), server::get);
        assertThat(group.gauge("processedGtidLag")).as("server not read yet").isEqualTo(-1L);
        server.set(GtidSet.parse(UUID + ":1-15"));
        assertThat(group.gauge("processedGtidLag")).isEqualTo(5L);
        emitter.emitRecord(insert(11, 0, 1, "a"), null, out, state); // already emitted: skipped
        emitter.emitRecord(insert(11, 1, 2, "b"), null, out, state);
        emitter.emitRecord(end(11), null, out, state);
        assertThat(group.gauge("processedGtidLag")).isEqualTo(4L);
        assertThat(group.count("rowsEmitted")).isEqualTo(1);
        assertThat(group.count("rowsSkippedOnResume")).isEqualTo(1);
        assertThat(group.count("transactionsProcessed")).isEqualTo(1);

        metrics.recordFetched(5_000_000L, 7_500L); // committed at 5 s, fetched at 7.5 s
        assertThat(group.gauge("currentFetchEventTimeLag")).isEqualTo(2_500L);
    }

    @Test
    void pendingRecordsAreUnreadChunksAtTheChunkSizeAndTransactionsBehindTheServer() {
        CapturingGroup group = new CapturingGroup();
        CapstanReaderMetrics metrics = new CapstanReaderMetrics(group, 1_000);
        assertThat(group.gauge("pendingRecords")).as("nothing assigned").isEqualTo(0L);

        metrics.chunkAssigned();
        metrics.chunkAssigned();
        assertThat(group.gauge("pendingRecords")).as("two chunks in hand").isEqualTo(2_000L);
        metrics.chunkRead(700);
        assertThat(group.gauge("pendingRecords")).as("one read").isEqualTo(1_000L);
        metrics.chunkRead(1_000);
        assertThat(group.gauge("pendingRecords")).isEqualTo(0L);

        AtomicReference<GtidSet> server = new AtomicReference<>();
        metrics.binlogStarted(GtidSet.parse(UUID + ":1-10"), server::get);
        assertThat(group.gauge("pendingRecords")).as("server not read yet").isEqualTo(0L);
        server.set(GtidSet.parse(UUID + ":1-15"));
        assertThat(group.gauge("pendingRecords")).as("five transactions behind").isEqualTo(5L);
        metrics.chunkAssigned(); // a table added while the binlog split pauses
        assertThat(group.gauge("pendingRecords")).isEqualTo(1_005L);
        metrics.transactionProcessed(GtidSet.parse(UUID + ":1-15"));
        metrics.chunkRead(3);
        assertThat(group.gauge("pendingRecords")).as("caught up").isEqualTo(0L);
        server.set(GtidSet.parse(UUID + ":1-14"));
        assertThat(group.gauge("pendingRecords")).as("a stale poll: never negative").isEqualTo(0L);
    }
}

package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TableCaptured;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.BinlogSplitState;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.TestChanges.gtid;
import static io.capstan.flink.mysql.source.TestChanges.insert;
import static io.capstan.flink.mysql.source.TestChanges.update;
import static org.assertj.core.api.Assertions.assertThat;

class BinlogRecordEmitterTest {

    /** Emits "gtid#index" per change, so tests see exactly which changes went out. */
    static final class Labels implements CapstanDeserializer<String> {
        @Override
        public TypeInformation<String> getProducedType() {
            return Types.STRING;
        }

        @Override
        public void deserialize(ChangeEvent event, Collector<String> out) {
            out.collect(
                    event.gtid().substring(event.gtid().lastIndexOf(':') + 1)
                            + "#"
                            + event.indexInTransaction());
        }
    }

    static final class Output implements ReaderOutput<String> {
        final List<String> records = new ArrayList<>();
        final List<Long> timestamps = new ArrayList<>();

        @Override
        public void collect(String record) {
            throw new AssertionError("records must carry their commit time");
        }

        @Override
        public void collect(String record, long timestamp) {
            records.add(record);
            timestamps.add(timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<String> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    private final CapstanReaderMetrics metrics =
            new CapstanReaderMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup());
    private final BinlogRecordEmitter<String> emitter =
            new BinlogRecordEmitter<>(new Labels(), metrics);
    private final Output out = new Output();

    private BinlogSplitState state(BinlogStartPosition start) {
        return new BinlogSplitState(new BinlogSplit(List.of(TABLE), start));
    }

    private void emitAll(BinlogSplitState state, BinlogRecord... records) throws Exception {
        for (BinlogRecord r : records) {
            emitter.emitRecord(r, null, out, state);
        }
    }

    @Test
    void emitsEachRowChangeAndAdvancesStatePerElement() throws Exception {
        BinlogSplitState state = state(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")));
        emitter.emitRecord(insert(11, 0, 1, "a"), null, out, state);
        // A barrier after this element would checkpoint exactly (11, 1 row emitted).
        assertThat(state.position())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10"), gtid(11), 1));
        emitAll(state, update(11, 1, 1, "a", "b"), end(11), insert(12, 0, 2, "c"), end(12));
        assertThat(out.records).containsExactly("11#0", "11#1", "12#0");
        assertThat(out.timestamps.get(0))
                .isEqualTo(insert(11, 0, 1, "a").commitTimestampMicros() / 1000);
        assertThat(state.position())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-12")));
        assertThat(metrics.rowsEmittedCount()).isEqualTo(3);
    }

    @Test
    void onBinlogPositionsTheGtidMetadataIsWhereTheTransactionStarts() throws Exception {
        BinlogPositionAxis axis = BinlogPositionAxis.of(UUID);
        Gtid at = axis.transactionAt(new BinlogPositionAxis.Position(42, 4711));
        List<String> seen = new ArrayList<>();
        BinlogRecordEmitter<String> gtids =
                new BinlogRecordEmitter<>(
                        new CapstanDeserializer<>() {
                            @Override
                            public TypeInformation<String> getProducedType() {
                                return Types.STRING;
                            }

                            @Override
                            public void deserialize(ChangeEvent event, Collector<String> o) {
                                seen.add(event.gtid());
                            }
                        },
                        metrics);
        RowChange change = insert(1, 0, 1, "a");
        BinlogSplitState state =
                state(BinlogStartPosition.of(axis.before(new BinlogPositionAxis.Position(42, 4))));
        gtids.emitRecord(
                new RowChange(
                        change.tableId(),
                        change.schema(),
                        change.operation(),
                        null,
                        change.after(),
                        at,
                        0,
                        change.commitTimestampMicros()),
                null,
                out,
                state);
        assertThat(seen).containsExactly("000042:4711");
    }

    @Test
    void skipsTheRowsThePartialTransactionAlreadyEmitted() throws Exception {
        // Restored inside transaction 11 after 2 of its rows were emitted; the stream replays it
        // whole.
        BinlogSplitState state =
                state(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10"), gtid(11), 2));
        emitAll(
                state,
                insert(11, 0, 1, "a"),
                insert(11, 1, 2, "b"),
                insert(11, 2, 3, "c"),
                end(11));
        assertThat(out.records).containsExactly("11#2");
        assertThat(state.position())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-11")));
    }

    @Test
    void aTableCapturedWhileStreamingJoinsTheCheckpointedSplit() throws Exception {
        BinlogSplitState state = state(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")));
        TableId created = TableId.of("db", "t_2");
        emitAll(state, new TableCaptured(gtid(11), 0, created), end(11));
        BinlogSplit checkpointed = state.toSplit();
        assertThat(checkpointed.tables()).containsExactly(TABLE, created);
        assertThat(checkpointed.start())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-11")));
        // a replayed capture changes nothing
        emitAll(state, new TableCaptured(gtid(11), 0, created));
        assertThat(state.toSplit().tables()).containsExactly(TABLE, created);
        assertThat(out.records).isEmpty();
    }

    @Test
    void skipsRowsOfTransactionsAlreadyProcessed() throws Exception {
        BinlogSplitState state = state(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")));
        emitAll(state, insert(7, 0, 1, "a"), end(7), insert(11, 0, 2, "b"), end(11));
        assertThat(out.records).containsExactly("11#0");
        assertThat(state.position())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-11")));
    }

    @Test
    void aTransactionWithoutCapturedRowsStillAdvancesTheProcessedSet() throws Exception {
        BinlogSplitState state = state(BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")));
        emitAll(state, end(11), end(12));
        assertThat(out.records).isEmpty();
        assertThat(state.processed()).isEqualTo(GtidSet.parse(UUID + ":1-12"));
    }

    @Test
    void restoringFromEveryIntermediateStateEmitsEachChangeExactlyOnce() throws Exception {
        // Replay the whole stream from each checkpointable state; the union of "before" and
        // "after the restore" must be the full sequence with no repeats.
        List<BinlogRecord> stream =
                List.of(
                        insert(11, 0, 1, "a"),
                        insert(11, 1, 2, "b"),
                        insert(11, 2, 3, "c"),
                        end(11),
                        update(12, 0, 1, "a", "z"),
                        end(12),
                        end(13),
                        insert(14, 0, 9, "q"),
                        end(14));
        GtidSet start = GtidSet.parse(UUID + ":1-10");
        for (int cut = 0; cut <= stream.size(); cut++) {
            Output first = new Output();
            BinlogSplitState s = state(BinlogStartPosition.of(start));
            for (int i = 0; i < cut; i++) {
                emitter.emitRecord(stream.get(i), null, first, s);
            }
            BinlogSplitState restored = new BinlogSplitState(s.toSplit());
            Output second = new Output();
            for (BinlogRecord r : stream) {
                emitter.emitRecord(r, null, second, restored);
            }
            List<String> all = new ArrayList<>(first.records);
            all.addAll(second.records);
            assertThat(all)
                    .as("cut at " + cut)
                    .containsExactly("11#0", "11#1", "11#2", "12#0", "14#0");
        }
    }
}

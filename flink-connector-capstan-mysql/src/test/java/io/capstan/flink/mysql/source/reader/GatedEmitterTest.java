package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.BinlogSplitState;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.capstan.flink.mysql.source.TestChanges.SCHEMA;
import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.TestChanges.gtid;
import static io.capstan.flink.mysql.source.TestChanges.row;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cursor gate in the emitter: per image, UPDATE conversions, the partial-transaction count over
 * suppressed rows across restores, and retiring.
 */
class GatedEmitterTest {

    /** "op:beforeId>afterId" per emitted change. */
    static final class Ops implements CapstanDeserializer<String> {
        @Override
        public TypeInformation<String> getProducedType() {
            return Types.STRING;
        }

        @Override
        public void deserialize(ChangeEvent e, Collector<String> out) {
            out.collect(
                    e.operation().debeziumCode()
                            + ":"
                            + (e.before() == null ? "-" : e.before().getLong(0))
                            + ">"
                            + (e.after() == null ? "-" : e.after().getLong(0)));
        }
    }

    static final ChunkKey KEY =
            new ChunkKey(
                    TABLE,
                    List.of(new KeyColumn("id", 0, KeyKind.INTEGER, false, 0, 0, "bigint")),
                    ChunkKey.Source.PRIMARY_KEY);

    /** Chunk 0 holds keys below 100 and was read at 1-20, chunk 1 the rest at 1-10. */
    static final CursorGate GATE =
            CursorGate.of(
                    Map.of(
                            KEY,
                            List.of(
                                    new FinishedChunk(
                                            ChunkRange.of(null, KeyTuple.of(100L)),
                                            GtidSet.parse(UUID + ":1-20")),
                                    new FinishedChunk(
                                            ChunkRange.of(KeyTuple.of(100L), null),
                                            GtidSet.parse(UUID + ":1-10")))));

    private final CapstanReaderMetrics metrics =
            new CapstanReaderMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup());
    private final BinlogRecordEmitter<String> emitter =
            new BinlogRecordEmitter<>(new Ops(), metrics);

    static RowChange change(long txn, int index, Operation op, Long before, Long after) {
        return new RowChange(
                TABLE,
                SCHEMA,
                op,
                before == null ? null : row(before, "b"),
                after == null ? null : row(after, "a"),
                gtid(txn),
                index,
                1_000L);
    }

    static BinlogSplitState state() {
        return new BinlogSplitState(
                new BinlogSplit(
                        List.of(TABLE),
                        BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")),
                        GATE));
    }

    private List<String> emit(BinlogSplitState state, List<BinlogRecord> records) throws Exception {
        BinlogRecordEmitterTest.Output out = new BinlogRecordEmitterTest.Output();
        for (BinlogRecord r : records) {
            emitter.emitRecord(r, null, out, state);
        }
        return out.records;
    }

    @Test
    void eachImageIsGatedByTheChunkHoldingItsKey() throws Exception {
        List<String> out =
                emit(
                        state(),
                        List.of(
                                change(
                                        11,
                                        0,
                                        Operation.INSERT,
                                        null,
                                        5L), // chunk 0 holds 11: suppressed
                                change(
                                        11,
                                        1,
                                        Operation.INSERT,
                                        null,
                                        150L), // chunk 1 lacks 11: forwarded
                                change(11, 2, Operation.DELETE, 7L, null), // suppressed
                                change(11, 3, Operation.DELETE, 170L, null), // forwarded
                                change(11, 4, Operation.UPDATE, 8L, 9L), // both in chunk 0: nothing
                                change(
                                        11,
                                        5,
                                        Operation.UPDATE,
                                        180L,
                                        190L), // both in chunk 1: the update
                                change(
                                        11,
                                        6,
                                        Operation.UPDATE,
                                        20L,
                                        120L), // before suppressed: insert of after
                                change(
                                        11,
                                        7,
                                        Operation.UPDATE,
                                        130L,
                                        30L), // after suppressed: delete of before
                                end(11)));
        assertThat(out).containsExactly("c:->150", "d:170>-", "u:180>190", "c:->120", "d:130>-");
    }

    @Test
    void restoringInsideATransactionCountsSuppressedRowsSoNothingRepeatsOrGoesMissing()
            throws Exception {
        List<BinlogRecord> stream =
                List.of(
                        change(11, 0, Operation.INSERT, null, 5L), // suppressed
                        change(11, 1, Operation.INSERT, null, 150L),
                        change(11, 2, Operation.UPDATE, 20L, 120L), // becomes an insert
                        change(11, 3, Operation.DELETE, 7L, null), // suppressed
                        change(11, 4, Operation.INSERT, null, 160L),
                        end(11),
                        change(21, 0, Operation.INSERT, null, 6L), // after chunk 0's G: forwarded
                        end(21));
        List<String> full = emit(state(), stream);
        assertThat(full).containsExactly("c:->150", "c:->120", "c:->160", "c:->6");
        for (int cut = 0; cut <= stream.size(); cut++) {
            BinlogSplitState first = state();
            List<String> before = emit(first, stream.subList(0, cut));
            // checkpoint here: the split as Flink stores it, then a restore replaying the stream
            CapstanSplitSerializer s = CapstanSplitSerializer.INSTANCE;
            BinlogSplit restored =
                    s.deserialize(s.getVersion(), s.serialize(first.toSplit())).asBinlogSplit();
            List<String> after = emit(new BinlogSplitState(restored), stream);
            List<String> all = new ArrayList<>(before);
            all.addAll(after);
            assertThat(all).as("restored after %s elements", cut).isEqualTo(full);
        }
    }

    @Test
    void aTableRetiresOnceTheProcessedSetHoldsEveryGAndLeavesTheState() throws Exception {
        BinlogSplitState state = state();
        CapstanSplitSerializer s = CapstanSplitSerializer.INSTANCE;
        int gatedSize = s.serialize(state.toSplit()).length;
        List<BinlogRecord> stream = new ArrayList<>();
        for (long txn = 11; txn <= 20; txn++) {
            stream.add(end(txn)); // quiet transactions still advance the processed set
        }
        emit(state, stream.subList(0, 9));
        assertThat(state.gate().isGated(TABLE)).isTrue();
        emit(state, stream.subList(9, 10));
        assertThat(state.gate().isGated(TABLE)).isFalse();
        assertThat(s.serialize(state.toSplit()).length).isLessThan(gatedSize);
        // retired: changes are forwarded without a lookup
        assertThat(emit(state, List.of(change(22, 0, Operation.INSERT, null, 5L), end(22))))
                .containsExactly("c:->5");
    }
}

package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.SnapshotDdlObserver;
import io.capstan.flink.mysql.source.split.BinlogSplitState;

import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import org.junit.jupiter.api.Test;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.gtid;
import static org.assertj.core.api.Assertions.assertThat;

/** A TRUNCATE of a table still gated after its snapshot: what the stream and the emitter do. */
class GatedTruncateTest {

    @Test
    void theSnapshotHoldsATransactionOnlyWhenEveryChunkWasReadAfterIt() {
        DdlObserver observer = SnapshotDdlObserver.of(GatedEmitterTest.GATE);
        assertThat(observer.snapshotHolds(TABLE, gtid(5))).isTrue(); // both chunks hold 1-10
        assertThat(observer.snapshotHolds(TABLE, gtid(15))).isFalse(); // only chunk 0
        assertThat(observer.snapshotHolds(TABLE, gtid(25))).isFalse(); // none
        assertThat(observer.snapshotHolds(TableId.of("db", "other"), gtid(5))).isFalse();
    }

    @Test
    void aTruncateNoChunkHoldsPassesTheGateAsItIs() throws Exception {
        BinlogRecordEmitter<String> emitter =
                new BinlogRecordEmitter<>(
                        new GatedEmitterTest.Ops(),
                        new CapstanReaderMetrics(
                                UnregisteredMetricsGroup.createSourceReaderMetricGroup()));
        BinlogSplitState state = GatedEmitterTest.state();
        assertThat(state.gate().isGated(TABLE)).isTrue();
        BinlogRecordEmitterTest.Output out = new BinlogRecordEmitterTest.Output();
        emitter.emitRecord(
                new RowChange(TABLE, null, Operation.TRUNCATE, null, null, gtid(25), 0, 1_000L),
                null,
                out,
                state);
        assertThat(out.records).containsExactly("t:->-");
    }
}

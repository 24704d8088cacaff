package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.source.TestChanges;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.gtid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BinlogSplitStateTest {

    private static final GtidSet START = GtidSet.parse(TestChanges.UUID + ":1-10");

    private static BinlogSplitState state(BinlogStartPosition start) {
        return new BinlogSplitState(new BinlogSplit(List.of(TABLE), start));
    }

    @Test
    void rowsAndTransactionEndsAdvanceThePosition() {
        BinlogSplitState s = state(BinlogStartPosition.of(START));
        s.rowEmitted(gtid(11), 0);
        s.rowEmitted(gtid(11), 1);
        assertThat(s.position()).isEqualTo(BinlogStartPosition.of(START, gtid(11), 2));
        s.transactionEnded(gtid(11));
        assertThat(s.position())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(TestChanges.UUID + ":1-11")));
        assertThat(s.toSplit().start()).isEqualTo(s.position());
        assertThat(s.toSplit().tables()).containsExactly(TABLE);
    }

    @Test
    void alreadyEmittedCoversProcessedTransactionsAndThePartialPrefix() {
        BinlogSplitState s = state(BinlogStartPosition.of(START, gtid(11), 3));
        assertThat(s.alreadyEmitted(gtid(5), 0)).isTrue();
        assertThat(s.alreadyEmitted(gtid(11), 0)).isTrue();
        assertThat(s.alreadyEmitted(gtid(11), 2)).isTrue();
        assertThat(s.alreadyEmitted(gtid(11), 3)).isFalse();
        assertThat(s.alreadyEmitted(gtid(12), 0)).isFalse();
    }

    @Test
    void outOfOrderRowsFailLoudly() {
        BinlogSplitState s = state(BinlogStartPosition.of(START));
        assertThatThrownBy(() -> s.rowEmitted(gtid(11), 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expected row 0");
        s.rowEmitted(gtid(11), 0);
        assertThatThrownBy(() -> s.rowEmitted(gtid(12), 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before transaction");
        assertThatThrownBy(() -> s.transactionEnded(gtid(12)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void kindsAreToldApartWithoutCasts() {
        BinlogSplitState s = state(BinlogStartPosition.of(START));
        CapstanSplitState general = CapstanSplitState.of(s.toSplit());
        assertThat(general.kind()).isEqualTo(SplitKind.BINLOG);
        assertThat(general.asBinlogSplitState().position()).isEqualTo(s.position());
        CapstanSplit split = s.toSplit();
        assertThat(split.kind()).isEqualTo(SplitKind.BINLOG);
        assertThat(split.asBinlogSplit()).isSameAs(split);
    }

    @Test
    void anXaOutcomeAddsItsPreparedPartWithItAtOnce() {
        // 12 was prepared, 13 is its XA COMMIT, delivered as 13's rows; 12 stayed out until then.
        BinlogSplitState s = state(BinlogStartPosition.of(START));
        s.transactionEnded(gtid(11));
        s.rowEmitted(gtid(13), 0);
        assertThat(s.position())
                .isEqualTo(
                        BinlogStartPosition.of(
                                GtidSet.parse(TestChanges.UUID + ":1-11"), gtid(13), 1));
        s.transactionEnded(gtid(13), gtid(12));
        assertThat(s.processed()).isEqualTo(GtidSet.parse(TestChanges.UUID + ":1-13"));
        assertThat(s.partialTransaction()).isNull();
    }
}

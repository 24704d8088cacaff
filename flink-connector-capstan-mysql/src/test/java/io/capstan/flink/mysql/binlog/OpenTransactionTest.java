package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hand-out of an open transaction's rows, and the resume position it gives. */
class OpenTransactionTest {

    private static final String UUID_A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final Gtid G5 = Gtid.of(UUID_A, 5);
    private static final TableId T = TableId.of("shop", "orders");

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();
    private boolean interruptNext;
    private final OpenTransaction open =
            new OpenTransaction(
                    record -> {
                        if (interruptNext) {
                            interruptNext = false;
                            throw new InterruptedException();
                        }
                        out.add(record);
                    },
                    metrics);
    private final StreamPosition position =
            new StreamPosition(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-4"), G5, 2));

    @Test
    void rowsEmittedBeforeTheResumeAreCountedNotEmittedAgain() throws Exception {
        open.open(G5, 1L, position.rowsAlreadyEmitted(G5), false);
        for (int i = 0; i < 3; i++) {
            if (open.passRow()) {
                open.emit(T, null, Operation.TRUNCATE, null, null);
            }
        }
        assertThat(out).hasSize(1);
        assertThat(((RowChange) out.get(0)).indexInTransaction()).isEqualTo(2);
        assertThat(metrics.rowChangesSkippedOnResume()).isEqualTo(2);
        assertThat(position.resumePosition(open))
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-4"), G5, 3));
    }

    @Test
    void aRowTheSinkDidNotTakeIsNotCounted() throws Exception {
        open.open(G5, 1L, 0, false);
        assertThat(open.passRow()).isTrue();
        interruptNext = true;
        assertThatThrownBy(() -> open.emit(T, null, Operation.TRUNCATE, null, null))
                .isInstanceOf(InterruptedException.class);
        assertThat(open.rowsHandedOut()).isZero();
        assertThat(position.resumePosition(open).rowsAlreadyEmitted()).isZero();
    }

    @Test
    void beforeItsTransactionEndsTheResumedPartialOneIsStillTheResumePoint() {
        Gtid g6 = Gtid.of(UUID_A, 6);
        open.open(g6, 1L, position.rowsAlreadyEmitted(g6), true); // dropped by time
        assertThat(position.resumePosition(open))
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-4"), G5, 2));
        position.ended(G5, GtidSet.parse(UUID_A + ":1-5"));
        assertThat(position.resumePosition(open))
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-5")));
    }

    @Test
    void aTransactionDroppedByTimeCountsNothing() {
        open.open(G5, 1L, 0, true);
        assertThat(open.passRow()).isFalse();
        assertThat(open.capturedRowsPassed()).isZero();
        open.checkUnended(0); // nothing passed: no halt
    }

    @Test
    void anUnendedTransactionThatPassedRowsHalts() {
        open.open(G5, 1L, 0, false);
        open.passRow();
        assertThatThrownBy(() -> open.checkUnended(0))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.TRANSACTION_WITHOUT_END));
        open.open(G5, 1L, 0, false);
        assertThatThrownBy(() -> open.checkUnended(1)) // an XA part's held row
                .isInstanceOf(CapstanHaltException.class);
    }
}

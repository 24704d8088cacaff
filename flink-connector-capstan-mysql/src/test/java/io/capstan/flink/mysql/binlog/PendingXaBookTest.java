package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.table.data.GenericRowData;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PendingXaBookTest {

    private static final Gtid P1 = Gtid.of(Events.UUID_A, 1);
    private static final Gtid P2 = Gtid.of(Events.UUID_A, 2);
    private static final XaId X1 = XaId.of(1, new byte[] {1}, new byte[0]);
    private static final XaId X2 = XaId.of(1, new byte[] {2}, new byte[0]);

    private static PendingXaBook.HeldRow row(int id) {
        return new PendingXaBook.HeldRow(
                TableId.of("db", "t"), null, Operation.INSERT, null, GenericRowData.of(id));
    }

    @Test
    void preparedPartsAreTakenOnceByXidWithTheirRowsInOrder() {
        PendingXaBook book = new PendingXaBook(10);
        book.hold(P1, row(1));
        book.hold(P1, row(2));
        book.prepared(X1, P1);
        book.hold(P2, row(3));
        book.prepared(X2, P2);
        assertThat(book.heldRows()).isEqualTo(3);
        assertThat(book.pendingTransactions()).isEqualTo(2);

        PendingXaBook.Prepared p = book.take(X1);
        assertThat(p.prepareGtid()).isEqualTo(P1);
        assertThat(p.rows()).extracting(r -> r.after().getInt(0)).containsExactly(1, 2);
        assertThat(book.take(X1)).isNull();
        assertThat(book.heldRows()).isEqualTo(1);
        assertThat(book.take(X2).rows()).hasSize(1);
        assertThat(book.heldRows()).isZero();
    }

    @Test
    void theCapCountsEveryHeldRowAndFreedRowsMakeRoom() {
        PendingXaBook book = new PendingXaBook(2);
        book.hold(P1, row(1));
        book.prepared(X1, P1);
        book.hold(P2, row(2));
        assertThatThrownBy(() -> book.hold(P2, row(3)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.XA_PENDING_ROWS_EXCEEDED);
                            assertThat(e.getMessage()).contains(P2.toString()).contains("Remedy");
                        });
        book.take(X1);
        book.hold(P2, row(3));
        assertThat(book.heldRows()).isEqualTo(2);
    }

    @Test
    void theOpenPartIsTakenForAOnePhaseCommitOrDropped() {
        PendingXaBook book = new PendingXaBook(5);
        book.hold(P1, row(1));
        assertThat(book.takeOpen()).hasSize(1);
        assertThat(book.heldRows()).isZero();
        book.hold(P2, row(2));
        book.dropOpen();
        assertThat(book.heldRows()).isZero();
        book.prepared(X2, P2);
        assertThat(book.take(X2).rows()).isEmpty();
    }

    @Test
    void clearForgetsEverythingAndAReusedXidIsRefused() {
        PendingXaBook book = new PendingXaBook(5);
        book.hold(P1, row(1));
        book.prepared(X1, P1);
        assertThatThrownBy(() -> book.prepared(X1, P2)).isInstanceOf(IllegalStateException.class);
        book.clear();
        assertThat(book.heldRows()).isZero();
        assertThat(book.take(X1)).isNull();
        book.prepared(X1, P2); // the server sends the part again after a reconnect
        assertThat(book.take(X1).prepareGtid()).isEqualTo(P2);
    }
}

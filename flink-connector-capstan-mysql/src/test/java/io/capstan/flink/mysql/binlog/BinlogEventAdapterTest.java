package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.stream.event.BinlogEvent;
import io.capstan.flink.mysql.stream.event.BinlogEvent.RowsKind;
import io.capstan.flink.mysql.testing.FlinkLines;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.delete;
import static io.capstan.flink.mysql.binlog.Events.event;
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.skippedRows;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.update;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag(FlinkLines.NEUTRAL)
class BinlogEventAdapterTest {

    private static Event at(Event e, long position, long next, long serverId) {
        EventHeaderV4 h = e.getHeader();
        h.setNextPosition(next);
        h.setEventLength(next - position);
        h.setServerId(serverId);
        return e;
    }

    @Test
    void aGtidKeepsItsGtidCommitTimeAndHeader() {
        BinlogEvent e = BinlogEventAdapter.translate(at(gtid(UUID_A, 42, 1234L), 100, 180, 9));
        assertThat(e).isInstanceOf(BinlogEvent.Gtid.class);
        BinlogEvent.Gtid g = (BinlogEvent.Gtid) e;
        assertThat(g.sourceId()).isEqualTo(UUID_A);
        assertThat(g.transactionId()).isEqualTo(42);
        assertThat(g.originalCommitMicros()).isEqualTo(1234L);
        assertThat(g.header().position()).isEqualTo(100);
        assertThat(g.header().nextPosition()).isEqualTo(180);
        assertThat(g.header().serverId()).isEqualTo(9);
        assertThat(g.header().timestamp()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void aQueryKeepsItsTextOutOfToString() {
        QueryEventData q = new QueryEventData();
        q.setDatabase("shop");
        q.setSql("UPDATE t SET secret = 'hunter2'");
        BinlogEvent.Query e =
                (BinlogEvent.Query) BinlogEventAdapter.translate(event(EventType.QUERY, q));
        assertThat(e.database()).isEqualTo("shop");
        assertThat(e.sql()).isSameAs(q.getSql());
        assertThat(e.toString()).doesNotContain("hunter2").doesNotContain("UPDATE");
    }

    @Test
    void anXidIsAnXid() {
        BinlogEvent.Xid e = (BinlogEvent.Xid) BinlogEventAdapter.translate(xid());
        assertThat(e.xid()).isEqualTo(7);
    }

    @Test
    void aTableMapKeepsItsShapeWithoutCopying() {
        Event lib = tableMap(5, "shop", "orders", 3);
        BinlogEvent.TableMap e = (BinlogEvent.TableMap) BinlogEventAdapter.translate(lib);
        com.github.shyiko.mysql.binlog.event.TableMapEventData d = lib.getData();
        assertThat(e.tableId()).isEqualTo(5);
        assertThat(e.database()).isEqualTo("shop");
        assertThat(e.table()).isEqualTo("orders");
        assertThat(e.columnTypes()).isSameAs(d.getColumnTypes());
        assertThat(e.columnMetadata()).isSameAs(d.getColumnMetadata());
        assertThat(e.columnNullability()).isSameAs(d.getColumnNullability());
        BinlogEvent.TableMap same =
                (BinlogEvent.TableMap)
                        BinlogEventAdapter.translate(tableMap(5, "shop", "orders", 3));
        BinlogEvent.TableMap other =
                (BinlogEvent.TableMap)
                        BinlogEventAdapter.translate(tableMap(5, "shop", "orders", 4));
        assertThat(e.metadata().sameAs(same.metadata())).isTrue();
        assertThat(e.metadata().sameAs(other.metadata())).isFalse();
    }

    @Test
    void rowsKeepTheDecodedRowListsAsTheyAre() {
        Event w = insert(5, row(1, 10), row(2, 20));
        BinlogEvent.Rows write = (BinlogEvent.Rows) BinlogEventAdapter.translate(w);
        WriteRowsEventData wd = w.getData();
        assertThat(write.kind()).isEqualTo(RowsKind.WRITE);
        assertThat(write.tableId()).isEqualTo(5);
        assertThat(write.rows()).isSameAs(wd.getRows());
        assertThat(write.includedColumns()).isSameAs(wd.getIncludedColumns());
        assertThat(write.updates()).isEmpty();
        assertThat(write.toString()).doesNotContain("10").doesNotContain("20");

        Event u = update(5, row(1, 10), row(1, 11));
        BinlogEvent.Rows upd = (BinlogEvent.Rows) BinlogEventAdapter.translate(u);
        UpdateRowsEventData ud = u.getData();
        assertThat(upd.kind()).isEqualTo(RowsKind.UPDATE);
        assertThat(upd.updates()).isSameAs(ud.getRows());
        assertThat(upd.includedColumnsBefore()).isSameAs(ud.getIncludedColumnsBeforeUpdate());
        assertThat(upd.includedColumns()).isSameAs(ud.getIncludedColumns());
        assertThat(upd.rows()).isEmpty();

        BinlogEvent.Rows del =
                (BinlogEvent.Rows) BinlogEventAdapter.translate(delete(6, row(2, 20)));
        assertThat(del.kind()).isEqualTo(RowsKind.DELETE);
        assertThat(del.tableId()).isEqualTo(6);
        assertThat(del.rows()).hasSize(1);

        BinlogEvent.Rows skipped = (BinlogEvent.Rows) BinlogEventAdapter.translate(skippedRows(7));
        assertThat(skipped.kind()).isEqualTo(RowsKind.SKIPPED);
        assertThat(skipped.tableId()).isEqualTo(7);
        assertThat(skipped.includedColumns()).isNull();
    }

    @Test
    void aPartialUpdateIsSkippedOrKeptByItsTypeToBeRefused() {
        BinlogEvent skipped =
                BinlogEventAdapter.translate(
                        event(EventType.PARTIAL_UPDATE_ROWS_EVENT, new SkippedRowsEventData(3)));
        assertThat(((BinlogEvent.Rows) skipped).kind()).isEqualTo(RowsKind.SKIPPED_PARTIAL_UPDATE);
        assertThat(((BinlogEvent.Rows) skipped).tableId()).isEqualTo(3);
        BinlogEvent decoded =
                BinlogEventAdapter.translate(
                        event(EventType.PARTIAL_UPDATE_ROWS_EVENT, new UpdateRowsEventData()));
        assertThat(((BinlogEvent.Other) decoded).type()).isEqualTo("PARTIAL_UPDATE_ROWS_EVENT");
    }

    @Test
    void anXaPrepareKeepsItsXidBytesOutOfToString() {
        XAPrepareEventData d = new XAPrepareEventData();
        byte[] g = "gtrid-secret".getBytes(StandardCharsets.US_ASCII);
        d.setData(g);
        d.setGtridLength(g.length);
        d.setBqualLength(0);
        d.setFormatID(1);
        d.setOnePhase(true);
        BinlogEvent.XaPrepare e =
                (BinlogEvent.XaPrepare)
                        BinlogEventAdapter.translate(event(EventType.XA_PREPARE, d));
        assertThat(e.readable()).isTrue();
        assertThat(e.onePhase()).isTrue();
        assertThat(e.formatId()).isEqualTo(1);
        assertThat(e.gtridLength()).isEqualTo(g.length);
        assertThat(e.bqualLength()).isZero();
        assertThat(e.data()).isSameAs(g);
        assertThat(e.toString()).doesNotContain("gtrid-secret");
        BinlogEvent.XaPrepare unreadable =
                (BinlogEvent.XaPrepare)
                        BinlogEventAdapter.translate(event(EventType.XA_PREPARE, null));
        assertThat(unreadable.readable()).isFalse();
    }

    @Test
    void aRotateAFormatDescriptionAndAHeartbeat() {
        RotateEventData r = new RotateEventData();
        r.setBinlogFilename("mysql-bin.000007");
        r.setBinlogPosition(4);
        BinlogEvent.Rotate rotate =
                (BinlogEvent.Rotate) BinlogEventAdapter.translate(event(EventType.ROTATE, r));
        assertThat(rotate.binlogFilename()).isEqualTo("mysql-bin.000007");
        assertThat(rotate.binlogPosition()).isEqualTo(4);

        FormatDescriptionEventData f = new FormatDescriptionEventData();
        f.setServerVersion("8.0.36");
        BinlogEvent.FormatDescription fd =
                (BinlogEvent.FormatDescription)
                        BinlogEventAdapter.translate(event(EventType.FORMAT_DESCRIPTION, f));
        assertThat(fd.serverVersion()).isEqualTo("8.0.36");

        assertThat(BinlogEventAdapter.translate(event(EventType.HEARTBEAT, null)))
                .isInstanceOf(BinlogEvent.Heartbeat.class);
    }

    @Test
    void aCompressedTransactionYieldsItsInnerEventsTranslated() throws IOException {
        CompressedTransaction payload =
                new CompressedTransaction(
                        new ByteArrayInputStream(new byte[0]), new EventDeserializer());
        BinlogEvent.TransactionPayload e =
                (BinlogEvent.TransactionPayload)
                        BinlogEventAdapter.translate(event(EventType.TRANSACTION_PAYLOAD, payload));
        assertThat(e.inner()).isNotNull();
        assertThat(e.inner().next()).isNull();
        BinlogEvent.TransactionPayload undecoded =
                (BinlogEvent.TransactionPayload)
                        BinlogEventAdapter.translate(
                                event(
                                        EventType.TRANSACTION_PAYLOAD,
                                        new TransactionPayloadEventData()));
        assertThat(undecoded.inner()).isNull();
    }

    @Test
    void anyOtherTypeKeepsItsTypeName() {
        for (EventType t :
                new EventType[] {
                    EventType.ANONYMOUS_GTID,
                    EventType.INCIDENT,
                    EventType.EXECUTE_LOAD_QUERY,
                    EventType.PREVIOUS_GTIDS,
                    EventType.ROWS_QUERY,
                    EventType.UNKNOWN
                }) {
            BinlogEvent e = BinlogEventAdapter.translate(event(t, null));
            assertThat(((BinlogEvent.Other) e).type()).isEqualTo(t.name());
        }
    }

    @Test
    void aMappedTypeWithAnotherBodyIsRefused() {
        assertThatThrownBy(() -> BinlogEventAdapter.translate(event(EventType.GTID, null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GTID")
                .hasMessageContaining("no body");
        QueryEventData q = new QueryEventData();
        q.setSql("INSERT INTO t VALUES ('hunter2')");
        assertThatThrownBy(() -> BinlogEventAdapter.translate(event(EventType.XID, q)))
                .isInstanceOf(IllegalStateException.class)
                .message()
                .doesNotContain("hunter2");
    }
}

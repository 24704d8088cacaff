package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.stream.event.BinlogEvent;
import io.capstan.flink.mysql.stream.event.BinlogEvent.RowsKind;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;

import java.util.List;

/**
 * Turns a binlog library {@link Event} into capstan's {@link BinlogEvent}: one record per event,
 * holding the library's decoded arrays and row lists as they are (no copy, no per-cell work). A
 * type without a record of its own arrives as {@link BinlogEvent.Other} under the library's type
 * name, so a halt on a type still sees it. An event of a mapped type whose body is not the one its
 * type needs is refused with an exception rather than passed on as something else.
 */
final class BinlogEventAdapter {

    private BinlogEventAdapter() {}

    static BinlogEvent translate(Event event) {
        EventHeader header = event.getHeader();
        EventType type = header.getEventType();
        BinlogEvent.Header h = header(header);
        EventData data = event.getData();
        switch (type) {
            case GTID:
                {
                    GtidEventData d = expect(GtidEventData.class, data, type);
                    MySqlGtid g = d.getMySqlGtid();
                    return new BinlogEvent.Gtid(
                            h,
                            g.getServerId().toString(),
                            g.getTransactionId(),
                            d.getOriginalCommitTimestamp(),
                            d.getLastCommitted(),
                            d.getSequenceNumber());
                }
            case QUERY:
                {
                    QueryEventData d = expect(QueryEventData.class, data, type);
                    return new BinlogEvent.Query(h, d.getDatabase(), d.getSql());
                }
            case XID:
                {
                    XidEventData d = expect(XidEventData.class, data, type);
                    return new BinlogEvent.Xid(h, d.getXid());
                }
            case TABLE_MAP:
                {
                    TableMapEventData d = expect(TableMapEventData.class, data, type);
                    TableMapEventMetadata md = d.getEventMetadata();
                    return new BinlogEvent.TableMap(
                            h,
                            d.getTableId(),
                            d.getDatabase(),
                            d.getTable(),
                            d.getColumnTypes(),
                            d.getColumnMetadata(),
                            d.getColumnNullability(),
                            md == null ? null : new LibraryMetadata(md));
                }
            case WRITE_ROWS:
            case EXT_WRITE_ROWS:
            case UPDATE_ROWS:
            case EXT_UPDATE_ROWS:
            case DELETE_ROWS:
            case EXT_DELETE_ROWS:
                return rows(h, data, type);
            case PARTIAL_UPDATE_ROWS_EVENT:
                if (data instanceof SkippedRowsEventData) {
                    return new BinlogEvent.Rows(
                            h,
                            RowsKind.SKIPPED_PARTIAL_UPDATE,
                            ((SkippedRowsEventData) data).tableId(),
                            null,
                            null,
                            List.of(),
                            List.of());
                }
                return new BinlogEvent.Other(h, type.name());
            case XA_PREPARE:
                return xaPrepare(h, data);
            case ROTATE:
                {
                    RotateEventData d = expect(RotateEventData.class, data, type);
                    return new BinlogEvent.Rotate(h, d.getBinlogFilename(), d.getBinlogPosition());
                }
            case FORMAT_DESCRIPTION:
                {
                    FormatDescriptionEventData d =
                            expect(FormatDescriptionEventData.class, data, type);
                    return new BinlogEvent.FormatDescription(h, d.getServerVersion());
                }
            case TRANSACTION_PAYLOAD:
                {
                    // Only a deserializer other than BinlogClientFactory's leaves the payload
                    // undecoded: the assembler refuses it.
                    BinlogEvent.InnerEvents inner =
                            data instanceof CompressedTransaction
                                    ? innerEvents((CompressedTransaction) data)
                                    : null;
                    return new BinlogEvent.TransactionPayload(h, inner);
                }
            case HEARTBEAT:
                return new BinlogEvent.Heartbeat(h);
            default:
                return new BinlogEvent.Other(h, type.name());
        }
    }

    /** An XA_PREPARE event, for the one handler that reads it before the rest of assembly. */
    static BinlogEvent.XaPrepare xaPrepare(Event event) {
        return xaPrepare(header(event.getHeader()), event.getData());
    }

    private static BinlogEvent.XaPrepare xaPrepare(BinlogEvent.Header h, EventData data) {
        if (!(data instanceof XAPrepareEventData)) {
            // The assembler refuses an XA part it cannot identify.
            return new BinlogEvent.XaPrepare(h, false, false, 0, 0, 0, null);
        }
        XAPrepareEventData d = (XAPrepareEventData) data;
        return new BinlogEvent.XaPrepare(
                h,
                true,
                d.isOnePhase(),
                d.getFormatID(),
                d.getGtridLength(),
                d.getBqualLength(),
                d.getData());
    }

    private static BinlogEvent.Header header(EventHeader header) {
        return header instanceof EventHeaderV4 v4
                ? new BinlogEvent.Header(
                        v4.getTimestamp(), v4.getServerId(), v4.getPosition(), v4.getNextPosition())
                : new BinlogEvent.Header(header.getTimestamp(), header.getServerId(), 0, 0);
    }

    private static BinlogEvent rows(BinlogEvent.Header h, EventData data, EventType type) {
        if (data instanceof SkippedRowsEventData) {
            return new BinlogEvent.Rows(
                    h,
                    RowsKind.SKIPPED,
                    ((SkippedRowsEventData) data).tableId(),
                    null,
                    null,
                    List.of(),
                    List.of());
        }
        if (data instanceof WriteRowsEventData) {
            WriteRowsEventData d = (WriteRowsEventData) data;
            return new BinlogEvent.Rows(
                    h,
                    RowsKind.WRITE,
                    d.getTableId(),
                    d.getIncludedColumns(),
                    null,
                    d.getRows(),
                    List.of());
        }
        if (data instanceof UpdateRowsEventData) {
            UpdateRowsEventData d = (UpdateRowsEventData) data;
            return new BinlogEvent.Rows(
                    h,
                    RowsKind.UPDATE,
                    d.getTableId(),
                    d.getIncludedColumns(),
                    d.getIncludedColumnsBeforeUpdate(),
                    List.of(),
                    d.getRows());
        }
        DeleteRowsEventData d = expect(DeleteRowsEventData.class, data, type);
        return new BinlogEvent.Rows(
                h,
                RowsKind.DELETE,
                d.getTableId(),
                d.getIncludedColumns(),
                null,
                d.getRows(),
                List.of());
    }

    private static BinlogEvent.InnerEvents innerEvents(CompressedTransaction payload) {
        return () -> {
            Event inner = payload.next();
            return inner == null ? null : translate(inner);
        };
    }

    private static <T extends EventData> T expect(Class<T> kind, EventData data, EventType type) {
        if (!kind.isInstance(data)) {
            // Names the classes only: an event body may hold row values or statement text.
            throw new IllegalStateException(
                    "a "
                            + type
                            + " event arrived with "
                            + (data == null ? "no body" : "a " + data.getClass().getName())
                            + ", not a "
                            + kind.getName());
        }
        return kind.cast(data);
    }

    /** A table map's optional metadata, compared as {@link TableMapShapes} compares it. */
    static final class LibraryMetadata implements BinlogEvent.TableMapMetadata {
        final TableMapEventMetadata metadata;

        LibraryMetadata(TableMapEventMetadata metadata) {
            this.metadata = metadata;
        }

        @Override
        public boolean sameAs(BinlogEvent.TableMapMetadata other) {
            return other instanceof LibraryMetadata
                    && TableMapShapes.sameMetadata(metadata, ((LibraryMetadata) other).metadata);
        }

        @Override
        public String toString() {
            return "LibraryMetadata";
        }
    }
}

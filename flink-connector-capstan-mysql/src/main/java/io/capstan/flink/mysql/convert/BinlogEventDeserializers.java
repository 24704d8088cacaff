package io.capstan.flink.mysql.convert;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.LRUCache;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AnnotateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.BinlogCheckpointEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.DeleteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.FormatDescriptionEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.GtidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.IntVarEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.MariadbGtidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.MariadbGtidListEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.PreviousGtidSetDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.QueryEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.RotateEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.RowsQueryEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.UpdateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.WriteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.XAPrepareEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.XidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.io.Serializable;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The binlog library's {@link EventDeserializer} configured the way {@link RowConverter} expects.
 *
 * <p>Row cells arrive as: TINYINT..INT {@code Integer} and BIGINT {@code Long} (signed; the
 * converter fixes up UNSIGNED), FLOAT {@code Float}, DOUBLE {@code Double},
 * CHAR/VARCHAR/BINARY/VARBINARY/BLOB/TEXT/JSON/GEOMETRY {@code byte[]} ({@code
 * CHAR_AND_BINARY_AS_BYTE_ARRAY}; the converter decodes with the column's charset), ENUM {@code
 * Integer} index, SET {@code Long} bit mask, and BIT/DATE/TIME/DATETIME/TIMESTAMP/YEAR/DECIMAL as
 * {@link BinlogCells} documents (decoded here because the library loses the sign of negative TIME
 * values, treats YEAR 0 as 1900, handles pre-1582 dates in the Julian calendar, and builds each
 * DECIMAL through a chain of BigDecimal operations, which a compact one does not need).
 *
 * <p>TRANSACTION_PAYLOAD is not registered here: the streamer reads it with {@link
 * TransactionPayloads} and decodes the inner events with this same configuration, one at a time.
 */
@Internal
public final class BinlogEventDeserializers {

    private BinlogEventDeserializers() {}

    public static EventDeserializer create() {
        Map<Long, TableMapEventData> tableMaps = new LRUCache<>(100, 0.75f, 10000);
        Map<EventType, EventDataDeserializer> d = new IdentityHashMap<>();
        d.put(EventType.FORMAT_DESCRIPTION, new FormatDescriptionEventDataDeserializer());
        d.put(EventType.ROTATE, new RotateEventDataDeserializer());
        d.put(EventType.INTVAR, new IntVarEventDataDeserializer());
        d.put(EventType.QUERY, new QueryEventDataDeserializer());
        d.put(EventType.TABLE_MAP, new TableMapEventDataDeserializer());
        d.put(EventType.XID, new XidEventDataDeserializer());
        d.put(EventType.WRITE_ROWS, new WriteRows(tableMaps));
        d.put(EventType.UPDATE_ROWS, new UpdateRows(tableMaps));
        d.put(EventType.DELETE_ROWS, new DeleteRows(tableMaps));
        d.put(
                EventType.EXT_WRITE_ROWS,
                new WriteRows(tableMaps).setMayContainExtraInformation(true));
        d.put(
                EventType.EXT_UPDATE_ROWS,
                new UpdateRows(tableMaps).setMayContainExtraInformation(true));
        d.put(
                EventType.EXT_DELETE_ROWS,
                new DeleteRows(tableMaps).setMayContainExtraInformation(true));
        d.put(EventType.ROWS_QUERY, new RowsQueryEventDataDeserializer());
        d.put(EventType.GTID, new GtidEventDataDeserializer());
        // same layout, no GTID: a server without GTIDs starts each transaction with one
        d.put(EventType.ANONYMOUS_GTID, new GtidEventDataDeserializer());
        d.put(EventType.PREVIOUS_GTIDS, new PreviousGtidSetDeserializer());
        d.put(EventType.XA_PREPARE, new XAPrepareEventDataDeserializer());
        d.put(EventType.ANNOTATE_ROWS, new AnnotateRowsEventDataDeserializer());
        d.put(EventType.MARIADB_GTID, new MariadbGtidEventDataDeserializer());
        d.put(EventType.BINLOG_CHECKPOINT, new BinlogCheckpointEventDataDeserializer());
        d.put(EventType.MARIADB_GTID_LIST, new MariadbGtidListEventDataDeserializer());
        EventDeserializer deserializer = new SignednessPaddingEventDeserializer(d, tableMaps);
        deserializer.setCompatibilityMode(
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return deserializer;
    }

    /** Shared by the three rows deserializers: the cells decoded here instead of the library. */
    static Serializable decode(ColumnType type, int meta, ByteArrayInputStream in)
            throws IOException {
        switch (type) {
            case BIT:
                return BinlogCells.bit(meta, in);
            case DATE:
                return BinlogCells.date(in);
            case TIME_V2:
                return BinlogCells.time2(meta, in);
            case DATETIME_V2:
                return BinlogCells.datetime2(meta, in);
            case TIMESTAMP_V2:
                return BinlogCells.timestamp2(meta, in);
            case YEAR:
                return BinlogCells.year(in);
            case NEWDECIMAL:
                return BinlogCells.newDecimal(meta, in);
            default:
                return null;
        }
    }

    static boolean decodedHere(ColumnType type) {
        switch (type) {
            case BIT:
            case DATE:
            case TIME_V2:
            case DATETIME_V2:
            case TIMESTAMP_V2:
            case YEAR:
            case NEWDECIMAL:
                return true;
            default:
                return false;
        }
    }

    private static final class WriteRows extends WriteRowsEventDataDeserializer {
        WriteRows(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeCell(
                ColumnType type, int meta, int length, ByteArrayInputStream in) throws IOException {
            return decodedHere(type)
                    ? decode(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    private static final class UpdateRows extends UpdateRowsEventDataDeserializer {
        UpdateRows(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeCell(
                ColumnType type, int meta, int length, ByteArrayInputStream in) throws IOException {
            return decodedHere(type)
                    ? decode(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }

    private static final class DeleteRows extends DeleteRowsEventDataDeserializer {
        DeleteRows(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeCell(
                ColumnType type, int meta, int length, ByteArrayInputStream in) throws IOException {
            return decodedHere(type)
                    ? decode(type, meta, in)
                    : super.deserializeCell(type, meta, length, in);
        }
    }
}

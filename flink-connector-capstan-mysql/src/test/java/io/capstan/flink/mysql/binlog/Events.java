package io.capstan.flink.mysql.binlog;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Hand-built binlog events for unit tests of the pure parts. Tables have INT columns only. */
final class Events {

    static final String UUID_A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    static final String UUID_B = "4e11fa47-71ca-11e1-9e33-c80aa9429562";

    private Events() {}

    static Event event(EventType type, EventData data) {
        EventHeaderV4 header = new EventHeaderV4();
        header.setEventType(type);
        header.setTimestamp(1_700_000_000_000L);
        return new Event(header, data);
    }

    static Event gtid(String uuid, long n, long commitMicros) {
        return event(
                EventType.GTID,
                new GtidEventData(
                        new MySqlGtid(UUID.fromString(uuid), n),
                        (byte) 0,
                        0,
                        0,
                        commitMicros,
                        commitMicros,
                        0,
                        0,
                        0));
    }

    /** MySQL's transaction start without a GTID ({@code gtid_mode} other than ON). */
    static Event anonymousGtid() {
        return event(
                EventType.ANONYMOUS_GTID,
                new GtidEventData(
                        new MySqlGtid(new UUID(0, 0), 0), (byte) 0, 0, 0, 1L, 1L, 0, 0, 0));
    }

    /** The FORMAT_DESCRIPTION a stream opens with: {@code 8.0.36}, {@code 10.11.6-MariaDB-log}. */
    static Event formatDescription(String serverVersion) {
        FormatDescriptionEventData d = new FormatDescriptionEventData();
        d.setServerVersion(serverVersion);
        return event(EventType.FORMAT_DESCRIPTION, d);
    }

    /** MariaDB's transaction start {@code domain-server-sequence} with {@code flags}. */
    static Event mariaDbGtid(long domain, long server, long sequence, int flags) {
        MariadbGtidEventData d = new MariadbGtidEventData();
        d.setDomainId(domain);
        d.setServerId(server);
        d.setSequence(sequence);
        d.setFlags(flags);
        return event(EventType.MARIADB_GTID, d);
    }

    static Event query(String sql) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase("db");
        return event(EventType.QUERY, q);
    }

    static Event xid() {
        XidEventData x = new XidEventData();
        x.setXid(7);
        return event(EventType.XID, x);
    }

    static Event xaPrepare() {
        return event(EventType.XA_PREPARE, new XAPrepareEventData());
    }

    /**
     * A table map for {@code db.table} with {@code columns} signed INT columns named c0.., key c0.
     */
    static Event tableMap(long tableId, String db, String table, int columns) {
        return event(EventType.TABLE_MAP, tableMapData(tableId, db, table, columns));
    }

    static TableMapEventData tableMapData(long tableId, String db, String table, int columns) {
        TableMapEventData t = new TableMapEventData();
        t.setTableId(tableId);
        t.setDatabase(db);
        t.setTable(table);
        byte[] types = new byte[columns];
        Arrays.fill(types, (byte) ColumnType.LONG.getCode());
        t.setColumnTypes(types);
        t.setColumnMetadata(new int[columns]);
        BitSet nullable = new BitSet();
        nullable.set(1, columns);
        t.setColumnNullability(nullable);
        TableMapEventMetadata m = new TableMapEventMetadata();
        m.setSignedness(new BitSet());
        List<String> names = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            names.add("c" + i);
        }
        m.setColumnNames(names);
        m.setSimplePrimaryKeys(List.of(0));
        t.setEventMetadata(m);
        return t;
    }

    static Serializable[] row(int... values) {
        Serializable[] r = new Serializable[values.length];
        for (int i = 0; i < values.length; i++) {
            r[i] = values[i];
        }
        return r;
    }

    static BitSet all(int columns) {
        BitSet b = new BitSet();
        b.set(0, columns);
        return b;
    }

    static Event insert(long tableId, Serializable[]... rows) {
        WriteRowsEventData w = new WriteRowsEventData();
        w.setTableId(tableId);
        w.setIncludedColumns(all(rows[0].length));
        w.setRows(new ArrayList<>(Arrays.asList(rows)));
        return event(EventType.EXT_WRITE_ROWS, w);
    }

    static Event update(long tableId, Serializable[] before, Serializable[] after) {
        UpdateRowsEventData u = new UpdateRowsEventData();
        u.setTableId(tableId);
        u.setIncludedColumnsBeforeUpdate(all(before.length));
        u.setIncludedColumns(all(after.length));
        List<Map.Entry<Serializable[], Serializable[]>> rows = new ArrayList<>();
        rows.add(new AbstractMap.SimpleEntry<>(before, after));
        u.setRows(rows);
        return event(EventType.EXT_UPDATE_ROWS, u);
    }

    static Event delete(long tableId, Serializable[]... rows) {
        DeleteRowsEventData d = new DeleteRowsEventData();
        d.setTableId(tableId);
        d.setIncludedColumns(all(rows[0].length));
        d.setRows(new ArrayList<>(Arrays.asList(rows)));
        return event(EventType.EXT_DELETE_ROWS, d);
    }

    static Event skippedRows(long tableId) {
        return event(EventType.EXT_WRITE_ROWS, new SkippedRowsEventData(tableId));
    }
}

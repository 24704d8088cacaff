package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Test helper: dumps the binlog after a GTID set with a plain BinaryLogClient (our deserializer
 * config) and keeps the table maps and row images of one database, until a condition holds.
 */
final class BinlogCapture {

    /** One row change: kind is "insert", "update" or "delete"; before/after as decoded. */
    static final class Change {
        final TableId table;
        final String kind;
        final Serializable[] before;
        final Serializable[] after;

        Change(TableId table, String kind, Serializable[] before, Serializable[] after) {
            this.table = table;
            this.kind = kind;
            this.before = before;
            this.after = after;
        }
    }

    final Map<TableId, TableMapEventData> tableMaps = new HashMap<>();
    final List<Change> changes = new ArrayList<>();

    static BinlogCapture capture(
            MySqlConnectionConfig user,
            String database,
            String gtidSet,
            Predicate<BinlogCapture> done)
            throws Exception {
        return capture(user, database, new String[] {gtidSet}, done);
    }

    /**
     * @param start a GTID set alone, or a binlog file name and offset (a server without GTIDs, such
     *     as MariaDB in position mode)
     */
    static BinlogCapture capture(
            MySqlConnectionConfig user,
            String database,
            String[] start,
            Predicate<BinlogCapture> done)
            throws Exception {
        BinlogCapture capture = new BinlogCapture();
        BinaryLogClient client =
                new BinaryLogClient(user.hostname(), user.port(), user.username(), user.password());
        client.setServerId(100_000 + ThreadLocalRandom.current().nextInt(1_000_000));
        if (start.length == 1) {
            client.setGtidSet(start[0]);
        } else {
            client.setBinlogFilename(start[0]);
            client.setBinlogPosition(Long.parseLong(start[1]));
        }
        client.setKeepAlive(false);
        client.setEventDeserializer(BinlogEventDeserializers.create());
        Map<Long, TableId> ids = new HashMap<>();
        Object lock = new Object();
        List<Exception> failures = new ArrayList<>();
        client.registerEventListener(
                event -> {
                    synchronized (lock) {
                        capture.accept(event, database, ids);
                        lock.notifyAll();
                    }
                });
        client.registerLifecycleListener(
                new BinaryLogClient.AbstractLifecycleListener() {
                    @Override
                    public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
                        synchronized (lock) {
                            failures.add(ex);
                            lock.notifyAll();
                        }
                    }
                });
        client.connect(TimeUnit.SECONDS.toMillis(30));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            synchronized (lock) {
                while (!done.test(capture) && failures.isEmpty()) {
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        throw new AssertionError(
                                "binlog capture timed out with "
                                        + capture.changes.size()
                                        + " changes");
                    }
                    lock.wait(left);
                }
            }
            if (!failures.isEmpty()) {
                throw failures.get(0);
            }
        } finally {
            client.disconnect();
        }
        return capture;
    }

    private void accept(Event event, String database, Map<Long, TableId> ids) {
        EventData data = event.getData();
        if (data instanceof TableMapEventData) {
            TableMapEventData tm = (TableMapEventData) data;
            if (tm.getDatabase().equals(database)) {
                TableId id = TableId.of(tm.getDatabase(), tm.getTable());
                ids.put(tm.getTableId(), id);
                tableMaps.put(id, tm);
            }
        } else if (data instanceof WriteRowsEventData) {
            WriteRowsEventData w = (WriteRowsEventData) data;
            TableId id = ids.get(w.getTableId());
            if (id != null) {
                for (Serializable[] row : w.getRows()) {
                    changes.add(new Change(id, "insert", null, row));
                }
            }
        } else if (data instanceof UpdateRowsEventData) {
            UpdateRowsEventData u = (UpdateRowsEventData) data;
            TableId id = ids.get(u.getTableId());
            if (id != null) {
                for (Map.Entry<Serializable[], Serializable[]> row : u.getRows()) {
                    changes.add(new Change(id, "update", row.getKey(), row.getValue()));
                }
            }
        } else if (data instanceof DeleteRowsEventData) {
            DeleteRowsEventData d = (DeleteRowsEventData) data;
            TableId id = ids.get(d.getTableId());
            if (id != null) {
                for (Serializable[] row : d.getRows()) {
                    changes.add(new Change(id, "delete", row, null));
                }
            }
        }
    }

    long count(String table, String kind) {
        return changes.stream()
                .filter(c -> c.table.table().equals(table) && c.kind.equals(kind))
                .count();
    }
}

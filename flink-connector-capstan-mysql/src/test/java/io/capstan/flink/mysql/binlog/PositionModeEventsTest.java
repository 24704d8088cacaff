package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.anonymousGtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server without GTIDs: transactions get their start position's ordinal, the processed set grows
 * by position and keeps a held XA part out, a restart resumes at that hole and drops what follows
 * and was already processed, and rotations move the set to the next file.
 */
class PositionModeEventsTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T_ORDERS = 101;
    private static final String FILE_3 = "binlog.000003";
    private static final BinlogPositionAxis AXIS = BinlogPositionAxis.of(UUID_A);

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();
    private PositionModeEvents positions;

    private TransactionAssembler assembler(BinlogStartPosition start) {
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(ORDERS::equals, metrics),
                        start,
                        null,
                        metrics,
                        out::add,
                        DdlObserver.NONE,
                        TruncateHandling.HALT,
                        1000,
                        false);
        positions = PositionModeEvents.inFrontOf(a, start);
        return a;
    }

    /** Feeds events laid out one after the other from {@code offset}; returns the end offset. */
    private long feed(TransactionAssembler a, long offset, Event... events) throws Exception {
        for (Event e : events) {
            EventHeaderV4 h = e.getHeader();
            long length = 50;
            h.setEventLength(length);
            h.setNextPosition(offset + length);
            offset += length;
            Event t = positions.translate(e, a.processed());
            if (t != null) {
                a.onEvent(t);
            }
        }
        return offset;
    }

    private static Event rotate(String file, long position) {
        RotateEventData d = new RotateEventData();
        d.setBinlogFilename(file);
        d.setBinlogPosition(position);
        return Events.event(EventType.ROTATE, d);
    }

    private static Event[] xaPart(String xid, int id) {
        XAPrepareEventData d = new XAPrepareEventData();
        byte[] g = xid.getBytes(StandardCharsets.US_ASCII);
        d.setData(g);
        d.setGtridLength(g.length);
        d.setBqualLength(0);
        d.setFormatID(1);
        return new Event[] {
            anonymousGtid(),
            query("XA START X'" + hex(xid) + "',X'',1"),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(id, 0)),
            query("XA END X'" + hex(xid) + "',X'',1"),
            Events.event(EventType.XA_PREPARE, d)
        };
    }

    private static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.US_ASCII)) {
            b.append(String.format("%02x", x));
        }
        return b.toString();
    }

    private static Event[] ordinary(int id) {
        return new Event[] {
            anonymousGtid(),
            query("BEGIN"),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(id, 0)),
            xid()
        };
    }

    private List<Integer> emittedIds() {
        List<Integer> ids = new ArrayList<>();
        for (BinlogRecord r : out) {
            if (r instanceof RowChange c) {
                ids.add(c.after().getInt(0));
            }
        }
        return ids;
    }

    @Test
    void aHeldXaPartIsAHoleWhereTheStreamResumesAndWhatFollowsIsNotEmittedTwice() throws Exception {
        Position start = new Position(3, 200);
        TransactionAssembler a = assembler(BinlogStartPosition.of(AXIS.before(start)));
        feed(a, 0, rotate(FILE_3, 200)); // the connection's first event names the file
        long afterXa = feed(a, 200, xaPart("x1", 1));
        long afterOrdinary = feed(a, afterXa, ordinary(2));

        assertThat(emittedIds()).containsExactly(2);
        GtidSet processed = a.processed();
        assertThat(processed.contains(AXIS.transactionAt(start))).as("the held part").isFalse();
        assertThat(processed.contains(AXIS.transactionAt(new Position(3, afterXa)))).isTrue();
        assertThat(AXIS.firstMissing(processed)).isEqualTo(start);
        // every position read but the hole: the next transaction's ordinal is the first after
        assertThat(
                        processed.containsAll(
                                AXIS.before(new Position(3, afterOrdinary))
                                        .subtract(GtidSet.of(AXIS.transactionAt(start)))))
                .isTrue();

        // A restart: the stream resends from the hole, the ordinary transaction comes again.
        BinlogStartPosition resume = a.resumePosition();
        a.restartFrom(resume);
        positions.listed(
                new BinlogFiles(
                        UUID_A,
                        "OFF",
                        List.of(new BinlogFiles.File(FILE_3, afterOrdinary)),
                        new Position(3, afterOrdinary)));
        BinaryLogClient client = new BinaryLogClient("db.example", 3306, "capstan", "secret");
        positions.connect(
                client,
                resume,
                null,
                MySqlConnectionConfig.builder()
                        .hostname("db.example")
                        .port(3306)
                        .username("capstan")
                        .password("secret")
                        .build());
        assertThat(client.getBinlogFilename()).isEqualTo(FILE_3);
        assertThat(client.getBinlogPosition()).as("the hole").isEqualTo(200);
        feed(a, 0, rotate(FILE_3, 200));
        feed(a, 200, xaPart("x1", 1));
        long end = feed(a, afterXa, ordinary(2));
        assertThat(end).isEqualTo(afterOrdinary);
        assertThat(emittedIds()).as("the processed transaction is dropped").containsExactly(2);
        long afterCommit =
                feed(
                        a,
                        afterOrdinary,
                        anonymousGtid(),
                        query("XA COMMIT X'" + hex("x1") + "',X'',1"));

        assertThat(emittedIds()).containsExactly(2, 1);
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(3, afterCommit)));
    }

    @Test
    void aRotationMovesTheProcessedSetToTheNextFilesStart() throws Exception {
        TransactionAssembler a = assembler(BinlogStartPosition.of(AXIS.before(new Position(3, 4))));
        feed(a, 0, rotate(FILE_3, 4));
        long end = feed(a, 4, ordinary(5));
        feed(a, end, rotate("binlog.000004", 4));
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(4, 4)));
        assertThat(AXIS.firstMissing(a.processed())).isEqualTo(new Position(4, 4));
        long next = feed(a, 4, ordinary(6));
        assertThat(emittedIds()).containsExactly(5, 6);
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(4, next)));
        RowChange second =
                out.stream()
                        .filter(r -> r instanceof RowChange)
                        .map(r -> (RowChange) r)
                        .skip(1)
                        .findFirst()
                        .orElseThrow();
        assertThat(second.gtid()).isEqualTo(AXIS.transactionAt(new Position(4, 4)));
        // every growth reaches the reader: the last end carries the set as the stream has it
        TransactionEnd last = (TransactionEnd) out.get(out.size() - 1);
        assertThat(last.processedAfter()).isEqualTo(a.processed());
        assertThat(out.stream().filter(r -> r instanceof TransactionEnd).count())
                .as("two transactions and the rotation")
                .isEqualTo(3);
    }

    @Test
    void aDroppedTransactionEndsAtAnEventNoTransactionHolds() throws Exception {
        GtidSet processed = AXIS.before(new Position(3, 900));
        feed(assembler(BinlogStartPosition.of(processed)), 0, rotate(FILE_3, 200));
        Event start = anonymousGtid();
        EventHeaderV4 h = start.getHeader();
        h.setEventLength(50);
        h.setNextPosition(250);
        assertThat(positions.translate(start, processed)).as("processed: dropped").isNull();
        assertThat(positions.translate(insert(T_ORDERS, row(1, 0)), processed)).isNull();
        // an event of a kind no transaction holds: what follows is read again, never dropped
        assertThat(positions.translate(Events.event(EventType.VIEW_CHANGE, null), processed))
                .isNotNull();
        assertThat(positions.translate(insert(T_ORDERS, row(2, 0)), processed)).isNotNull();
    }
}

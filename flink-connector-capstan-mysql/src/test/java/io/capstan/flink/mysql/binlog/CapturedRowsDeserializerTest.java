package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.Serializable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The event deserializer the streamer installs, fed with raw event bytes. */
class CapturedRowsDeserializerTest {

    private static final long CAPTURED = 70;
    private static final long UNCAPTURED = 71;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final TableSchemaCache tables =
            new TableSchemaCache(t -> t.equals(TableId.of("db", "kept")), metrics);

    private EventDeserializer deserializer(int columns) {
        tables.onTableMap(Events.tableMapData(CAPTURED, "db", "kept", columns));
        tables.onTableMap(Events.tableMapData(UNCAPTURED, "db", "other", columns));
        return BinlogClientFactory.eventDeserializer(tables, metrics);
    }

    @Test
    void capturedRowsAreDecodedAndUncapturedRowsSkippedWithoutLosingTheStreamPosition()
            throws Exception {
        EventDeserializer d = deserializer(3);
        byte[] bytes =
                new EventBytes()
                        .tableMap(CAPTURED, "db", "kept", 3)
                        .tableMap(UNCAPTURED, "db", "other", 3)
                        .writeRows(UNCAPTURED, 3, 5)
                        .writeRows(CAPTURED, 3, 2)
                        .bytes();
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        assertThat(d.nextEvent(in).getHeader().getEventType()).isEqualTo(EventType.TABLE_MAP);
        assertThat(d.nextEvent(in).getHeader().getEventType()).isEqualTo(EventType.TABLE_MAP);

        Event skipped = d.nextEvent(in);
        assertThat((Object) skipped.getData()).isInstanceOf(SkippedRowsEventData.class);
        assertThat(((SkippedRowsEventData) (Object) skipped.getData()).tableId())
                .isEqualTo(UNCAPTURED);

        Event decoded = d.nextEvent(in);
        WriteRowsEventData rows = (WriteRowsEventData) decoded.getData();
        assertThat(rows.getTableId()).isEqualTo(CAPTURED);
        assertThat(rows.getRows()).hasSize(2);
        Serializable[] second = rows.getRows().get(1);
        assertThat(((Number) second[0]).intValue()).isEqualTo(1000);
        assertThat(((Number) second[2]).intValue()).isEqualTo(1002);
        assertThat(d.nextEvent(in)).isNull();
        assertThat(metrics.uncapturedRowsEventsSkipped()).isEqualTo(1);
    }

    @Test
    void rowsOfATableIdWithoutTableMapHalt() {
        EventDeserializer d = deserializer(3);
        byte[] bytes = new EventBytes().writeRows(4242, 3, 1).bytes();
        assertThatThrownBy(() -> d.nextEvent(new ByteArrayInputStream(bytes)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.UNMAPPED_TABLE_ID);
                            assertThat(e.getMessage()).contains("4242");
                        });
    }

    /**
     * Timing note, not an assertion: how much skipping an uncaptured table's rows saves against
     * decoding them, for rows events of 100 rows x 30 INT columns. Printed to the test output.
     */
    @Test
    void timingNoteSkipVersusDecode() throws Exception {
        int columns = 30;
        EventDeserializer d = deserializer(columns);
        byte[] captured =
                new EventBytes()
                        .tableMap(CAPTURED, "db", "kept", columns)
                        .writeRows(CAPTURED, columns, 100)
                        .bytes();
        byte[] uncaptured =
                new EventBytes()
                        .tableMap(UNCAPTURED, "db", "other", columns)
                        .writeRows(UNCAPTURED, columns, 100)
                        .bytes();
        EventDeserializer plain = io.capstan.flink.mysql.convert.BinlogEventDeserializers.create();
        long sink = 0;
        long[] best = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        for (int round = 0; round < 5; round++) {
            for (int which = 0; which < 3; which++) {
                byte[] bytes = which == 1 ? uncaptured : captured;
                EventDeserializer des = which == 2 ? plain : d;
                long t0 = System.nanoTime();
                for (int i = 0; i < 2000; i++) {
                    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
                    des.nextEvent(in);
                    sink += des.nextEvent(in).getHeader().getDataLength();
                }
                best[which] = Math.min(best[which], (System.nanoTime() - t0) / 2000);
            }
        }
        System.out.printf(
                "rows event of 100 rows x %d INT columns: decoded %d ns/event, skipped %d ns/event,"
                        + " plain library deserializer %d ns/event (table map included in all) [%d]%n",
                columns, best[0], best[1], best[2], sink % 2);
    }
}

package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.binlog.EventBytes;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.BinlogSchemaReader;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import com.github.luben.zstd.Zstd;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A compressed transaction decodes with the same cell shapes as the plain stream. The inner events
 * are a TABLE_MAP and a WRITE_ROWS captured from MySQL 8.0.15 (binlog_row_metadata=FULL, checksums
 * stripped as inside a payload) for {@code CREATE TABLE p.f (id int primary key, f float, d double,
 * f2 float(10,3), y year, t time(6), b bit(10), bi binary(4), c char(5) charset latin1)}.
 */
class TransactionPayloadsTest {

    @Test
    void innerEventsUseOurCellShapes() throws Exception {
        byte[] events = EventBytes.capturedFloatTableEvents();
        byte[] compressed = Zstd.compress(events);
        byte[] body = EventBytes.payloadBody(compressed, TransactionPayloads.ZSTD, events.length);

        List<Event> inner = decode(body);
        assertThat(inner).hasSize(2);
        assertThat(inner.get(0).getHeader().getEventType()).isEqualTo(EventType.TABLE_MAP);
        TableMapEventData tableMap = inner.get(0).getData();
        WriteRowsEventData rows = inner.get(1).getData();
        assertThat(rows.getRows()).hasSize(6);

        TableSchema schema = BinlogSchemaReader.fromTableMap(TableId.of("p", "f"), tableMap, false);
        RowConverter converter = RowConverter.of(schema);
        GenericRowData first = converter.fromBinlog(rows.getRows().get(0));
        assertThat(first.getInt(0)).isEqualTo(1);
        assertThat(first.getFloat(1)).isEqualTo(3.1415927f);
        assertThat(first.getDouble(2)).isEqualTo(0.30000000000000004);
        assertThat(first.getFloat(3)).isEqualTo(1234.568f); // FLOAT(10,3): the stored float
        assertThat(first.getInt(4)).isEqualTo(2020);
        assertThat(first.getLong(5)).isEqualTo(-3_020_399_000_000L); // -838:59:59
        assertThat(first.getBinary(6)).containsExactly(0x02, 0x01);
        assertThat(first.getBinary(7)).containsExactly('a', 0, 0, 0);
        assertThat(first.getString(8)).isEqualTo(StringData.fromString("é€"));

        GenericRowData second = converter.fromBinlog(rows.getRows().get(1));
        assertThat(second.getInt(4)).isZero(); // YEAR 0000
        assertThat(second.getLong(5)).isEqualTo(-500_000L); // '-00:00:00.5'
        assertThat(second.getFloat(1)).isEqualTo(16777216f);
    }

    /** A frame whose declared uncompressed size is not its content's: refused, never cut short. */
    @Test
    void aFrameOfAnotherSizeThanDeclaredIsCorrupt() {
        byte[] events = EventBytes.capturedFloatTableEvents();
        byte[] compressed = Zstd.compress(events);
        for (int declared : new int[] {events.length - 1, events.length + 1}) {
            assertThatThrownBy(
                            () ->
                                    TransactionPayloads.readEvents(
                                            new ByteArrayInputStream(
                                                    EventBytes.payloadBody(
                                                            compressed,
                                                            TransactionPayloads.ZSTD,
                                                            declared)),
                                            new TransactionPayloadEventData()))
                    .as("declared %d of %d", declared, events.length)
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("corrupt zstd transaction payload");
        }
    }

    @Test
    void anUncompressedPayloadIsReadAsItIs() throws Exception {
        byte[] events = EventBytes.capturedFloatTableEvents();
        TransactionPayloadEventData header = new TransactionPayloadEventData();
        byte[] read =
                TransactionPayloads.readEvents(
                        new ByteArrayInputStream(
                                EventBytes.payloadBody(events, TransactionPayloads.NONE, 0)),
                        header);
        assertThat(read).containsExactly(events);
        assertThat(header.getCompressionType()).isEqualTo(TransactionPayloads.NONE);
        assertThat(header.getUncompressedSize()).isEqualTo(events.length);
    }

    /**
     * The inner events, decoded one at a time with the outer stream's configuration (as the
     * streamer does).
     */
    private static List<Event> decode(byte[] body) throws Exception {
        ByteArrayInputStream events =
                new ByteArrayInputStream(
                        TransactionPayloads.readEvents(
                                new ByteArrayInputStream(body), new TransactionPayloadEventData()));
        EventDeserializer inner = BinlogEventDeserializers.create();
        List<Event> decoded = new ArrayList<>();
        for (Event e = inner.nextEvent(events); e != null; e = inner.nextEvent(events)) {
            decoded.add(e);
        }
        return decoded;
    }
}

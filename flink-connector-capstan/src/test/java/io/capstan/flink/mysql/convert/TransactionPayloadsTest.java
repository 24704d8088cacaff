package io.capstan.flink.mysql.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstan.flink.mysql.schema.BinlogSchemaReader;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import com.github.luben.zstd.Zstd;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A compressed transaction decodes with the same cell shapes as the plain stream. The inner
 * events are a TABLE_MAP and a WRITE_ROWS captured from MySQL 8.0.15 (binlog_row_metadata=FULL,
 * checksums stripped as inside a payload) for
 * {@code CREATE TABLE p.f (id int primary key, f float, d double, f2 float(10,3), y year,
 * t time(6), b bit(10), bi binary(4), c char(5) charset latin1)}.
 */
class TransactionPayloadsTest {

    private static final String CAPTURED_EVENTS = "b3b70c6b130100000059000000780300000000550000000000010001700001660009"
            + "030405040d1310fefe0a040804060201fe04fe05fe0101010003023f08041502696401660164026632017901740162"
            + "0262690163080100b3b70c6b1e01000000b70000003304000000005500000000000100020009ffff000001000000db0f"
            + "4940343333333333d33f2d529a44784b91050000000201016102e9800000020000000000804bffffffffffffef7f6f1283"
            + "ba007ffffff85ee000010361626300c801030000009976967e01000000000000000180c000000000f8010400000000008000"
            + "350f63bab4697b43f8010500000038b4964992d54d06cff08044f801060000002e74013948afbc9af2d77abe";

    @Test
    void innerEventsUseOurCellShapes() throws Exception {
        byte[] events = HexFormat.of().parseHex(CAPTURED_EVENTS);
        byte[] compressed = Zstd.compress(events);
        byte[] body = payloadBody(compressed, TransactionPayloads.ZSTD, events.length);

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
        assertThat(first.getFloat(1)).isEqualTo(3.14159f);
        assertThat(first.getDouble(2)).isEqualTo(0.30000000000000004);
        assertThat(first.getFloat(3)).isEqualTo(1234.57f); // FLOAT(10,3): 6 significant digits too
        assertThat(first.getInt(4)).isEqualTo(2020);
        assertThat(first.getLong(5)).isEqualTo(-3_020_399_000_000L); // -838:59:59
        assertThat(first.getBinary(6)).containsExactly(0x02, 0x01);
        assertThat(first.getBinary(7)).containsExactly('a', 0, 0, 0);
        assertThat(first.getString(8)).isEqualTo(StringData.fromString("é€"));

        GenericRowData second = converter.fromBinlog(rows.getRows().get(1));
        assertThat(second.getInt(4)).isZero(); // YEAR 0000
        assertThat(second.getLong(5)).isEqualTo(-500_000L); // '-00:00:00.5'
        assertThat(second.getFloat(1)).isEqualTo(1.67772e7f);
    }

    @Test
    void anUncompressedPayloadIsReadAsItIs() throws Exception {
        byte[] events = HexFormat.of().parseHex(CAPTURED_EVENTS);
        TransactionPayloadEventData header = new TransactionPayloadEventData();
        byte[] read = TransactionPayloads.readEvents(
                new ByteArrayInputStream(payloadBody(events, TransactionPayloads.NONE, 0)), header);
        assertThat(read).containsExactly(events);
        assertThat(header.getCompressionType()).isEqualTo(TransactionPayloads.NONE);
        assertThat(header.getUncompressedSize()).isEqualTo(events.length);
    }

    /** The inner events, decoded one at a time with the outer stream's configuration (as the streamer does). */
    private static List<Event> decode(byte[] body) throws Exception {
        ByteArrayInputStream events = new ByteArrayInputStream(
                TransactionPayloads.readEvents(new ByteArrayInputStream(body), new TransactionPayloadEventData()));
        EventDeserializer inner = BinlogEventDeserializers.create();
        List<Event> decoded = new ArrayList<>();
        for (Event e = inner.nextEvent(events); e != null; e = inner.nextEvent(events)) {
            decoded.add(e);
        }
        return decoded;
    }

    private static byte[] payloadBody(byte[] payload, int compression, int uncompressedSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        field(out, 1, payload.length);
        field(out, 2, compression);
        if (uncompressedSize > 0) {
            field(out, 3, uncompressedSize);
        }
        out.write(0);
        out.writeBytes(payload);
        return out.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, int type, int value) {
        byte[] packed = packed(value);
        out.writeBytes(packed(type));
        out.writeBytes(packed(packed.length));
        out.writeBytes(packed);
    }

    private static byte[] packed(int v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (v < 251) {
            out.write(v);
        } else if (v < 0x10000) {
            out.write(0xFC);
            writeLe(out, v, 2);
        } else {
            out.write(0xFD);
            writeLe(out, v, 3);
        }
        return out.toByteArray();
    }

    private static void writeLe(ByteArrayOutputStream out, long v, int n) {
        for (int i = 0; i < n; i++) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }
}

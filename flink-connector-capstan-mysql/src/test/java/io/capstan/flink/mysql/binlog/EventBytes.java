package io.capstan.flink.mysql.binlog;

import com.github.luben.zstd.Zstd;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Builds raw binlog event bytes (v4 header, no checksum) for deserializer tests. */
public final class EventBytes {

    /**
     * A TABLE_MAP and a WRITE_ROWS of 6 rows captured from MySQL 8.0.15 (binlog_row_metadata=FULL,
     * checksums stripped as inside a transaction payload) for {@code CREATE TABLE p.f (id int
     * primary key, f float, d double, f2 float(10,3), y year, t time(6), b bit(10), bi binary(4), c
     * char(5) charset latin1)}.
     */
    private static final String CAPTURED_FLOAT_TABLE_EVENTS =
            "b3b70c6b130100000059000000780300000000550000000000010001700001660009"
                    + "030405040d1310fefe0a040804060201fe04fe05fe0101010003023f08041502696401660164026632017901740162"
                    + "0262690163080100b3b70c6b1e01000000b70000003304000000005500000000000100020009ffff000001000000db0f"
                    + "4940343333333333d33f2d529a44784b91050000000201016102e9800000020000000000804bffffffffffffef7f6f1283"
                    + "ba007ffffff85ee000010361626300c801030000009976967e01000000000000000180c000000000f8010400000000008000"
                    + "350f63bab4697b43f8010500000038b4964992d54d06cff08044f801060000002e74013948afbc9af2d77abe";

    static final int QUERY = 2;
    static final int XID = 16;
    static final int TABLE_MAP = 19;
    static final int EXT_WRITE_ROWS = 30;
    static final int TRANSACTION_PAYLOAD = 40;
    private static final int LONG_TYPE = 3;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    byte[] bytes() {
        return out.toByteArray();
    }

    EventBytes event(int type, byte[] body) {
        le(out, 1_700_000_000L, 4);
        out.write(type);
        le(out, 1, 4); // server id
        le(out, 19 + body.length, 4);
        le(out, 0, 4); // next position
        le(out, 0, 2); // flags
        out.writeBytes(body);
        return this;
    }

    /** A table map of {@code columns} INT columns, without optional metadata. */
    EventBytes tableMap(long tableId, String db, String table, int columns) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, tableId, 6);
        le(b, 0, 2);
        b.write(db.length());
        b.writeBytes(db.getBytes(StandardCharsets.UTF_8));
        b.write(0);
        b.write(table.length());
        b.writeBytes(table.getBytes(StandardCharsets.UTF_8));
        b.write(0);
        b.write(columns);
        for (int i = 0; i < columns; i++) {
            b.write(LONG_TYPE);
        }
        b.write(0); // metadata length: INT has none
        b.writeBytes(new byte[(columns + 7) / 8]); // nullability: none nullable
        return event(TABLE_MAP, b.toByteArray());
    }

    /**
     * A v2 write-rows event: {@code rows} rows of {@code columns} INTs, value = row * 1000 +
     * column.
     */
    EventBytes writeRows(long tableId, int columns, int rows) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, tableId, 6);
        le(b, 0, 2);
        le(b, 2, 2); // extra info length (itself only)
        b.write(columns);
        byte[] included = new byte[(columns + 7) / 8];
        for (int i = 0; i < columns; i++) {
            included[i / 8] |= (byte) (1 << (i % 8));
        }
        b.writeBytes(included);
        for (int r = 0; r < rows; r++) {
            b.writeBytes(new byte[(columns + 7) / 8]); // null bitmap: no NULLs
            for (int c = 0; c < columns; c++) {
                le(b, r * 1000L + c, 4);
            }
        }
        return event(EXT_WRITE_ROWS, b.toByteArray());
    }

    /** Event bytes as captured from a server (header included, checksum stripped). */
    EventBytes raw(byte[] events) {
        out.writeBytes(events);
        return this;
    }

    /** A QUERY event (no status variables). */
    EventBytes query(String db, String sql) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, 42, 4); // thread id
        le(b, 0, 4); // execution time
        b.write(db.length());
        le(b, 0, 2); // error code
        le(b, 0, 2); // status variables length
        b.writeBytes(db.getBytes(StandardCharsets.UTF_8));
        b.write(0);
        b.writeBytes(sql.getBytes(StandardCharsets.UTF_8));
        return event(QUERY, b.toByteArray());
    }

    EventBytes xid(long xid) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, xid, 8);
        return event(XID, b.toByteArray());
    }

    /**
     * A TRANSACTION_PAYLOAD event holding {@code inner} (events without checksums), zstd-compressed
     * or stored as is: header fields (type, length, value as packed integers), end mark, payload.
     */
    EventBytes transactionPayload(byte[] inner, boolean zstd) {
        return event(
                TRANSACTION_PAYLOAD,
                payloadBody(zstd ? Zstd.compress(inner) : inner, zstd ? 0 : 255, inner.length));
    }

    /** A TRANSACTION_PAYLOAD event whose zstd payload is not zstd data. */
    EventBytes corruptTransactionPayload() {
        return event(TRANSACTION_PAYLOAD, payloadBody(new byte[] {1, 2, 3, 4}, 0, 100));
    }

    /** The events of {@link #CAPTURED_FLOAT_TABLE_EVENTS}. */
    public static byte[] capturedFloatTableEvents() {
        return HexFormat.of().parseHex(CAPTURED_FLOAT_TABLE_EVENTS);
    }

    /**
     * The body of a TRANSACTION_PAYLOAD event: header fields (type, length, value as packed
     * integers: payload size, compression type, and the uncompressed size unless 0), end mark,
     * payload.
     */
    public static byte[] payloadBody(byte[] payload, int compression, int uncompressedSize) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        field(b, 1, payload.length);
        field(b, 2, compression);
        if (uncompressedSize > 0) {
            field(b, 3, uncompressedSize);
        }
        b.write(0);
        b.writeBytes(payload);
        return b.toByteArray();
    }

    private static void field(ByteArrayOutputStream b, int type, int value) {
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        if (value < 251) {
            v.write(value);
        } else if (value < 0x10000) {
            v.write(0xFC);
            le(v, value, 2);
        } else {
            v.write(0xFD);
            le(v, value, 3);
        }
        b.write(type);
        b.write(v.size());
        b.writeBytes(v.toByteArray());
    }

    private static void le(ByteArrayOutputStream b, long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b.write((int) (value >>> (8 * i)) & 0xFF);
        }
    }
}

package io.capstan.flink.mysql.binlog;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds raw binlog event bytes (v4 header, no checksum) for deserializer tests. */
final class EventBytes {

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

    /** A v2 write-rows event: {@code rows} rows of {@code columns} INTs, value = row * 1000 + column. */
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

    /** A TRANSACTION_PAYLOAD event with a zstd header and a few (not really compressed) bytes. */
    EventBytes transactionPayload() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(1); // payload size field
        b.write(1);
        b.write(4);
        b.write(2); // compression type field: zstd = 0
        b.write(1);
        b.write(0);
        b.write(0); // end of header
        b.writeBytes(new byte[] {1, 2, 3, 4});
        return event(TRANSACTION_PAYLOAD, b.toByteArray());
    }

    private static void le(ByteArrayOutputStream b, long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b.write((int) (value >>> (8 * i)) & 0xFF);
        }
    }
}

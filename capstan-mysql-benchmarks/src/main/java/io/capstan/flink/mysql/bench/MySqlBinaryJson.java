package io.capstan.flink.mysql.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A minimal encoder of MySQL's binary JSON (sql/json_binary.h), enough to build the cells a JSON
 * column has in the binlog for the microbenchmarks: small objects and arrays of strings, doubles,
 * 16-bit integers and booleans. Keys are written in the order given (MySQL sorts them by length,
 * then bytes; give them in that order to get the text MySQL prints).
 */
final class MySqlBinaryJson {

    private static final int SMALL_OBJECT = 0x00;
    private static final int SMALL_ARRAY = 0x02;
    private static final int LITERAL = 0x04;
    private static final int INT16 = 0x05;
    private static final int DOUBLE = 0x0b;
    private static final int STRING = 0x0c;

    private MySqlBinaryJson() {}

    /** The cell of a JSON column holding this object. */
    static byte[] object(Map<String, Object> members) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(SMALL_OBJECT);
        byte[] body = objectBody(members);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    private static byte[] objectBody(Map<String, Object> members) {
        int n = members.size();
        int header = 4 + n * 4 + n * 3;
        ByteArrayOutputStream keys = new ByteArrayOutputStream();
        int[] keyOffsets = new int[n];
        int[] keyLengths = new int[n];
        int i = 0;
        for (String k : members.keySet()) {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            keyOffsets[i] = header + keys.size();
            keyLengths[i] = b.length;
            keys.write(b, 0, b.length);
            i++;
        }
        byte[] entries = new byte[n * 3];
        ByteArrayOutputStream values = new ByteArrayOutputStream();
        int valuesStart = header + keys.size();
        i = 0;
        for (Object v : members.values()) {
            valueEntry(entries, i * 3, v, valuesStart + values.size(), values);
            i++;
        }
        int size = valuesStart + values.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        short16(out, n);
        short16(out, size);
        for (int k = 0; k < n; k++) {
            short16(out, keyOffsets[k]);
            short16(out, keyLengths[k]);
        }
        out.write(entries, 0, entries.length);
        byte[] kb = keys.toByteArray();
        out.write(kb, 0, kb.length);
        byte[] vb = values.toByteArray();
        out.write(vb, 0, vb.length);
        return out.toByteArray();
    }

    private static byte[] arrayBody(List<?> elements) {
        int n = elements.size();
        int header = 4 + n * 3;
        byte[] entries = new byte[n * 3];
        ByteArrayOutputStream values = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            valueEntry(entries, i * 3, elements.get(i), header + values.size(), values);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        short16(out, n);
        short16(out, header + values.size());
        out.write(entries, 0, entries.length);
        byte[] vb = values.toByteArray();
        out.write(vb, 0, vb.length);
        return out.toByteArray();
    }

    /**
     * Writes one value entry (type + inlined value or offset) and, if not inlined, the value's
     * bytes.
     */
    @SuppressWarnings("unchecked")
    private static void valueEntry(
            byte[] entries, int at, Object v, int offset, ByteArrayOutputStream values) {
        int type;
        int inline = -1;
        byte[] data = null;
        if (v instanceof Boolean) {
            type = LITERAL;
            inline = ((Boolean) v) ? 1 : 2;
        } else if (v instanceof Integer
                && (Integer) v >= Short.MIN_VALUE
                && (Integer) v <= Short.MAX_VALUE) {
            type = INT16;
            inline = (Integer) v & 0xFFFF;
        } else if (v instanceof Double) {
            type = DOUBLE;
            long bits = Double.doubleToLongBits((Double) v);
            data = new byte[8];
            for (int b = 0; b < 8; b++) {
                data[b] = (byte) (bits >>> (8 * b));
            }
        } else if (v instanceof String) {
            type = STRING;
            byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream d = new ByteArrayOutputStream();
            int len = s.length;
            do {
                int b = len & 0x7F;
                len >>>= 7;
                d.write(len != 0 ? b | 0x80 : b);
            } while (len != 0);
            d.write(s, 0, s.length);
            data = d.toByteArray();
        } else if (v instanceof List) {
            type = SMALL_ARRAY;
            data = arrayBody((List<Object>) v);
        } else if (v instanceof Map) {
            type = SMALL_OBJECT;
            data = objectBody((Map<String, Object>) v);
        } else {
            throw new IllegalArgumentException(
                    "unsupported JSON value type " + v.getClass().getSimpleName());
        }
        entries[at] = (byte) type;
        int field = inline >= 0 ? inline : offset;
        entries[at + 1] = (byte) field;
        entries[at + 2] = (byte) (field >>> 8);
        if (data != null) {
            values.write(data, 0, data.length);
        }
    }

    private static void short16(ByteArrayOutputStream out, int v) {
        out.write(v & 0xFF);
        out.write((v >>> 8) & 0xFF);
    }
}

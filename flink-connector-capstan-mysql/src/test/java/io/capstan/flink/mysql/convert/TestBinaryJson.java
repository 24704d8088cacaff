package io.capstan.flink.mysql.convert;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Encodes Java values as MySQL's binary JSON (json_binary.h) for tests, each container small or
 * large at random. Values: null, Boolean, Short (INT16), Integer (INT32), Long (INT64), BigInteger
 * (UINT64), Double, String, Map (object, in iteration order), List (array), {@link UInt16}, {@link
 * UInt32}, {@link Opaque}.
 */
final class TestBinaryJson {

    record UInt16(int value) {}

    record UInt32(long value) {}

    /**
     * An opaque value: a MySQL column type code and its bytes (DATE/TIME/DATETIME: 8 bytes packed).
     */
    record Opaque(int typeCode, byte[] data) {}

    private final Random random;

    TestBinaryJson(long seed) {
        this.random = new Random(seed);
    }

    /** The binary form of a JSON document: a type byte and the value. */
    byte[] document(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean large = random.nextBoolean();
        out.write(typeOf(value, large));
        byte[] body = body(value, large);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    private int typeOf(Object v, boolean large) {
        if (v == null || v instanceof Boolean) {
            return 0x04;
        } else if (v instanceof Map) {
            return large ? 0x01 : 0x00;
        } else if (v instanceof List) {
            return large ? 0x03 : 0x02;
        } else if (v instanceof Short) {
            return 0x05;
        } else if (v instanceof UInt16) {
            return 0x06;
        } else if (v instanceof Integer) {
            return 0x07;
        } else if (v instanceof UInt32) {
            return 0x08;
        } else if (v instanceof Long) {
            return 0x09;
        } else if (v instanceof BigInteger) {
            return 0x0a;
        } else if (v instanceof Double) {
            return 0x0b;
        } else if (v instanceof String) {
            return 0x0c;
        } else if (v instanceof Opaque) {
            return 0x0f;
        }
        throw new IllegalArgumentException("unsupported " + v.getClass());
    }

    /** A value's bytes after its type byte; containers choose their own size at random. */
    private byte[] body(Object v, boolean large) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (v == null) {
            out.write(0);
        } else if (v instanceof Boolean) {
            out.write((Boolean) v ? 1 : 2);
        } else if (v instanceof Short) {
            le(out, (Short) v, 2);
        } else if (v instanceof UInt16) {
            le(out, ((UInt16) v).value(), 2);
        } else if (v instanceof Integer) {
            le(out, (Integer) v, 4);
        } else if (v instanceof UInt32) {
            le(out, ((UInt32) v).value(), 4);
        } else if (v instanceof Long) {
            le(out, (Long) v, 8);
        } else if (v instanceof BigInteger) {
            le(out, ((BigInteger) v).longValue(), 8);
        } else if (v instanceof Double) {
            le(out, Double.doubleToRawLongBits((Double) v), 8);
        } else if (v instanceof String) {
            byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
            varLength(out, s.length);
            out.write(s, 0, s.length);
        } else if (v instanceof Opaque) {
            Opaque o = (Opaque) v;
            out.write(o.typeCode());
            varLength(out, o.data().length);
            out.write(o.data(), 0, o.data().length);
        } else if (v instanceof Map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) v;
            return container(new ArrayList<>(m.keySet()), new ArrayList<>(m.values()), large);
        } else if (v instanceof List) {
            return container(null, (List<?>) v, large);
        }
        return out.toByteArray();
    }

    private byte[] container(List<String> keys, List<?> values, boolean large) {
        int n = values.size();
        int offsetSize = large ? 4 : 2;
        int keyEntrySize = offsetSize + 2;
        int valueEntrySize = 1 + offsetSize;
        int headerSize =
                2 * offsetSize + (keys == null ? 0 : n * keyEntrySize) + n * valueEntrySize;
        ByteArrayOutputStream tail = new ByteArrayOutputStream(); // keys, then out-of-line values
        int[] keyOffsets = new int[n];
        byte[][] keyBytes = new byte[n][];
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                keyBytes[i] = keys.get(i).getBytes(StandardCharsets.UTF_8);
                keyOffsets[i] = headerSize + tail.size();
                tail.write(keyBytes[i], 0, keyBytes[i].length);
            }
        }
        ByteArrayOutputStream valueEntries = new ByteArrayOutputStream();
        for (Object v : values) {
            boolean childLarge = random.nextBoolean();
            int type = typeOf(v, childLarge);
            valueEntries.write(type);
            boolean inline =
                    type == 0x04
                            || type == 0x05
                            || type == 0x06
                            || (large && (type == 0x07 || type == 0x08));
            if (inline) {
                byte[] b = body(v, childLarge);
                valueEntries.write(b, 0, b.length);
                for (int k = b.length; k < offsetSize; k++) {
                    valueEntries.write(0);
                }
            } else {
                le(valueEntries, headerSize + tail.size(), offsetSize);
                byte[] b = body(v, childLarge);
                tail.write(b, 0, b.length);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        le(out, n, offsetSize);
        le(out, headerSize + tail.size(), offsetSize);
        if (keys != null) {
            for (int i = 0; i < n; i++) {
                le(out, keyOffsets[i], offsetSize);
                le(out, keyBytes[i].length, 2);
            }
        }
        byte[] ve = valueEntries.toByteArray();
        out.write(ve, 0, ve.length);
        byte[] t = tail.toByteArray();
        out.write(t, 0, t.length);
        return out.toByteArray();
    }

    private static void le(ByteArrayOutputStream out, long v, int bytes) {
        for (int k = 0; k < bytes; k++) {
            out.write((int) (v >>> (8 * k)));
        }
    }

    private static void varLength(ByteArrayOutputStream out, int length) {
        while (length >= 0x80) {
            out.write((length & 0x7F) | 0x80);
            length >>>= 7;
        }
        out.write(length);
    }
}

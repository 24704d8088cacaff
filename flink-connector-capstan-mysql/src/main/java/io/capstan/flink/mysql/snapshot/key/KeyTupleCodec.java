package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The binary form of key tuples for split state and checkpoints. Self-describing (each value
 * carries a type tag) so a tuple decodes without its table's schema, and versioned so the format
 * can evolve: a reader rejects versions it does not know instead of misreading them.
 *
 * <p>Layout v1: {@code version:byte, arity:varint, (tag:byte, payload)*}. A nullable tuple (an open
 * range end) is written by {@link #writeNullable} as a presence byte before it.
 */
@Internal
public final class KeyTupleCodec {
    public static final int VERSION = 1;

    private static final byte TAG_BYTE = 1;
    private static final byte TAG_SHORT = 2;
    private static final byte TAG_INT = 3;
    private static final byte TAG_LONG = 4;
    private static final byte TAG_DECIMAL = 5;
    private static final byte TAG_TIMESTAMP = 6;
    private static final byte TAG_BYTES = 7;
    private static final byte TAG_BOOLEAN = 8;
    private static final byte TAG_STRING = 9; // UTF-8 bytes of a StringData
    private static final byte TAG_COLLATED_STRING = 10; // UTF-8 bytes, then the server's weight

    private KeyTupleCodec() {}

    public static void write(KeyTuple key, DataOutput out) throws IOException {
        out.writeByte(VERSION);
        writeVarInt(out, key.arity());
        for (int i = 0; i < key.arity(); i++) {
            writeValue(key.get(i), out);
        }
    }

    public static KeyTuple read(DataInput in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("unknown key tuple format version " + version);
        }
        int arity = readVarInt(in);
        if (arity < 1 || arity > 64) {
            throw new IOException("corrupt key tuple: arity " + arity);
        }
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            values[i] = readValue(in);
        }
        return KeyTuple.wrap(values);
    }

    public static void writeNullable(KeyTuple key, DataOutput out) throws IOException {
        out.writeBoolean(key != null);
        if (key != null) {
            write(key, out);
        }
    }

    public static KeyTuple readNullable(DataInput in) throws IOException {
        return in.readBoolean() ? read(in) : null;
    }

    public static byte[] toBytes(KeyTuple key) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(32);
        try {
            write(key, new java.io.DataOutputStream(bytes));
        } catch (IOException e) {
            throw new IllegalStateException(e); // cannot happen in memory
        }
        return bytes.toByteArray();
    }

    public static KeyTuple fromBytes(byte[] bytes) throws IOException {
        return read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes)));
    }

    private static void writeValue(Object v, DataOutput out) throws IOException {
        if (v instanceof Long) {
            out.writeByte(TAG_LONG);
            out.writeLong((Long) v);
        } else if (v instanceof Integer) {
            out.writeByte(TAG_INT);
            out.writeInt((Integer) v);
        } else if (v instanceof Short) {
            out.writeByte(TAG_SHORT);
            out.writeShort((Short) v);
        } else if (v instanceof Byte) {
            out.writeByte(TAG_BYTE);
            out.writeByte((Byte) v);
        } else if (v instanceof DecimalData) {
            DecimalData d = (DecimalData) v;
            out.writeByte(TAG_DECIMAL);
            out.writeByte(d.precision());
            out.writeByte(d.scale());
            writeBytes(out, d.toUnscaledBytes());
        } else if (v instanceof TimestampData) {
            TimestampData t = (TimestampData) v;
            out.writeByte(TAG_TIMESTAMP);
            out.writeLong(t.getMillisecond());
            out.writeInt(t.getNanoOfMillisecond());
        } else if (v instanceof byte[]) {
            out.writeByte(TAG_BYTES);
            writeBytes(out, (byte[]) v);
        } else if (v instanceof Boolean) {
            out.writeByte(TAG_BOOLEAN);
            out.writeBoolean((Boolean) v);
        } else if (v instanceof StringData) {
            out.writeByte(TAG_STRING);
            writeBytes(out, ((StringData) v).toBytes());
        } else if (v instanceof CollatedString c) {
            out.writeByte(TAG_COLLATED_STRING);
            writeBytes(out, c.text().toBytes());
            writeBytes(out, c.weight());
        } else {
            // the class name is structural information, never a value
            throw new IOException("unsupported key value class " + v.getClass().getName());
        }
    }

    private static Object readValue(DataInput in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case TAG_LONG:
                return in.readLong();
            case TAG_INT:
                return in.readInt();
            case TAG_SHORT:
                return in.readShort();
            case TAG_BYTE:
                return in.readByte();
            case TAG_DECIMAL:
                int precision = in.readUnsignedByte();
                int scale = in.readUnsignedByte();
                return DecimalData.fromUnscaledBytes(readBytes(in), precision, scale);
            case TAG_TIMESTAMP:
                long millis = in.readLong();
                int nanos = in.readInt();
                if (nanos < 0 || nanos > 999_999) {
                    throw new IOException("corrupt key tuple: nano-of-millisecond out of range");
                }
                return TimestampData.fromEpochMillis(millis, nanos);
            case TAG_BYTES:
                return readBytes(in);
            case TAG_BOOLEAN:
                return in.readBoolean();
            case TAG_STRING:
                return StringData.fromBytes(readBytes(in));
            case TAG_COLLATED_STRING:
                StringData text = StringData.fromBytes(readBytes(in));
                return new CollatedString(text, readBytes(in));
            default:
                throw new IOException("corrupt key tuple: unknown value tag " + tag);
        }
    }

    private static void writeBytes(DataOutput out, byte[] b) throws IOException {
        writeVarInt(out, b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        int n = readVarInt(in);
        if (n < 0 || n > (1 << 20)) {
            throw new IOException("corrupt key tuple: byte length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    public static void writeVarInt(DataOutput out, int v) throws IOException {
        while ((v & ~0x7f) != 0) {
            out.writeByte((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.writeByte(v);
    }

    public static int readVarInt(DataInput in) throws IOException {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("corrupt varint");
    }
}

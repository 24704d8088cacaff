package io.capstan.flink.mysql.snapshot.gate;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Unsigned LEB128 varints and zigzag-signed ones, for the gate's compact state. */
@Internal
public final class Varints {

    private Varints() {}

    public static void writeInt(DataOutput out, int v) throws IOException {
        writeLong(out, v & 0xFFFF_FFFFL);
    }

    public static int readInt(DataInput in) throws IOException {
        long v = readLong(in);
        if (v > Integer.MAX_VALUE) {
            throw new IOException("corrupt state: varint out of range");
        }
        return (int) v;
    }

    public static void writeLong(DataOutput out, long v) throws IOException {
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    public static long readLong(DataInput in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("corrupt state: varint too long");
    }

    /** Zigzag: small magnitudes of either sign take few bytes. */
    public static void writeSignedLong(DataOutput out, long v) throws IOException {
        writeLong(out, (v << 1) ^ (v >> 63));
    }

    public static long readSignedLong(DataInput in) throws IOException {
        long z = readLong(in);
        return (z >>> 1) ^ -(z & 1);
    }
}

package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Chunk bounds written one after another, each relative to the bound written before it: a single
 * integer column (the common chunk key) as the zigzag varint of its difference, which is about the
 * chunk size and takes two or three bytes instead of the ten of a tagged tuple; a bound equal to
 * the previous one as one byte; anything else as a full {@link KeyTupleCodec} tuple. A {@link
 * ChunkBoundDeltas} instance writes or reads one stream: use a fresh one per stream, and read the
 * bounds in the order they were written.
 */
@Internal
public final class ChunkBoundDeltas {

    private static final int NULL = 0;
    private static final int SAME = 1;
    private static final int LONG_DELTA = 2;
    private static final int INT_DELTA = 3;
    private static final int TUPLE = 4;

    private KeyTuple previous;

    public void write(KeyTuple bound, DataOutput out) throws IOException {
        if (bound == null) {
            out.writeByte(NULL);
            return; // an open end: the next bound is relative to the last real one
        }
        Object prev = previous != null && previous.arity() == 1 ? previous.get(0) : null;
        Object cur = bound.arity() == 1 ? bound.get(0) : null;
        if (bound.equals(previous)) {
            out.writeByte(SAME);
        } else if (cur instanceof Long c && prev instanceof Long p) {
            out.writeByte(LONG_DELTA);
            Varints.writeSignedLong(out, c - p); // wraps, and so does the sum on reading
        } else if (cur instanceof Integer c && prev instanceof Integer p) {
            out.writeByte(INT_DELTA);
            Varints.writeSignedLong(out, (long) c - p);
        } else {
            out.writeByte(TUPLE);
            KeyTupleCodec.write(bound, out);
        }
        previous = bound;
    }

    public KeyTuple read(DataInput in) throws IOException {
        int kind = in.readUnsignedByte();
        KeyTuple bound;
        switch (kind) {
            case NULL:
                return null;
            case SAME:
                bound = requirePrevious();
                break;
            case LONG_DELTA:
                bound = KeyTuple.of((Long) single(Long.class) + Varints.readSignedLong(in));
                break;
            case INT_DELTA:
                long v = (Integer) single(Integer.class) + Varints.readSignedLong(in);
                if (v != (int) v) {
                    throw new IOException("corrupt chunk bound: INT delta out of range");
                }
                bound = KeyTuple.of((int) v);
                break;
            case TUPLE:
                bound = KeyTupleCodec.read(in);
                break;
            default:
                throw new IOException("corrupt chunk bound: kind " + kind);
        }
        previous = bound;
        return bound;
    }

    private KeyTuple requirePrevious() throws IOException {
        if (previous == null) {
            throw new IOException("corrupt chunk bound: a delta without a previous bound");
        }
        return previous;
    }

    private Object single(Class<?> type) throws IOException {
        Object v = requirePrevious().arity() == 1 ? previous.get(0) : null;
        if (!type.isInstance(v)) {
            throw new IOException("corrupt chunk bound: a delta after a bound of another type");
        }
        return v;
    }
}

package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Versioned binary form of {@link ChunkPlannerState} and {@link SnapshotChunk} for Flink state. */
@Internal
public final class ChunkPlannerStateSerializer {
    public static final int VERSION = 1;

    private ChunkPlannerStateSerializer() {}

    public static void write(ChunkPlannerState s, DataOutput out) throws IOException {
        out.writeByte(VERSION);
        writeTable(s.table(), out);
        out.writeByte(s.mode().ordinal());
        out.writeInt(s.nextIndex());
        KeyTupleCodec.writeNullable(s.nextLow(), out);
        KeyTupleCodec.writeNullable(s.knownMax(), out);
    }

    public static ChunkPlannerState read(DataInput in) throws IOException {
        checkVersion(in.readUnsignedByte(), "chunk planner state");
        TableId table = readTable(in);
        int mode = in.readUnsignedByte();
        ChunkPlannerState.Mode[] modes = ChunkPlannerState.Mode.values();
        if (mode >= modes.length) {
            throw new IOException("corrupt chunk planner state: mode " + mode);
        }
        int nextIndex = in.readInt();
        return new ChunkPlannerState(
                table,
                modes[mode],
                nextIndex,
                KeyTupleCodec.readNullable(in),
                KeyTupleCodec.readNullable(in));
    }

    /** A chunk: table, index and range (for splits). */
    public static void writeChunk(SnapshotChunk c, DataOutput out) throws IOException {
        out.writeByte(VERSION);
        writeTable(c.table(), out);
        out.writeInt(c.index());
        writeRange(c.range(), out);
    }

    public static SnapshotChunk readChunk(DataInput in) throws IOException {
        checkVersion(in.readUnsignedByte(), "snapshot chunk");
        TableId table = readTable(in);
        int index = in.readInt();
        return new SnapshotChunk(table, index, readRange(in));
    }

    public static void writeRange(ChunkRange r, DataOutput out) throws IOException {
        KeyTupleCodec.writeNullable(r.low(), out);
        KeyTupleCodec.writeNullable(r.high(), out);
    }

    public static ChunkRange readRange(DataInput in) throws IOException {
        return ChunkRange.of(KeyTupleCodec.readNullable(in), KeyTupleCodec.readNullable(in));
    }

    public static void writeTable(TableId t, DataOutput out) throws IOException {
        out.writeUTF(t.database());
        out.writeUTF(t.table());
    }

    public static TableId readTable(DataInput in) throws IOException {
        return TableId.of(in.readUTF(), in.readUTF());
    }

    private static void checkVersion(int version, String what) throws IOException {
        if (version != VERSION) {
            throw new IOException("unknown " + what + " format version " + version);
        }
    }
}

package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerStateSerializer;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Versioned binary form of one {@link FinishedChunk} (range and G), for the enumerator's state
 * while chunks are still finishing. Once a table's chunks are all finished, build the {@link
 * CursorGate} and keep it with {@link CursorGateSerializer}, which is more compact.
 */
@Internal
public final class FinishedChunkSerializer {
    public static final int VERSION = 1;

    private FinishedChunkSerializer() {}

    public static void write(FinishedChunk chunk, DataOutput out) throws IOException {
        out.writeByte(VERSION);
        ChunkPlannerStateSerializer.writeRange(chunk.range(), out);
        byte[] g = chunk.gtidSet().toString().getBytes(StandardCharsets.US_ASCII);
        KeyTupleCodec.writeVarInt(out, g.length);
        out.write(g);
    }

    public static FinishedChunk read(DataInput in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("unknown finished chunk format version " + version);
        }
        var range = ChunkPlannerStateSerializer.readRange(in);
        byte[] g = new byte[KeyTupleCodec.readVarInt(in)];
        in.readFully(g);
        return new FinishedChunk(range, GtidSet.parse(new String(g, StandardCharsets.US_ASCII)));
    }
}

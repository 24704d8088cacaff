package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeySerializer;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.annotation.Internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Versioned, compact binary form of a {@link CursorGate} for the binlog split (which travels from
 * the JobManager to a TaskManager in one RPC message, see docs/adr/0007) and its state.
 *
 * <p>Version 2 (written now): the version byte, then a deflated stream of, per table: the key's
 * structure, the chunk count, the table's distinct G sorted by size, each written by {@link
 * GtidSetDeltas} as its difference from the one before (the G of a snapshot are snapshots of one
 * growing {@code gtid_executed}: each adds the few transactions committed in between), then per
 * chunk the zigzag varint difference of its G's rank from the previous chunk's (chunks are read
 * roughly in key order, so about one byte), then the lower bounds of chunks 1..n-1 by {@link
 * ChunkBoundDeltas}. A chunk's upper bound is the next chunk's lower bound and is not stored.
 *
 * <p>Version 1 (read only): per table the key's structure, a dictionary of its distinct G in text,
 * then per chunk its lower bound and a dictionary index.
 */
@Internal
public final class CursorGateSerializer {
    public static final int VERSION = 2;
    private static final int VERSION_TEXT_DICTIONARY = 1;

    private CursorGateSerializer() {}

    /**
     * The gate's bytes, encoded once per gate and then reused (the gate is immutable): the same
     * array on every call, which callers must not modify.
     */
    public static byte[] toBytes(CursorGate gate) {
        byte[] known = gate.stateBytes();
        if (known != null) {
            return known;
        }
        byte[] result = encode(gate);
        gate.rememberStateBytes(result);
        return result;
    }

    /** Encodes the gate afresh. */
    static byte[] encode(CursorGate gate) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(VERSION);
            byte[] packed = pack(gate);
            Varints.writeInt(out, packed.length);
            out.write(packed);
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        return bytes.toByteArray();
    }

    public static CursorGate fromBytes(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        CursorGate gate = read(in);
        if (in.available() == 0 && bytes.length > 0 && bytes[0] == VERSION) {
            gate.rememberStateBytes(bytes.clone());
        }
        return gate;
    }

    public static void write(CursorGate gate, DataOutput out) throws IOException {
        out.write(toBytes(gate));
    }

    public static CursorGate read(DataInput in) throws IOException {
        int version = in.readUnsignedByte();
        if (version == VERSION_TEXT_DICTIONARY) {
            return readVersion1(in);
        }
        if (version != VERSION) {
            throw new IOException("unknown cursor gate format version " + version);
        }
        byte[] packed = new byte[Varints.readInt(in)];
        in.readFully(packed);
        if (packed.length == 0) {
            return CursorGate.empty(); // every table retired: two bytes in all
        }
        try (DataInputStream body = Deflated.unpack(packed)) {
            CursorGate gate = readTables(body);
            if (body.read() >= 0) {
                throw new IOException("corrupt cursor gate state: trailing bytes");
            }
            return gate;
        }
    }

    private static byte[] pack(CursorGate gate) throws IOException {
        if (gate.tableGates().isEmpty()) {
            return new byte[0];
        }
        return Deflated.pack(body -> writeTables(gate.tableGates(), body));
    }

    private static void writeTables(Map<?, TableGate> tables, DataOutput out) throws IOException {
        Varints.writeInt(out, tables.size());
        GtidSetDeltas.Writer sets = new GtidSetDeltas.Writer();
        for (TableGate t : tables.values()) {
            ChunkKeySerializer.write(t.key(), out);
            int n = t.chunkCount();
            Varints.writeInt(out, n);
            List<GtidSet> perChunk = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                perChunk.add(t.gtidSet(i));
            }
            int previousRank = 0;
            for (int r : GtidChain.write(perChunk, sets, out)) {
                Varints.writeSignedLong(out, (long) r - previousRank);
                previousRank = r;
            }
            ChunkBoundDeltas bounds = new ChunkBoundDeltas();
            for (int i = 1; i < n; i++) {
                bounds.write(t.low(i), out);
            }
        }
    }

    private static CursorGate readTables(DataInput in) throws IOException {
        int tableCount = Varints.readInt(in);
        GtidSetDeltas.Reader sets = new GtidSetDeltas.Reader();
        Map<ChunkKey, List<FinishedChunk>> finished = new LinkedHashMap<>();
        for (int t = 0; t < tableCount; t++) {
            ChunkKey key = ChunkKeySerializer.read(in);
            int n = Varints.readInt(in);
            GtidSet[] chain = GtidChain.read(sets, in, n);
            int distinct = chain.length;
            GtidSet[] gs = new GtidSet[n];
            long rank = 0;
            for (int i = 0; i < n; i++) {
                rank += Varints.readSignedLong(in);
                if (rank < 0 || rank >= distinct) {
                    throw new IOException("corrupt cursor gate state: G index out of range");
                }
                gs[i] = chain[(int) rank];
            }
            ChunkBoundDeltas bounds = new ChunkBoundDeltas();
            KeyTuple[] lows = new KeyTuple[n];
            for (int i = 1; i < n; i++) {
                lows[i] = bounds.read(in);
            }
            finished.put(key, tiles(lows, gs));
        }
        return build(finished);
    }

    private static List<FinishedChunk> tiles(KeyTuple[] lows, GtidSet[] gs) {
        int n = lows.length;
        List<FinishedChunk> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(
                    new FinishedChunk(
                            ChunkRange.of(lows[i], i + 1 < n ? lows[i + 1] : null), gs[i]));
        }
        return list;
    }

    private static CursorGate build(Map<ChunkKey, List<FinishedChunk>> finished)
            throws IOException {
        try {
            return CursorGate.of(finished);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt cursor gate state: " + e.getMessage(), e);
        }
    }

    private static CursorGate readVersion1(DataInput in) throws IOException {
        int tableCount = KeyTupleCodec.readVarInt(in);
        Map<ChunkKey, List<FinishedChunk>> finished = new LinkedHashMap<>();
        for (int t = 0; t < tableCount; t++) {
            ChunkKey key = ChunkKeySerializer.read(in);
            int distinct = KeyTupleCodec.readVarInt(in);
            GtidSet[] dictionary = new GtidSet[distinct];
            for (int i = 0; i < distinct; i++) {
                byte[] text = new byte[KeyTupleCodec.readVarInt(in)];
                in.readFully(text);
                dictionary[i] = GtidSet.parse(new String(text, StandardCharsets.US_ASCII));
            }
            int chunks = KeyTupleCodec.readVarInt(in);
            KeyTuple[] lows = new KeyTuple[chunks];
            GtidSet[] gs = new GtidSet[chunks];
            for (int i = 0; i < chunks; i++) {
                lows[i] = i == 0 ? null : KeyTupleCodec.read(in);
                int index = KeyTupleCodec.readVarInt(in);
                if (index >= distinct) {
                    throw new IOException("corrupt cursor gate state: G index out of range");
                }
                gs[i] = dictionary[index];
            }
            finished.put(key, tiles(lows, gs));
        }
        return build(finished);
    }
}

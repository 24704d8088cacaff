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
 * Versioned, compact binary form of a {@link CursorGate} for the binlog split's state. Per table:
 * the key's structure, a dictionary of its distinct G (chunks read while nothing committed share
 * one), then per chunk its lower bound and a dictionary index. A chunk's upper bound is the next
 * chunk's lower bound and is not stored.
 */
@Internal
public final class CursorGateSerializer {
    public static final int VERSION = 1;

    private CursorGateSerializer() {}

    public static byte[] toBytes(CursorGate gate) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            write(gate, new DataOutputStream(bytes));
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        return bytes.toByteArray();
    }

    public static CursorGate fromBytes(byte[] bytes) throws IOException {
        return read(new DataInputStream(new ByteArrayInputStream(bytes)));
    }

    public static void write(CursorGate gate, DataOutput out) throws IOException {
        out.writeByte(VERSION);
        Map<?, TableGate> tables = gate.tableGates();
        KeyTupleCodec.writeVarInt(out, tables.size());
        for (TableGate t : tables.values()) {
            ChunkKeySerializer.write(t.key(), out);
            Map<GtidSet, Integer> dictionary = new LinkedHashMap<>();
            for (int i = 0; i < t.chunkCount(); i++) {
                dictionary.putIfAbsent(t.gtidSet(i), dictionary.size());
            }
            KeyTupleCodec.writeVarInt(out, dictionary.size());
            for (GtidSet g : dictionary.keySet()) {
                byte[] text = g.toString().getBytes(StandardCharsets.US_ASCII);
                KeyTupleCodec.writeVarInt(out, text.length);
                out.write(text);
            }
            KeyTupleCodec.writeVarInt(out, t.chunkCount());
            for (int i = 0; i < t.chunkCount(); i++) {
                if (i > 0) {
                    KeyTupleCodec.write(t.low(i), out);
                }
                KeyTupleCodec.writeVarInt(out, dictionary.get(t.gtidSet(i)));
            }
        }
    }

    public static CursorGate read(DataInput in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("unknown cursor gate format version " + version);
        }
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
            List<FinishedChunk> list = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                list.add(
                        new FinishedChunk(
                                ChunkRange.of(lows[i], i + 1 < chunks ? lows[i + 1] : null),
                                gs[i]));
            }
            finished.put(key, list);
        }
        return CursorGate.of(finished);
    }
}

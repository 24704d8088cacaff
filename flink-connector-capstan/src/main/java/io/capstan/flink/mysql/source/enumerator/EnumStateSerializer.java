package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeySerializer;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerStateSerializer;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SerdeText;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import io.capstan.flink.mysql.source.split.SplitKind;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Versioned bytes of {@link EnumState}.
 *
 * <p>Version 1: a flag whether the binlog split is assigned, a flag whether an unassigned binlog
 * split follows, then that split in {@link CapstanSplitSerializer}'s version-1 layout.
 *
 * <p>Version 2 (written now): the same two flags and the split in the version-2 split layout, then
 * a flag whether snapshot progress follows: the chunk keys (each followed by the table's schema
 * fingerprint), the planner state of each table, the planned chunks not handed out (as version-2
 * splits), the finished chunks per table (a dictionary of the table's distinct G, then per chunk
 * its index, range, G index and row count: chunks read while nothing committed share one G), the
 * last checkpoint id the enumerator took and the checkpoint id after which the latest completion
 * arrived ({@code -1} for none).
 */
@Internal
public final class EnumStateSerializer implements SimpleVersionedSerializer<EnumState> {

    public static final EnumStateSerializer INSTANCE = new EnumStateSerializer();

    private static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(EnumState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeBoolean(state.binlogSplitAssigned());
        BinlogSplit pending = state.unassignedBinlogSplit();
        out.writeBoolean(pending != null);
        if (pending != null) {
            CapstanSplitSerializer.write(pending, out);
        }
        SnapshotProgress snapshot = state.snapshot();
        out.writeBoolean(snapshot != null);
        if (snapshot != null) {
            writeSnapshot(snapshot, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumState deserialize(int version, byte[] serialized) throws IOException {
        if (version != 1 && version != 2) {
            throw new IOException(
                    "unknown enumerator state version " + version + " (this build reads 1 and 2)");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        boolean assigned = in.readBoolean();
        BinlogSplit pending = null;
        if (in.readBoolean()) {
            CapstanSplit split = CapstanSplitSerializer.read(in, version);
            if (split.kind() != SplitKind.BINLOG) {
                throw new IOException(
                        "corrupt enumerator state: pending split of kind " + split.kind());
            }
            pending = split.asBinlogSplit();
        }
        if (assigned && pending != null) {
            // EnumState refuses it too, but with an IllegalArgumentException
            throw new IOException(
                    "corrupt enumerator state: the binlog split is both assigned and pending");
        }
        SnapshotProgress snapshot = null;
        if (version >= 2 && in.readBoolean()) {
            snapshot = readSnapshot(in);
        }
        if (in.available() > 0) {
            throw new IOException(
                    "corrupt enumerator state: " + in.available() + " trailing bytes");
        }
        return new EnumState(pending, assigned, snapshot);
    }

    private static void writeSnapshot(SnapshotProgress s, DataOutputView out) throws IOException {
        KeyTupleCodec.writeVarInt(out, s.tables().size());
        for (SnapshotTable t : s.tables()) {
            ChunkKeySerializer.write(t.key(), out);
            out.writeLong(t.schemaFingerprint());
        }
        KeyTupleCodec.writeVarInt(out, s.plannerStates().size());
        for (ChunkPlannerState p : s.plannerStates()) {
            ChunkPlannerStateSerializer.write(p, out);
        }
        KeyTupleCodec.writeVarInt(out, s.pending().size());
        for (SnapshotChunkSplit p : s.pending()) {
            CapstanSplitSerializer.write(p, out);
        }
        KeyTupleCodec.writeVarInt(out, s.finished().size());
        for (Map.Entry<TableId, List<SnapshotBook.Finished>> e : s.finished().entrySet()) {
            ChunkPlannerStateSerializer.writeTable(e.getKey(), out);
            Map<GtidSet, Integer> dictionary = new LinkedHashMap<>();
            for (SnapshotBook.Finished f : e.getValue()) {
                dictionary.putIfAbsent(f.completion().gtidSet(), dictionary.size());
            }
            KeyTupleCodec.writeVarInt(out, dictionary.size());
            for (GtidSet g : dictionary.keySet()) {
                SerdeText.write(out, g.toString());
            }
            KeyTupleCodec.writeVarInt(out, e.getValue().size());
            for (SnapshotBook.Finished f : e.getValue()) {
                KeyTupleCodec.writeVarInt(out, f.chunk().index());
                ChunkPlannerStateSerializer.writeRange(f.chunk().range(), out);
                KeyTupleCodec.writeVarInt(out, dictionary.get(f.completion().gtidSet()));
                writeVarLong(out, f.completion().rowCount());
            }
        }
        out.writeLong(SnapshotProgress.toStored(s.lastCheckpointTaken()));
        out.writeLong(SnapshotProgress.toStored(s.latestCompletionAfter()));
    }

    private static SnapshotProgress readSnapshot(DataInputView in) throws IOException {
        try {
            int nKeys = KeyTupleCodec.readVarInt(in);
            List<SnapshotTable> keys = new ArrayList<>(nKeys);
            for (int i = 0; i < nKeys; i++) {
                ChunkKey key = ChunkKeySerializer.read(in);
                keys.add(new SnapshotTable(key, in.readLong()));
            }
            int nStates = KeyTupleCodec.readVarInt(in);
            List<ChunkPlannerState> states = new ArrayList<>(nStates);
            for (int i = 0; i < nStates; i++) {
                states.add(ChunkPlannerStateSerializer.read(in));
            }
            int nPending = KeyTupleCodec.readVarInt(in);
            List<SnapshotChunkSplit> pending = new ArrayList<>(nPending);
            for (int i = 0; i < nPending; i++) {
                pending.add(CapstanSplitSerializer.read(in, 2).asSnapshotChunkSplit());
            }
            int nTables = KeyTupleCodec.readVarInt(in);
            Map<TableId, List<SnapshotBook.Finished>> finished = new LinkedHashMap<>();
            for (int t = 0; t < nTables; t++) {
                TableId table = ChunkPlannerStateSerializer.readTable(in);
                int distinct = KeyTupleCodec.readVarInt(in);
                GtidSet[] dictionary = new GtidSet[distinct];
                for (int i = 0; i < distinct; i++) {
                    dictionary[i] = GtidSet.parse(SerdeText.read(in));
                }
                int n = KeyTupleCodec.readVarInt(in);
                List<SnapshotBook.Finished> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    int index = KeyTupleCodec.readVarInt(in);
                    ChunkRange range = ChunkPlannerStateSerializer.readRange(in);
                    int g = KeyTupleCodec.readVarInt(in);
                    if (g >= distinct) {
                        throw new IOException("corrupt enumerator state: G index out of range");
                    }
                    long rows = readVarLong(in);
                    list.add(
                            new SnapshotBook.Finished(
                                    new SnapshotChunk(table, index, range),
                                    new ChunkCompletion(dictionary[g], rows)));
                }
                finished.put(table, list);
            }
            long last = in.readLong();
            long after = in.readLong();
            return new SnapshotProgress(keys, states, pending, finished, last, after);
        } catch (RuntimeException e) {
            throw new IOException("corrupt enumerator state: " + e.getMessage(), e);
        }
    }

    private static void writeVarLong(DataOutputView out, long v) throws IOException {
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    private static long readVarLong(DataInputView in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("corrupt enumerator state: varlong too long");
    }
}

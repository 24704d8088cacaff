package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.ChunkBoundDeltas;
import io.capstan.flink.mysql.snapshot.gate.Deflated;
import io.capstan.flink.mysql.snapshot.gate.GtidChain;
import io.capstan.flink.mysql.snapshot.gate.GtidSetDeltas;
import io.capstan.flink.mysql.snapshot.gate.Varints;
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

import java.io.DataInputStream;
import java.io.DataOutput;
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
 * <p>Version 2: the same two flags and the split in the version-2 split layout, then a flag whether
 * snapshot progress follows: the chunk keys (each followed by the table's schema fingerprint), the
 * planner state of each table, the planned chunks not handed out (as version-2 splits), the
 * finished chunks per table (a dictionary of the table's distinct G, then per chunk its index,
 * range, G index and row count: chunks read while nothing committed share one G), the last
 * checkpoint id the enumerator took and the checkpoint id after which the latest completion arrived
 * ({@code -1} for none).
 *
 * <p>Version 3: as version 2 with splits in the version-3 split layout (the gate of a pending
 * binlog split compact), and the finished chunks as one deflated block: per table its distinct G
 * smallest first, each as its binary difference from the one before ({@link GtidSetDeltas}), then
 * per chunk the differences of its index and its G's rank from the previous chunk's, its row count,
 * and its bounds each relative to the bound before ({@link ChunkBoundDeltas}: a low equal to the
 * previous chunk's high is one byte). See docs/adr/0007. Last, after the snapshot flag and
 * progress, the captured tables: a count, then each table.
 *
 * <p>Version 4: as version 3, then a flag whether the progress is that of tables being added to the
 * held binlog split ({@link EnumeratorPhase#ADDING_TABLES}).
 *
 * <p>Version 5 (written now): as version 4 with splits in the version-4 split layout (a pending
 * binlog split keeps its stream origin).
 */
@Internal
public final class EnumStateSerializer implements SimpleVersionedSerializer<EnumState> {

    public static final EnumStateSerializer INSTANCE = new EnumStateSerializer();

    private static final int VERSION = 5;

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
        Varints.writeInt(out, state.capturedTables().size());
        for (TableId t : state.capturedTables()) {
            ChunkPlannerStateSerializer.writeTable(t, out);
        }
        out.writeBoolean(state.addingTables());
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumState deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "unknown enumerator state version "
                            + version
                            + " (this build reads 1 to "
                            + VERSION
                            + ")");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        boolean assigned = in.readBoolean();
        BinlogSplit pending = null;
        if (in.readBoolean()) {
            CapstanSplit split = CapstanSplitSerializer.read(in, splitLayout(version));
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
            snapshot = readSnapshot(in, version);
        }
        List<TableId> captured = new ArrayList<>();
        if (version >= 3) {
            int n = Varints.readInt(in);
            for (int i = 0; i < n; i++) {
                captured.add(ChunkPlannerStateSerializer.readTable(in));
            }
        }
        boolean adding = version >= 4 && in.readBoolean();
        if (in.available() > 0) {
            throw new IOException(
                    "corrupt enumerator state: " + in.available() + " trailing bytes");
        }
        if (adding && (!assigned || snapshot == null)) {
            throw new IOException(
                    "corrupt enumerator state: tables being added without an assigned binlog split"
                            + " or their snapshot");
        }
        return new EnumState(pending, assigned, snapshot, captured, adding);
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
        writeFinished(s.finished(), out);
        out.writeLong(SnapshotProgress.toStored(s.lastCheckpointTaken()));
        out.writeLong(SnapshotProgress.toStored(s.latestCompletionAfter()));
    }

    /**
     * The split layout a state version holds: version 4 changed only the state's own layout,
     * version 5 only the splits' (their stream origin).
     */
    private static int splitLayout(int version) {
        return version <= 3 ? version : version - 1;
    }

    private static SnapshotProgress readSnapshot(DataInputView in, int version) throws IOException {
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
                pending.add(
                        CapstanSplitSerializer.read(in, splitLayout(version))
                                .asSnapshotChunkSplit());
            }
            Map<TableId, List<SnapshotBook.Finished>> finished =
                    version == 2 ? readFinishedVersion2(in) : readFinished(in);
            long last = in.readLong();
            long after = in.readLong();
            return new SnapshotProgress(keys, states, pending, finished, last, after);
        } catch (RuntimeException e) {
            throw new IOException("corrupt enumerator state: " + e.getMessage(), e);
        }
    }

    private static void writeFinished(
            Map<TableId, List<SnapshotBook.Finished>> finished, DataOutputView out)
            throws IOException {
        byte[] packed =
                Deflated.pack(
                        body -> {
                            GtidSetDeltas.Writer sets = new GtidSetDeltas.Writer();
                            Varints.writeInt(body, finished.size());
                            for (Map.Entry<TableId, List<SnapshotBook.Finished>> e :
                                    finished.entrySet()) {
                                ChunkPlannerStateSerializer.writeTable(e.getKey(), body);
                                writeFinishedChunks(e.getValue(), sets, body);
                            }
                        });
        Varints.writeInt(out, packed.length);
        out.write(packed);
    }

    private static void writeFinishedChunks(
            List<SnapshotBook.Finished> list, GtidSetDeltas.Writer sets, DataOutput body)
            throws IOException {
        List<GtidSet> perChunk = new ArrayList<>(list.size());
        for (SnapshotBook.Finished f : list) {
            perChunk.add(f.completion().gtidSet());
        }
        int[] ranks = GtidChain.write(perChunk, sets, body);
        Varints.writeInt(body, list.size());
        ChunkBoundDeltas bounds = new ChunkBoundDeltas();
        long previousIndex = 0;
        long previousRank = 0;
        for (int i = 0; i < list.size(); i++) {
            SnapshotBook.Finished f = list.get(i);
            int index = f.chunk().index();
            Varints.writeSignedLong(body, index - previousIndex);
            Varints.writeSignedLong(body, ranks[i] - previousRank);
            Varints.writeLong(body, f.completion().rowCount());
            bounds.write(f.chunk().range().low(), body);
            bounds.write(f.chunk().range().high(), body);
            previousIndex = index;
            previousRank = ranks[i];
        }
    }

    private static Map<TableId, List<SnapshotBook.Finished>> readFinished(DataInputView in)
            throws IOException {
        byte[] packed = new byte[Varints.readInt(in)];
        in.readFully(packed);
        Map<TableId, List<SnapshotBook.Finished>> finished = new LinkedHashMap<>();
        try (DataInputStream body = Deflated.unpack(packed)) {
            GtidSetDeltas.Reader sets = new GtidSetDeltas.Reader();
            int nTables = Varints.readInt(body);
            for (int t = 0; t < nTables; t++) {
                TableId table = ChunkPlannerStateSerializer.readTable(body);
                GtidSet[] chain = GtidChain.read(sets, body, Integer.MAX_VALUE);
                int distinct = chain.length;
                int n = Varints.readInt(body);
                List<SnapshotBook.Finished> list = new ArrayList<>(n);
                ChunkBoundDeltas bounds = new ChunkBoundDeltas();
                long index = 0;
                long rank = 0;
                for (int i = 0; i < n; i++) {
                    index += Varints.readSignedLong(body);
                    rank += Varints.readSignedLong(body);
                    if (rank < 0 || rank >= distinct || index < 0 || index > Integer.MAX_VALUE) {
                        throw new IOException("corrupt enumerator state: chunk out of range");
                    }
                    long rows = Varints.readLong(body);
                    ChunkRange range = ChunkRange.of(bounds.read(body), bounds.read(body));
                    list.add(
                            new SnapshotBook.Finished(
                                    new SnapshotChunk(table, (int) index, range),
                                    new ChunkCompletion(chain[(int) rank], rows)));
                }
                finished.put(table, list);
            }
            if (body.read() >= 0) {
                throw new IOException("corrupt enumerator state: trailing finished bytes");
            }
        }
        return finished;
    }

    /** Version 2: per table a dictionary of distinct G as text, then each chunk in full. */
    private static Map<TableId, List<SnapshotBook.Finished>> readFinishedVersion2(DataInputView in)
            throws IOException {
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
                long rows = Varints.readLong(in);
                list.add(
                        new SnapshotBook.Finished(
                                new SnapshotChunk(table, index, range),
                                new ChunkCompletion(dictionary[g], rows)));
            }
            finished.put(table, list);
        }
        return finished;
    }
}

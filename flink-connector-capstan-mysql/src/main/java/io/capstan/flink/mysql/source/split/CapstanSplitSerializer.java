package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.CursorGateSerializer;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeySerializer;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerStateSerializer;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Versioned bytes of {@link CapstanSplit}s for checkpoints and savepoints.
 *
 * <p>Version 1: a kind tag byte, then for BINLOG: table count, each table's database and name, the
 * processed GTID set in canonical text, a flag and the partial transaction's GTID, the number of
 * its rows already emitted. Strings are length-prefixed UTF-8.
 *
 * <p>Version 2: BINLOG as in version 1 followed by the cursor gate (length-prefixed {@link
 * CursorGateSerializer} bytes in its version 1, G as text); SNAPSHOT_CHUNK: the chunk key ({@link
 * ChunkKeySerializer}), the chunk (table, index, range as encoded key tuples: {@link
 * ChunkPlannerStateSerializer}), the table's schema fingerprint (a long), a completion flag and,
 * when set, its G in canonical text and its row count.
 *
 * <p>Version 3: as version 2, the cursor gate in {@link CursorGateSerializer}'s version 2 (G as
 * binary differences, bounds as deltas, deflated: docs/adr/0007). The gate's bytes carry their own
 * version, so versions 2 and 3 are read alike.
 *
 * <p>Version 4 (written now): as version 3, BINLOG followed by its {@link StreamOrigin}: a byte (1
 * after a snapshot, 2 stream-only), and for stream-only a flag and the start timestamp in
 * milliseconds. A binlog split of versions 1 to 3 has the {@link StreamOrigin#UNKNOWN} origin.
 *
 * <p>Bytes of every version are checked in under src/test/resources/serializer/ and must keep
 * deserializing.
 */
@Internal
public final class CapstanSplitSerializer implements SimpleVersionedSerializer<CapstanSplit> {

    public static final CapstanSplitSerializer INSTANCE = new CapstanSplitSerializer();

    public static final int VERSION = 4;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(CapstanSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public CapstanSplit deserialize(int version, byte[] serialized) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        CapstanSplit split = read(in, version);
        if (in.available() > 0) {
            throw new IOException("corrupt split state: " + in.available() + " trailing bytes");
        }
        return split;
    }

    /** Writes a split in the current version's layout (also used inside the enumerator state). */
    public static void write(CapstanSplit split, DataOutputView out) throws IOException {
        out.writeByte(split.kind().tag());
        switch (split.kind()) {
            case BINLOG:
                writeBinlog(split.asBinlogSplit(), out);
                writeGate(split.asBinlogSplit().gate(), out);
                writeOrigin(split.asBinlogSplit().origin(), out);
                break;
            case SNAPSHOT_CHUNK:
                writeChunk(split.asSnapshotChunkSplit(), out);
                break;
            default:
                throw new IOException("unknown split kind " + split.kind());
        }
    }

    /** Reads a split of the given version. */
    public static CapstanSplit read(DataInputView in, int version) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "unknown split serializer version "
                            + version
                            + " (this build reads 1 to "
                            + VERSION
                            + ")");
        }
        SplitKind kind;
        try {
            kind = SplitKind.ofTag(in.readByte());
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt split state: " + e.getMessage(), e);
        }
        switch (kind) {
            case BINLOG:
                BinlogSplit binlog = readBinlog(in);
                if (version == 1) {
                    return binlog;
                }
                binlog = binlog.withStart(binlog.start(), readGate(in));
                return version < 4 ? binlog : binlog.withOrigin(readOrigin(in));
            case SNAPSHOT_CHUNK:
                if (version == 1) {
                    throw new IOException("corrupt split state: no chunk splits in version 1");
                }
                return readChunk(in);
            default:
                throw new IOException("unknown split kind " + kind);
        }
    }

    private static void writeBinlog(BinlogSplit split, DataOutputView out) throws IOException {
        out.writeInt(split.tables().size());
        for (TableId t : split.tables()) {
            SerdeText.write(out, t.database());
            SerdeText.write(out, t.table());
        }
        BinlogStartPosition start = split.start();
        SerdeText.write(out, start.processed().toString());
        Gtid partial = start.partialGtid();
        out.writeBoolean(partial != null);
        if (partial != null) {
            SerdeText.write(out, partial.toString());
        }
        out.writeInt(partial == null ? 0 : start.rowsAlreadyEmitted());
    }

    private static BinlogSplit readBinlog(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt split state: negative table count");
        }
        List<TableId> tables = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tables.add(TableId.of(SerdeText.read(in), SerdeText.read(in)));
        }
        GtidSet processed = GtidSet.parse(SerdeText.read(in));
        Gtid partial = in.readBoolean() ? Gtid.parse(SerdeText.read(in)) : null;
        int rows = in.readInt();
        try {
            return new BinlogSplit(tables, BinlogStartPosition.of(processed, partial, rows));
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt split state: " + e.getMessage(), e);
        }
    }

    private static final byte ORIGIN_AFTER_SNAPSHOT = 1;
    private static final byte ORIGIN_STREAM_ONLY = 2;

    private static void writeOrigin(StreamOrigin origin, DataOutputView out) throws IOException {
        if (!origin.known()) {
            // Only a split read from an older checkpoint: written so, it reads back as unknown.
            out.writeByte(0);
            return;
        }
        out.writeByte(origin.snapshotted() ? ORIGIN_AFTER_SNAPSHOT : ORIGIN_STREAM_ONLY);
        if (!origin.snapshotted()) {
            Long ts = origin.startTimestampMillis();
            out.writeBoolean(ts != null);
            if (ts != null) {
                out.writeLong(ts);
            }
        }
    }

    private static StreamOrigin readOrigin(DataInputView in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case 0:
                return StreamOrigin.UNKNOWN;
            case ORIGIN_AFTER_SNAPSHOT:
                return StreamOrigin.AFTER_SNAPSHOT;
            case ORIGIN_STREAM_ONLY:
                return StreamOrigin.streamOnly(in.readBoolean() ? in.readLong() : null);
            default:
                throw new IOException("corrupt split state: unknown stream origin " + tag);
        }
    }

    private static void writeGate(CursorGate gate, DataOutputView out) throws IOException {
        byte[] bytes = CursorGateSerializer.toBytes(gate);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static CursorGate readGate(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt split state: negative gate length");
        }
        byte[] bytes = new byte[n];
        in.readFully(bytes);
        try {
            return CursorGateSerializer.fromBytes(bytes);
        } catch (RuntimeException e) {
            throw new IOException("corrupt split state: unreadable cursor gate", e);
        }
    }

    private static void writeChunk(SnapshotChunkSplit split, DataOutputView out)
            throws IOException {
        ChunkKeySerializer.write(split.key(), out);
        ChunkPlannerStateSerializer.writeChunk(split.chunk(), out);
        out.writeLong(split.schemaFingerprint());
        ChunkCompletion c = split.completion();
        out.writeBoolean(c != null);
        if (c != null) {
            SerdeText.write(out, c.gtidSet().toString());
            out.writeLong(c.rowCount());
        }
    }

    private static SnapshotChunkSplit readChunk(DataInputView in) throws IOException {
        try {
            ChunkKey key = ChunkKeySerializer.read(in);
            SnapshotChunk chunk = ChunkPlannerStateSerializer.readChunk(in);
            long fingerprint = in.readLong();
            ChunkCompletion c = null;
            if (in.readBoolean()) {
                c = new ChunkCompletion(GtidSet.parse(SerdeText.read(in)), in.readLong());
            }
            return new SnapshotChunkSplit(key, chunk, fingerprint, c);
        } catch (RuntimeException e) {
            throw new IOException("corrupt split state: " + e.getMessage(), e);
        }
    }
}

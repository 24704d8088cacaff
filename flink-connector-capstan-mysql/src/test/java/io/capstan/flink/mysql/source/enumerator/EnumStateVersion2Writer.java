package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKeySerializer;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerStateSerializer;
import io.capstan.flink.mysql.source.split.SerdeText;

import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the build before docs/adr/0007 wrote for the enumerator's snapshot state (version 2: each
 * chunk's bounds as tagged tuples, each distinct G as text), kept to measure the old size. Only
 * states without a pending binlog split or pending chunks (the state at the handoff).
 */
final class EnumStateVersion2Writer {

    static byte[] toBytes(SnapshotProgress s) throws IOException {
        if (!s.pending().isEmpty()) {
            throw new IllegalArgumentException("only for states without pending chunks");
        }
        DataOutputSerializer out = new DataOutputSerializer(1 << 20);
        out.writeBoolean(false); // binlog split not assigned
        out.writeBoolean(false); // none pending
        out.writeBoolean(true);
        KeyTupleCodec.writeVarInt(out, s.tables().size());
        for (SnapshotTable t : s.tables()) {
            ChunkKeySerializer.write(t.key(), out);
            out.writeLong(t.schemaFingerprint());
        }
        KeyTupleCodec.writeVarInt(out, s.plannerStates().size());
        for (ChunkPlannerState p : s.plannerStates()) {
            ChunkPlannerStateSerializer.write(p, out);
        }
        KeyTupleCodec.writeVarInt(out, 0);
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
                long v = f.completion().rowCount();
                while ((v & ~0x7FL) != 0) {
                    out.writeByte((int) ((v & 0x7F) | 0x80));
                    v >>>= 7;
                }
                out.writeByte((int) v);
            }
        }
        out.writeLong(SnapshotProgress.toStored(s.lastCheckpointTaken()));
        out.writeLong(SnapshotProgress.toStored(s.latestCompletionAfter()));
        return out.getCopyOfBuffer();
    }

    private EnumStateVersion2Writer() {}
}

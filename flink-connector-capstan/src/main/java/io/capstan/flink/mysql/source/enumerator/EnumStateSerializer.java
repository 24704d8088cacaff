package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;
import io.capstan.flink.mysql.source.split.SplitKind;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned bytes of {@link EnumState}.
 *
 * <p>Version 1: a flag whether the binlog split is assigned, a flag whether an unassigned binlog
 * split follows, then that split in {@link CapstanSplitSerializer}'s version-1 layout.
 */
public final class EnumStateSerializer implements SimpleVersionedSerializer<EnumState> {

    public static final EnumStateSerializer INSTANCE = new EnumStateSerializer();

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(EnumState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        out.writeBoolean(state.binlogSplitAssigned());
        BinlogSplit pending = state.unassignedBinlogSplit();
        out.writeBoolean(pending != null);
        if (pending != null) {
            CapstanSplitSerializer.write(pending, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumState deserialize(int version, byte[] serialized) throws IOException {
        if (version != 1) {
            throw new IOException(
                    "unknown enumerator state version " + version + " (this build reads 1)");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        boolean assigned = in.readBoolean();
        BinlogSplit pending = null;
        if (in.readBoolean()) {
            CapstanSplit split = CapstanSplitSerializer.read(in);
            if (split.kind() != SplitKind.BINLOG) {
                throw new IOException("corrupt enumerator state: pending split of kind " + split.kind());
            }
            pending = split.asBinlogSplit();
        }
        if (in.available() > 0) {
            throw new IOException("corrupt enumerator state: " + in.available() + " trailing bytes");
        }
        return new EnumState(pending, assigned);
    }
}

package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.binlog.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned bytes of {@link CapstanSplit}s for checkpoints and savepoints.
 *
 * <p>Version 1: a kind tag byte, then for BINLOG: table count, each table's database and name, the
 * processed GTID set in canonical text, a flag and the partial transaction's GTID, the number of
 * its rows already emitted. Strings are length-prefixed UTF-8. Bytes of version 1 are checked in
 * under src/test/resources/serializer/ and must keep deserializing.
 */
public final class CapstanSplitSerializer implements SimpleVersionedSerializer<CapstanSplit> {

    public static final CapstanSplitSerializer INSTANCE = new CapstanSplitSerializer();

    private static final int VERSION = 1;

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
        if (version != 1) {
            throw new IOException(
                    "unknown split serializer version " + version + " (this build reads 1)");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        CapstanSplit split = read(in);
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
                break;
            default:
                throw new IOException(split.kind() + " splits are not serializable in version 1");
        }
    }

    /** Reads a split of version 1. */
    public static CapstanSplit read(DataInputView in) throws IOException {
        SplitKind kind;
        try {
            kind = SplitKind.ofTag(in.readByte());
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt split state: " + e.getMessage(), e);
        }
        switch (kind) {
            case BINLOG:
                return readBinlog(in);
            default:
                throw new IOException(kind + " splits are not readable in version 1");
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
}

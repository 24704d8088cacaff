package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Versioned binary form of a {@link ChunkKey} (structure only, no values). Version 2 adds each
 * column's {@link KeyCollation} and is written only for a key with a collated column, so every
 * other key keeps its version 1 bytes (checkpoints written before collated keys existed are
 * byte-identical to today's).
 */
@Internal
public final class ChunkKeySerializer {
    public static final int VERSION = 2;
    private static final int VERSION_WITHOUT_COLLATIONS = 1;

    private ChunkKeySerializer() {}

    public static void write(ChunkKey key, DataOutput out) throws IOException {
        int version = key.needsWeights() ? VERSION : VERSION_WITHOUT_COLLATIONS;
        out.writeByte(version);
        out.writeUTF(key.table().database());
        out.writeUTF(key.table().table());
        out.writeByte(key.source().ordinal());
        KeyTupleCodec.writeVarInt(out, key.arity());
        for (KeyColumn c : key.columns()) {
            out.writeUTF(c.name());
            KeyTupleCodec.writeVarInt(out, c.rowIndex());
            out.writeByte(c.kind().ordinal());
            out.writeBoolean(c.unsigned());
            KeyTupleCodec.writeVarInt(out, c.length());
            KeyTupleCodec.writeVarInt(out, c.scale());
            out.writeUTF(c.dataType());
            if (version == VERSION_WITHOUT_COLLATIONS) {
                continue;
            }
            KeyCollation k = c.collation();
            out.writeBoolean(k != null);
            if (k != null) {
                out.writeUTF(k.name());
                out.writeUTF(k.charset());
                out.writeBoolean(k.padSpace());
                KeyTupleCodec.writeVarInt(out, k.spaceWeight().length);
                out.write(k.spaceWeight());
            }
        }
    }

    public static ChunkKey read(DataInput in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != VERSION_WITHOUT_COLLATIONS && version != VERSION) {
            throw new IOException("unknown chunk key format version " + version);
        }
        TableId table = TableId.of(in.readUTF(), in.readUTF());
        ChunkKey.Source source = ChunkKey.Source.values()[in.readUnsignedByte()];
        int n = KeyTupleCodec.readVarInt(in);
        List<KeyColumn> cols = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            int rowIndex = KeyTupleCodec.readVarInt(in);
            KeyKind kind = KeyKind.values()[in.readUnsignedByte()];
            boolean unsigned = in.readBoolean();
            int length = KeyTupleCodec.readVarInt(in);
            int scale = KeyTupleCodec.readVarInt(in);
            String dataType = in.readUTF();
            KeyCollation collation =
                    version == VERSION && in.readBoolean() ? readCollation(in) : null;
            cols.add(
                    new KeyColumn(
                            name, rowIndex, kind, unsigned, length, scale, dataType, collation));
        }
        return new ChunkKey(table, cols, source);
    }

    private static KeyCollation readCollation(DataInput in) throws IOException {
        String name = in.readUTF();
        String charset = in.readUTF();
        boolean padSpace = in.readBoolean();
        int n = KeyTupleCodec.readVarInt(in);
        if (n < 1 || n > 64) {
            throw new IOException("corrupt chunk key: space weight of " + n + " bytes");
        }
        byte[] space = new byte[n];
        in.readFully(space);
        return new KeyCollation(name, charset, padSpace, space);
    }
}

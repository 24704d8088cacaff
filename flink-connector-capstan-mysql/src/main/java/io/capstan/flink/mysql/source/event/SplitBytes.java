package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Chunk and binlog splits inside events, in the splits' own versioned format. */
final class SplitBytes {
    private SplitBytes() {}

    static byte[][] toBytes(List<SnapshotChunkSplit> splits) {
        byte[][] out = new byte[splits.size()][];
        try {
            for (int i = 0; i < out.length; i++) {
                out[i] = CapstanSplitSerializer.INSTANCE.serialize(splits.get(i));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static List<SnapshotChunkSplit> fromBytes(byte[][] bytes) {
        List<SnapshotChunkSplit> out = new ArrayList<>(bytes.length);
        try {
            for (byte[] b : bytes) {
                CapstanSplit s =
                        CapstanSplitSerializer.INSTANCE.deserialize(
                                CapstanSplitSerializer.VERSION, b);
                out.add(s.asSnapshotChunkSplit());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static byte[] toBytes(BinlogSplit split) {
        try {
            return CapstanSplitSerializer.INSTANCE.serialize(split);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static BinlogSplit binlogFromBytes(byte[] bytes) {
        try {
            return CapstanSplitSerializer.INSTANCE
                    .deserialize(CapstanSplitSerializer.VERSION, bytes)
                    .asBinlogSplit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import java.util.List;

/**
 * Reader → enumerator: these chunks were read and emitted (each split carries its completion: G and
 * row count). Sent when a chunk finishes and again after every restore for the completions still
 * unacknowledged; the enumerator counts each chunk once (by its id).
 *
 * <p>Travels as a Java-serialized event: it carries chunk boundaries (values), which stay in the
 * data path (Flink's RPC), never in logs; {@link #toString()} counts only.
 */
@Internal
public final class ChunksCompletedEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final byte[][] splits; // CapstanSplitSerializer bytes: the splits' own format

    public ChunksCompletedEvent(List<SnapshotChunkSplit> completed) {
        this.splits = SplitBytes.toBytes(completed);
    }

    public List<SnapshotChunkSplit> completed() {
        return SplitBytes.fromBytes(splits);
    }

    @Override
    public String toString() {
        return "ChunksCompletedEvent{chunks=" + splits.length + "}";
    }
}

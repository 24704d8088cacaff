package io.capstan.flink.mysql.source.split;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

/**
 * A chunk split in a reader: unread until the emitter has emitted all its rows in one call and
 * recorded the completion here. A checkpoint taken between that call and the split's removal stores
 * the split with its completion, so the chunk is never read twice.
 */
@Internal
public final class SnapshotChunkSplitState extends CapstanSplitState {

    private final SnapshotChunkSplit split;
    @Nullable private ChunkCompletion completion;

    public SnapshotChunkSplitState(SnapshotChunkSplit split) {
        this.split = split;
        this.completion = split.completion();
    }

    /** Records that the chunk's rows were emitted (emitter only). */
    public void completed(ChunkCompletion c) {
        if (completion != null) {
            throw new IllegalStateException("chunk " + split.splitId() + " was emitted twice");
        }
        completion = c;
    }

    @Nullable
    public ChunkCompletion completion() {
        return completion;
    }

    public SnapshotChunkSplit split() {
        return split;
    }

    @Override
    public SplitKind kind() {
        return SplitKind.SNAPSHOT_CHUNK;
    }

    @Override
    public SnapshotChunkSplit toSplit() {
        return completion == null ? split.unread() : split.withCompletion(completion);
    }

    @Override
    public SnapshotChunkSplitState asSnapshotChunkSplitState() {
        return this;
    }

    @Override
    public String toString() {
        return "SnapshotChunkSplitState{"
                + split.splitId()
                + ", completed="
                + (completion != null)
                + "}";
    }
}

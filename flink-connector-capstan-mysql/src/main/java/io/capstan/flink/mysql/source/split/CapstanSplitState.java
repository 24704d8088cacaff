package io.capstan.flink.mysql.source.split;

import org.apache.flink.annotation.Internal;

/**
 * The reader's mutable progress on one split. Changed only by the record emitter on the task
 * thread, so a checkpoint sees it exactly as the last emitted element left it.
 */
@Internal
public abstract class CapstanSplitState {

    public abstract SplitKind kind();

    /** The immutable split that resumes from this state. */
    public abstract CapstanSplit toSplit();

    /**
     * This state as a binlog split state.
     *
     * @throws IllegalStateException when it is of another kind
     */
    public BinlogSplitState asBinlogSplitState() {
        throw new IllegalStateException("state of a " + kind() + " split");
    }

    /**
     * This state as a chunk split state.
     *
     * @throws IllegalStateException when it is of another kind
     */
    public SnapshotChunkSplitState asSnapshotChunkSplitState() {
        throw new IllegalStateException("state of a " + kind() + " split");
    }

    /** The initial state of a split. */
    public static CapstanSplitState of(CapstanSplit split) {
        switch (split.kind()) {
            case BINLOG:
                return new BinlogSplitState(split.asBinlogSplit());
            case SNAPSHOT_CHUNK:
                return new SnapshotChunkSplitState(split.asSnapshotChunkSplit());
            default:
                throw new IllegalArgumentException("unknown split kind " + split.kind());
        }
    }
}

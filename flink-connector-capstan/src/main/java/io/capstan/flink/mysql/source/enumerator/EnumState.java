package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

/**
 * The enumerator's checkpointed state: the planned binlog split waiting for a reader, or whether a
 * reader holds it (its position is then in the reader's state); and, from the resolved tables until
 * a checkpoint after the binlog split went out, the snapshot's {@link SnapshotProgress}. Which
 * {@link EnumeratorPhase} a restore resumes in follows from these (see {@code
 * SplitAssignmentTracker.restore}).
 *
 * @param unassignedBinlogSplit the planned binlog split waiting for a reader, or null
 * @param binlogSplitAssigned whether a reader holds the binlog split
 * @param snapshot the snapshot's progress, or null before its tables are resolved, in the
 *     stream-only modes, and once the binlog split is in its reader's checkpoint
 */
@Internal
public record EnumState(
        @Nullable BinlogSplit unassignedBinlogSplit,
        boolean binlogSplitAssigned,
        @Nullable SnapshotProgress snapshot) {

    private static final EnumState INITIAL = new EnumState(null, false);

    public EnumState {
        if (unassignedBinlogSplit != null && binlogSplitAssigned) {
            throw new IllegalArgumentException("the binlog split is either assigned or pending");
        }
    }

    /** The state of the stream-only modes (no snapshot progress). */
    public EnumState(@Nullable BinlogSplit unassignedBinlogSplit, boolean binlogSplitAssigned) {
        this(unassignedBinlogSplit, binlogSplitAssigned, null);
    }

    /** A new job: nothing planned, nothing assigned. */
    public static EnumState initial() {
        return INITIAL;
    }
}

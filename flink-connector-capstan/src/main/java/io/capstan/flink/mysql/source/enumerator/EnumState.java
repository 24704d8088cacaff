package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The enumerator's checkpointed state: whether the binlog split is planned, and whether it is out
 * with a reader (once a reader holds it, the reader's state carries its position); and while a
 * snapshot runs, its {@link SnapshotProgress}.
 */
public final class EnumState {

    private static final EnumState INITIAL = new EnumState(null, false);

    @Nullable private final BinlogSplit unassignedBinlogSplit;
    private final boolean binlogSplitAssigned;
    @Nullable private final SnapshotProgress snapshot;

    public EnumState(@Nullable BinlogSplit unassignedBinlogSplit, boolean binlogSplitAssigned) {
        this(unassignedBinlogSplit, binlogSplitAssigned, null);
    }

    public EnumState(
            @Nullable BinlogSplit unassignedBinlogSplit,
            boolean binlogSplitAssigned,
            @Nullable SnapshotProgress snapshot) {
        if (unassignedBinlogSplit != null && binlogSplitAssigned) {
            throw new IllegalArgumentException("the binlog split is either assigned or pending");
        }
        this.unassignedBinlogSplit = unassignedBinlogSplit;
        this.binlogSplitAssigned = binlogSplitAssigned;
        this.snapshot = snapshot;
    }

    /** The snapshot's progress while it runs (null before its tables are resolved, and after the handoff). */
    @Nullable
    public SnapshotProgress snapshot() {
        return snapshot;
    }

    /** A new job: nothing planned, nothing assigned. */
    public static EnumState initial() {
        return INITIAL;
    }

    /** The planned binlog split waiting for a reader, or null. */
    @Nullable
    public BinlogSplit unassignedBinlogSplit() {
        return unassignedBinlogSplit;
    }

    /** Whether a reader holds the binlog split (its position is then in the reader's state). */
    public boolean binlogSplitAssigned() {
        return binlogSplitAssigned;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof EnumState)) {
            return false;
        }
        EnumState that = (EnumState) o;
        return binlogSplitAssigned == that.binlogSplitAssigned
                && Objects.equals(unassignedBinlogSplit, that.unassignedBinlogSplit)
                && Objects.equals(snapshot, that.snapshot);
    }

    @Override
    public int hashCode() {
        return Objects.hash(unassignedBinlogSplit, binlogSplitAssigned);
    }

    @Override
    public String toString() {
        return "EnumState{unassignedBinlogSplit=" + unassignedBinlogSplit + ", binlogSplitAssigned="
                + binlogSplitAssigned + ", snapshot=" + snapshot + "}";
    }
}

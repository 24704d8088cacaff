package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The enumerator's checkpointed state: whether the binlog split is planned, and whether it is out
 * with a reader. Once a reader holds it, the reader's state carries its position.
 *
 * <p>The snapshot feature adds its chunk plan here (with a new serializer version).
 */
public final class EnumState {

    private static final EnumState INITIAL = new EnumState(null, false);

    @Nullable private final BinlogSplit unassignedBinlogSplit;
    private final boolean binlogSplitAssigned;

    public EnumState(@Nullable BinlogSplit unassignedBinlogSplit, boolean binlogSplitAssigned) {
        if (unassignedBinlogSplit != null && binlogSplitAssigned) {
            throw new IllegalArgumentException("the binlog split is either assigned or pending");
        }
        this.unassignedBinlogSplit = unassignedBinlogSplit;
        this.binlogSplitAssigned = binlogSplitAssigned;
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
                && Objects.equals(unassignedBinlogSplit, that.unassignedBinlogSplit);
    }

    @Override
    public int hashCode() {
        return Objects.hash(unassignedBinlogSplit, binlogSplitAssigned);
    }

    @Override
    public String toString() {
        return "EnumState{unassignedBinlogSplit=" + unassignedBinlogSplit + ", binlogSplitAssigned="
                + binlogSplitAssigned + "}";
    }
}

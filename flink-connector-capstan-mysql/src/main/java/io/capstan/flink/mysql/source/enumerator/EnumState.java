package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.List;

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
 * @param capturedTables the tables the job captures, for the check that a restore keeps the
 *     configured table list ({@link RestoredTableList}); empty before they are known, and in states
 *     of versions before 3. While STREAMING only the binlog split's own list is the truth: tables
 *     created at runtime join it, not this list.
 * @param addingTables the phase is {@link EnumeratorPhase#ADDING_TABLES}: {@code snapshot} is the
 *     snapshot of the tables being added to the held binlog split (false in states of versions
 *     before 4)
 */
@Internal
public record EnumState(
        @Nullable BinlogSplit unassignedBinlogSplit,
        boolean binlogSplitAssigned,
        @Nullable SnapshotProgress snapshot,
        List<TableId> capturedTables,
        boolean addingTables) {

    private static final EnumState INITIAL = new EnumState(null, false);

    public EnumState {
        if (unassignedBinlogSplit != null && binlogSplitAssigned) {
            throw new IllegalArgumentException("the binlog split is either assigned or pending");
        }
        if (addingTables && (!binlogSplitAssigned || snapshot == null)) {
            throw new IllegalArgumentException(
                    "tables are added to an assigned binlog split, with their snapshot progress");
        }
        capturedTables = List.copyOf(capturedTables);
    }

    /** Not adding tables. */
    public EnumState(
            @Nullable BinlogSplit unassignedBinlogSplit,
            boolean binlogSplitAssigned,
            @Nullable SnapshotProgress snapshot,
            List<TableId> capturedTables) {
        this(unassignedBinlogSplit, binlogSplitAssigned, snapshot, capturedTables, false);
    }

    /** Without the captured tables (not known, or a state of a version before 3). */
    public EnumState(
            @Nullable BinlogSplit unassignedBinlogSplit,
            boolean binlogSplitAssigned,
            @Nullable SnapshotProgress snapshot) {
        this(unassignedBinlogSplit, binlogSplitAssigned, snapshot, List.of(), false);
    }

    /** The state of the stream-only modes (no snapshot progress). */
    public EnumState(@Nullable BinlogSplit unassignedBinlogSplit, boolean binlogSplitAssigned) {
        this(unassignedBinlogSplit, binlogSplitAssigned, null, List.of(), false);
    }

    /** A new job: nothing planned, nothing assigned. */
    public static EnumState initial() {
        return INITIAL;
    }

    /**
     * The captured tables; for a state of a version before 3, what its progress or pending split
     * names (empty for a held binlog split: only its reader knows them).
     */
    public List<TableId> knownTables() {
        if (!capturedTables.isEmpty()) {
            return capturedTables;
        }
        if (snapshot != null) {
            return snapshot.tables().stream().map(t -> t.key().table()).toList();
        }
        return unassignedBinlogSplit != null ? unassignedBinlogSplit.tables() : List.of();
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.SnapshotLoadLimits;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The snapshot's questions to the server (and, for a restored job of any mode, whether the
 * configured table list still selects its tables), asked off the coordinator thread.
 * Implementations own their connections; the enumerator passes immutable inputs in and installs the
 * results on its own thread.
 */
@Internal
public interface SnapshotPlanning extends AutoCloseable {

    /** How hard the snapshot may press the server: its rate and concurrency limits. */
    default SnapshotLoadLimits loadLimits() {
        return SnapshotLoadLimits.NONE;
    }

    /**
     * Resolves the captured tables, runs the preflight, decides each table's chunk key before
     * anything is read, and takes the fingerprint of its schema.
     *
     * @throws Exception a {@code CapstanHaltException} naming the table and the option that fixes
     *     it (no key, unsupported key, no table matched, preflight refusal)
     */
    List<SnapshotTable> resolveTables() throws Exception;

    /**
     * Checks that the configured table list selects exactly {@code inState}, the tables of a
     * restored job, on the server now ({@link RestoredTableList}).
     *
     * @throws Exception a {@code CapstanHaltException} {@code table_list_changed} naming the tables
     *     added and removed, or {@code no_tables_matched}
     */
    void checkRestoredTables(List<TableId> inState) throws Exception;

    /**
     * For a restored binlog split capturing {@code inSplit}: the tables the configured list no
     * longer selects on the server now (to drop from the split), and those it selects newly,
     * resolved as {@link #resolveTables} does (to snapshot and add; {@link
     * RestoredTableList#splitChange}).
     *
     * @throws Exception a {@code CapstanHaltException} {@code table_list_changed} naming the tables
     *     added when adding them is not enabled, or a refusal of an added table (no key, ...)
     */
    RestoredSplitCheck checkRestoredSplit(List<TableId> inSplit) throws Exception;

    /**
     * @param removed the tables to drop from the split
     * @param added the tables to snapshot and add to the split, resolved; empty for none
     */
    record RestoredSplitCheck(Set<TableId> removed, List<SnapshotTable> added) {
        public RestoredSplitCheck {
            removed = Set.copyOf(removed);
            added = List.copyOf(added);
        }
    }

    /** The server's {@code gtid_purged} now ({@link HandoffStartWatch}). */
    GtidSet gtidPurged() throws Exception;

    /**
     * The server's binlog retention now and, unless {@code estimateRowsOf} is empty, the sum of
     * those tables' row estimates: what the snapshot's estimated duration is weighed against
     * ({@link SnapshotDurationEstimate}). Asked with the tables once when the snapshot starts, then
     * without them at every look of the purge watch, on the same connection.
     */
    RetentionFacts retentionFacts(List<ChunkKey> estimateRowsOf) throws Exception;

    /**
     * @param retention empty when the server shows no retention variable
     * @param estimatedRows empty when not asked for
     */
    record RetentionFacts(Optional<BinlogRetention> retention, OptionalLong estimatedRows) {
        public RetentionFacts {
            Objects.requireNonNull(retention, "retention");
            Objects.requireNonNull(estimatedRows, "estimatedRows");
        }
    }

    /** The server's address, for messages. */
    String serverAddress();

    /** Plans up to {@code max} next chunks from the given progress. */
    Planned planMore(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) throws Exception;

    /** Planned chunks and the progress after them. */
    final class Planned {
        final List<SnapshotChunk> chunks;
        final List<ChunkPlannerState> states;

        public Planned(List<SnapshotChunk> chunks, List<ChunkPlannerState> states) {
            this.chunks = List.copyOf(chunks);
            this.states = List.copyOf(states);
        }

        public List<SnapshotChunk> chunks() {
            return chunks;
        }

        public List<ChunkPlannerState> states() {
            return states;
        }
    }

    @Override
    void close();
}

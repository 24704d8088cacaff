package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans the chunks of several tables one after another (tables in the given order), lazily. Its
 * state is one {@link ChunkPlannerState} per table, each a few dozen bytes. Not thread-safe.
 */
@Internal
public final class SnapshotPlanner {
    private final Map<TableId, TableChunkPlanner> planners = new LinkedHashMap<>();

    /**
     * @param keys the resolved key of each table to snapshot, in planning order
     * @param restored states from a checkpoint (tables missing here start from scratch)
     */
    public SnapshotPlanner(
            List<ChunkKey> keys,
            int chunkSize,
            BoundaryQueries queries,
            Map<TableId, ChunkPlannerState> restored) {
        for (ChunkKey key : keys) {
            ChunkPlannerState s =
                    restored.getOrDefault(key.table(), ChunkPlannerState.start(key.table()));
            planners.put(key.table(), new TableChunkPlanner(key, chunkSize, queries, s));
        }
    }

    /** The next chunk of the first table not fully planned, or empty when all are. */
    public Optional<SnapshotChunk> next() throws IOException {
        for (TableChunkPlanner p : planners.values()) {
            if (!p.isFinished()) {
                Optional<SnapshotChunk> c = p.next();
                if (c.isPresent()) {
                    return c;
                }
            }
        }
        return Optional.empty();
    }

    public boolean isFinished() {
        return planners.values().stream().allMatch(TableChunkPlanner::isFinished);
    }

    /** Progress of every table, to checkpoint. */
    public List<ChunkPlannerState> states() {
        List<ChunkPlannerState> out = new ArrayList<>();
        for (TableChunkPlanner p : planners.values()) {
            out.add(p.state());
        }
        return out;
    }

    /** The number of chunks of a table once it is fully planned, else empty. */
    public Optional<Integer> chunkCount(TableId table) {
        TableChunkPlanner p = planners.get(table);
        return p != null && p.isFinished() ? Optional.of(p.state().nextIndex()) : Optional.empty();
    }
}

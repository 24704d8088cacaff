package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * Where the planning of one table stands: enough to resume it after a restore, and small (a few
 * dozen bytes) however large the table. Immutable.
 *
 * @param nextIndex the index the next planned chunk will get; after FINISHED, the table's chunk
 *     count
 * @param nextLow the first key of the next chunk (its low, except that chunk 0's low is open)
 * @param knownMax ARITHMETIC only: the largest key known to exist
 */
@Internal
public record ChunkPlannerState(
        TableId table, Mode mode, int nextIndex, KeyTuple nextLow, KeyTuple knownMax) {

    /** How the table is being split. */
    public enum Mode {
        /** Nothing planned yet. */
        NOT_STARTED,
        /** Dense single integer key: boundaries computed from MIN/MAX. */
        ARITHMETIC,
        /** Boundaries found by queries. */
        QUERY,
        /** All chunks planned. */
        FINISHED
    }

    public ChunkPlannerState {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(mode, "mode");
    }

    public static ChunkPlannerState start(TableId table) {
        return new ChunkPlannerState(table, Mode.NOT_STARTED, 0, null, null);
    }

    public boolean isFinished() {
        return mode == Mode.FINISHED;
    }

    /**
     * Identifiers and counts only: the next low and the known maximum are key values (the no-values
     * rule).
     */
    @Override
    public String toString() {
        return "ChunkPlannerState{table="
                + table
                + ", mode="
                + mode
                + ", nextIndex="
                + nextIndex
                + "}";
    }
}

package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * Where the planning of one table stands: enough to resume it after a restore, and small (a few
 * dozen bytes) however large the table. Immutable.
 */
@Internal
public final class ChunkPlannerState {

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

    private final TableId table;
    private final Mode mode;
    private final int nextIndex;

    /** The first key of the next chunk (its low, except that chunk 0's low is open). */
    private final KeyTuple nextLow;

    /** ARITHMETIC only: the largest key known to exist. */
    private final KeyTuple knownMax;

    public ChunkPlannerState(
            TableId table, Mode mode, int nextIndex, KeyTuple nextLow, KeyTuple knownMax) {
        this.table = Objects.requireNonNull(table, "table");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.nextIndex = nextIndex;
        this.nextLow = nextLow;
        this.knownMax = knownMax;
    }

    public static ChunkPlannerState start(TableId table) {
        return new ChunkPlannerState(table, Mode.NOT_STARTED, 0, null, null);
    }

    public TableId table() {
        return table;
    }

    public Mode mode() {
        return mode;
    }

    /** The index the next planned chunk will get; after FINISHED, the table's chunk count. */
    public int nextIndex() {
        return nextIndex;
    }

    public KeyTuple nextLow() {
        return nextLow;
    }

    public KeyTuple knownMax() {
        return knownMax;
    }

    public boolean isFinished() {
        return mode == Mode.FINISHED;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ChunkPlannerState)) {
            return false;
        }
        ChunkPlannerState s = (ChunkPlannerState) o;
        return table.equals(s.table)
                && mode == s.mode
                && nextIndex == s.nextIndex
                && Objects.equals(nextLow, s.nextLow)
                && Objects.equals(knownMax, s.knownMax);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, mode, nextIndex);
    }

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

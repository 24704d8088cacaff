package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.CursorGateSerializer;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Stream the binlog for {@link #tables()} from {@link #start()}: skip every transaction in the
 * start's processed set, and within its partial transaction the first rows already handled. After a
 * snapshot it carries the {@link #gate()} of the finished chunks, which suppresses the changes the
 * chunks already hold (empty when the job started without a snapshot).
 *
 * @param tables the captured tables; rows of any other table are not decoded
 * @param gate the finished chunks of the tables whose gate has not retired yet
 * @param origin how the stream began (kept across restores: the configured start mode of a restored
 *     job is not read again)
 */
@Internal
public record BinlogSplit(
        List<TableId> tables, BinlogStartPosition start, CursorGate gate, StreamOrigin origin)
        implements CapstanSplit {

    /** There is one binlog split per job. */
    public static final String SPLIT_ID = "binlog";

    public BinlogSplit {
        tables = List.copyOf(tables);
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(gate, "gate");
        Objects.requireNonNull(origin, "origin");
    }

    /** A split of {@link StreamOrigin#UNKNOWN} origin (as read from an older checkpoint). */
    public BinlogSplit(List<TableId> tables, BinlogStartPosition start, CursorGate gate) {
        this(tables, start, gate, StreamOrigin.UNKNOWN);
    }

    /** A split of {@link StreamOrigin#UNKNOWN} origin, with no gate. */
    public BinlogSplit(List<TableId> tables, BinlogStartPosition start) {
        this(tables, start, CursorGate.empty());
    }

    /** The same split, its stream begun as {@code newOrigin} says. */
    public BinlogSplit withOrigin(StreamOrigin newOrigin) {
        return new BinlogSplit(tables, start, gate, newOrigin);
    }

    /** The same split resumed from another position, with the gate as it stands then. */
    public BinlogSplit withStart(BinlogStartPosition newStart, CursorGate newGate) {
        return new BinlogSplit(tables, newStart, newGate, origin);
    }

    /** The same split resumed from another position. */
    public BinlogSplit withStart(BinlogStartPosition newStart) {
        return new BinlogSplit(tables, newStart, gate, origin);
    }

    /**
     * The same split without {@code dropped}: neither streamed nor gated any more. Only at a
     * transaction boundary: a partial transaction's count of rows already emitted counts rows of
     * the tables captured when it was taken.
     */
    public BinlogSplit withoutTables(Collection<TableId> dropped) {
        if (start.partialGtid() != null) {
            throw new IllegalStateException(
                    "tables leave a binlog split only at a transaction boundary");
        }
        List<TableId> kept = new ArrayList<>(tables);
        kept.removeAll(dropped);
        return new BinlogSplit(kept, start, gate.without(dropped), origin);
    }

    /**
     * The same split with {@code added}'s tables and gate entries joining its own: tables
     * snapshotted while the split was paused at a transaction boundary, whose chunks were read at
     * positions holding it. {@code added} starts where this split stands.
     */
    public BinlogSplit withAddedTables(BinlogSplit added) {
        if (start.partialGtid() != null || !added.start().equals(start)) {
            throw new IllegalStateException(
                    "tables join a binlog split only at the transaction boundary it paused at");
        }
        List<TableId> all = new ArrayList<>(tables);
        for (TableId t : added.tables()) {
            if (!all.contains(t)) {
                all.add(t);
            }
        }
        return new BinlogSplit(all, start, gate.with(added.gate()), origin);
    }

    @Override
    public String splitId() {
        return SPLIT_ID;
    }

    @Override
    public SplitKind kind() {
        return SplitKind.BINLOG;
    }

    @Override
    public BinlogSplit asBinlogSplit() {
        return this;
    }

    /** A {@link CursorGate} has no value equality of its own: gates compare by checkpoint form. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BinlogSplit)) {
            return false;
        }
        BinlogSplit that = (BinlogSplit) o;
        return tables.equals(that.tables)
                && start.equals(that.start)
                && origin.equals(that.origin)
                && (gate == that.gate
                        || Arrays.equals(
                                CursorGateSerializer.toBytes(gate),
                                CursorGateSerializer.toBytes(that.gate)));
    }

    /** Leaves the gate out, so that equal splits (equal gate bytes) hash alike. */
    @Override
    public int hashCode() {
        return Objects.hash(tables, start);
    }

    @Override
    public String toString() {
        // Positions and identifiers only (the no-values rule).
        return "BinlogSplit{tables="
                + tables.size()
                + ", processed="
                + BinlogPositionAxis.readable(start.processed())
                + ", partial="
                + BinlogPositionAxis.readable(start.partialGtid())
                + ", rowsAlreadyEmitted="
                + start.rowsAlreadyEmitted()
                + ", gate="
                + gate
                + ", origin="
                + origin
                + "}";
    }
}

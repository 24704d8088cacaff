package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

/**
 * What of a binlog row change passes the cursor gate: the image rule of {@link CursorGate} (an
 * INSERT gated by its after image, a DELETE by its before image, an UPDATE by both). An image is
 * suppressed when the change's transaction is in the G of the chunk holding the image's key (that
 * chunk already shows the change). For an UPDATE: neither suppressed, the UPDATE; both, nothing;
 * only the before image (its chunk already lacks the old row), an INSERT of the after image; only
 * the after image (its chunk already holds the new row), a DELETE of the before image. Pure.
 *
 * @param operation what to emit; null when nothing passes
 * @param before the before image to emit, if any
 * @param after the after image to emit, if any
 */
@Internal
public record GatedChange(
        @Nullable Operation operation, @Nullable RowData before, @Nullable RowData after) {

    /** Nothing passes. */
    public static final GatedChange SUPPRESSED = new GatedChange(null, null, null);

    public boolean isSuppressed() {
        return operation == null;
    }

    /** The part of {@code c} that passes {@code gate}; for a key that needs no weights. */
    public static GatedChange of(CursorGate gate, RowChange c) {
        return of(gate, c, null);
    }

    /**
     * The part of {@code c} that passes {@code gate}, its images' keys taken from {@code keys} when
     * given (a key with collated columns: IllegalStateException without them).
     */
    public static GatedChange of(CursorGate gate, RowChange c, @Nullable GateKeys keys) {
        if (!gate.isGated(c.tableId())) {
            return new GatedChange(c.operation(), c.before(), c.after());
        }
        switch (c.operation()) {
            case INSERT:
            case READ:
                return suppressed(gate, c, c.after(), keys == null ? null : keys.after())
                        ? SUPPRESSED
                        : new GatedChange(c.operation(), null, c.after());
            case DELETE:
                return suppressed(gate, c, c.before(), keys == null ? null : keys.before())
                        ? SUPPRESSED
                        : new GatedChange(Operation.DELETE, c.before(), null);
            case UPDATE:
                boolean beforeIn =
                        suppressed(gate, c, c.before(), keys == null ? null : keys.before());
                boolean afterIn =
                        suppressed(gate, c, c.after(), keys == null ? null : keys.after());
                if (beforeIn && afterIn) {
                    return SUPPRESSED;
                }
                if (beforeIn) {
                    return new GatedChange(Operation.INSERT, null, c.after());
                }
                if (afterIn) {
                    refuseRowInTwoChunks(gate, c);
                    return new GatedChange(Operation.DELETE, c.before(), null);
                }
                return new GatedChange(Operation.UPDATE, c.before(), c.after());
            default:
                throw new IllegalArgumentException("unknown operation " + c.operation());
        }
    }

    /**
     * Only the after image suppressed: the before image's chunk was read before this change and the
     * after image's chunk after it, so both chunks' snapshots hold the row. Where the chunk key is
     * the row's identity these are two rows, and the DELETE of the old one is exact. Where the
     * chunk key is a column beside the primary key it is one row shown twice under one primary key,
     * which no change can repair for a consumer keyed by it: halt.
     */
    private static void refuseRowInTwoChunks(CursorGate gate, RowChange c) {
        ChunkKey key = gate.key(c.tableId()).orElseThrow();
        if (key.rowsCanMoveBetweenChunks()) {
            throw new CapstanHaltException(
                    HaltReason.ROW_MOVED_BETWEEN_CHUNKS,
                    "table "
                            + c.tableId()
                            + ": an update of chunk key column "
                            + key.column(0).name()
                            + " during the snapshot"
                            + (c.gtid() == null ? "" : " (transaction " + c.gtid() + ")")
                            + " moved a row from a chunk read before it to a chunk read after it, so"
                            + " the snapshot showed that row twice under one primary key. Remedy:"
                            + " restart the job without state (a new snapshot) while that column is"
                            + " not updated, or chunk by a column that is never updated.");
        }
    }

    private static boolean suppressed(
            CursorGate gate, RowChange c, RowData image, @Nullable KeyTuple weighedKey) {
        return weighedKey != null
                ? gate.suppress(c.tableId(), weighedKey, c.gtid())
                : gate.suppress(c.tableId(), image, c.gtid());
    }

    /** The operation and which images pass, never their values (the no-values rule). */
    @Override
    public String toString() {
        return "GatedChange{"
                + operation
                + ", before="
                + (before != null)
                + ", after="
                + (after != null)
                + "}";
    }
}

package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.binlog.RowChange;
import io.capstan.flink.mysql.event.Operation;
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
                    return new GatedChange(Operation.DELETE, c.before(), null);
                }
                return new GatedChange(Operation.UPDATE, c.before(), c.after());
            default:
                throw new IllegalArgumentException("unknown operation " + c.operation());
        }
    }

    private static boolean suppressed(
            CursorGate gate, RowChange c, RowData image, @Nullable KeyTuple weighedKey) {
        return weighedKey != null
                ? gate.suppress(c.tableId(), weighedKey, c.gtid())
                : gate.suppress(c.tableId(), image, c.gtid());
    }

    /** The operation and which images pass, never their values (Rule 1). */
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

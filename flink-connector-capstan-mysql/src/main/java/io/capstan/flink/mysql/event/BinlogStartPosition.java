package io.capstan.flink.mysql.event;

import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where a binlog stream resumes: the set of transactions already fully processed, plus, for one
 * transaction that was partly emitted when the position was taken, its GTID and how many of its
 * captured row changes were already emitted.
 *
 * <p>The server is asked for every transaction outside {@link #processed()}; when it sends the
 * partial transaction again, the streamer skips exactly its first {@link #rowsAlreadyEmitted()}
 * captured row changes. Immutable; positions (GTID sets) are not row values and may be logged.
 *
 * @param processed transactions fully processed: the server is asked for everything else
 * @param partialGtid the partly emitted transaction, or null when the position is at a transaction
 *     boundary
 * @param rowsAlreadyEmitted captured row changes of {@link #partialGtid()} already emitted (0
 *     without one)
 */
@Internal
public record BinlogStartPosition(GtidSet processed, Gtid partialGtid, int rowsAlreadyEmitted)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Validates the parts. A partial transaction with no row emitted yet is a transaction boundary,
     * so it is dropped: equal positions have one form.
     */
    public BinlogStartPosition {
        Objects.requireNonNull(processed, "processed");
        if (partialGtid != null && rowsAlreadyEmitted == 0) {
            partialGtid = null;
        }
        if (rowsAlreadyEmitted < 0) {
            throw new IllegalArgumentException(
                    "rowsAlreadyEmitted must be >= 0, was " + rowsAlreadyEmitted);
        }
        if (partialGtid == null && rowsAlreadyEmitted != 0) {
            throw new IllegalArgumentException(
                    "rowsAlreadyEmitted needs the partial transaction's GTID");
        }
        if (partialGtid != null && processed.contains(partialGtid)) {
            throw new IllegalArgumentException(
                    "partial transaction "
                            + BinlogPositionAxis.readable(partialGtid)
                            + " is already in the processed set");
        }
    }

    /** Resume after the transactions in {@code processed}, at a transaction boundary. */
    public static BinlogStartPosition of(GtidSet processed) {
        return new BinlogStartPosition(processed, null, 0);
    }

    /**
     * Resume after {@code processed} and inside {@code partialGtid}, whose first {@code
     * rowsAlreadyEmitted} captured row changes were already emitted. With 0 rows this is the same
     * as {@link #of(GtidSet)}.
     */
    public static BinlogStartPosition of(
            GtidSet processed, Gtid partialGtid, int rowsAlreadyEmitted) {
        return new BinlogStartPosition(processed, partialGtid, rowsAlreadyEmitted);
    }

    /** How many leading captured row changes of {@code gtid} to skip when it is streamed. */
    public int rowsToSkip(Gtid gtid) {
        return partialGtid != null && partialGtid.equals(gtid) ? rowsAlreadyEmitted : 0;
    }

    /** The set the server must still hold: everything outside it is asked for. */
    public boolean isInsideTransaction() {
        return partialGtid != null;
    }

    @Override
    public String toString() {
        return partialGtid == null
                ? "BinlogStartPosition{processed=" + BinlogPositionAxis.readable(processed) + "}"
                : "BinlogStartPosition{processed="
                        + BinlogPositionAxis.readable(processed)
                        + ", partial="
                        + BinlogPositionAxis.readable(partialGtid)
                        + ", rowsAlreadyEmitted="
                        + rowsAlreadyEmitted
                        + "}";
    }
}

package io.capstan.flink.mysql.binlog;

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
 */
@Internal
public final class BinlogStartPosition implements Serializable {
    private static final long serialVersionUID = 1L;

    private final GtidSet processed;
    private final Gtid partialGtid;
    private final int rowsAlreadyEmitted;

    private BinlogStartPosition(GtidSet processed, Gtid partialGtid, int rowsAlreadyEmitted) {
        this.processed = Objects.requireNonNull(processed, "processed");
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
                    "partial transaction " + partialGtid + " is already in the processed set");
        }
        this.partialGtid = partialGtid;
        this.rowsAlreadyEmitted = rowsAlreadyEmitted;
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
        if (partialGtid != null && rowsAlreadyEmitted == 0) {
            return new BinlogStartPosition(processed, null, 0);
        }
        return new BinlogStartPosition(processed, partialGtid, rowsAlreadyEmitted);
    }

    /** Transactions fully processed: the server is asked for everything else. */
    public GtidSet processed() {
        return processed;
    }

    /** The partly emitted transaction, or null when the position is at a transaction boundary. */
    public Gtid partialGtid() {
        return partialGtid;
    }

    /** Captured row changes of {@link #partialGtid()} already emitted (0 without one). */
    public int rowsAlreadyEmitted() {
        return rowsAlreadyEmitted;
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
    public boolean equals(Object o) {
        if (!(o instanceof BinlogStartPosition)) {
            return false;
        }
        BinlogStartPosition that = (BinlogStartPosition) o;
        return rowsAlreadyEmitted == that.rowsAlreadyEmitted
                && processed.equals(that.processed)
                && Objects.equals(partialGtid, that.partialGtid);
    }

    @Override
    public int hashCode() {
        return Objects.hash(processed, partialGtid, rowsAlreadyEmitted);
    }

    @Override
    public String toString() {
        return partialGtid == null
                ? "BinlogStartPosition{processed=" + processed + "}"
                : "BinlogStartPosition{processed="
                        + processed
                        + ", partial="
                        + partialGtid
                        + ", rowsAlreadyEmitted="
                        + rowsAlreadyEmitted
                        + "}";
    }
}

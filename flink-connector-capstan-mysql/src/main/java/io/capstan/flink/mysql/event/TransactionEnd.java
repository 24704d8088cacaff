package io.capstan.flink.mysql.event;

import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * The end of one transaction. Sent for every transaction the server streams, including those with
 * no captured rows and those dropped by the start timestamp, so the processed set always advances.
 *
 * <p>The end of an {@code XA COMMIT} or {@code XA ROLLBACK} also names the GTID of the XA
 * transaction's prepared part ({@link #preparedGtid()}): both join the processed set together, at
 * the outcome, after the committed rows (docs/adr/0008). The prepared part has no end of its own.
 *
 * <p>On a server without GTIDs (docs/adr/0012) the processed set also holds the positions read past
 * between transactions, so each end carries the set as the stream had it after the end ({@link
 * #processedAfter()}); an event outside any transaction that moves the position (a rotation, the
 * next file's first events) ends with a record of its own, named by the last position it passed.
 *
 * <p>On MariaDB's GTIDs (docs/adr/0013) an end fills its sequence numbers up to its own, in the
 * shape of a binlog state, so each end carries the set after it too.
 *
 * @param preparedGtid the prepared part this XA outcome ends, or null
 * @param processedAfter the processed set after this end where it grows by more than the GTID (no
 *     GTIDs, MariaDB's GTIDs); else null
 */
@Internal
public record TransactionEnd(
        Gtid gtid,
        long commitTimestampMicros,
        @Nullable Gtid preparedGtid,
        @Nullable GtidSet processedAfter)
        implements BinlogRecord {

    public TransactionEnd {
        Objects.requireNonNull(gtid, "gtid");
    }

    /** The end of a transaction on a server with GTIDs. */
    public TransactionEnd(Gtid gtid, long commitTimestampMicros, @Nullable Gtid preparedGtid) {
        this(gtid, commitTimestampMicros, preparedGtid, null);
    }

    /** The end of an ordinary transaction. */
    public TransactionEnd(Gtid gtid, long commitTimestampMicros) {
        this(gtid, commitTimestampMicros, null, null);
    }

    /** Whether {@code processed} already holds all this end adds to it (a replayed end). */
    public boolean alreadyIn(GtidSet processed) {
        return processed.contains(gtid)
                && (processedAfter == null || processed.containsAll(processedAfter));
    }

    /**
     * {@code processed} after this end: its GTID, the prepared part it ends (both at once,
     * docs/adr/0008) and, without GTIDs, the positions read.
     */
    public GtidSet appliedTo(GtidSet processed) {
        GtidSet after = processed.add(gtid);
        if (preparedGtid != null) {
            after = after.add(preparedGtid);
        }
        return processedAfter == null ? after : after.union(processedAfter);
    }

    @Override
    public String toString() {
        return preparedGtid == null
                ? "TransactionEnd{gtid=" + BinlogPositionAxis.readable(gtid) + "}"
                : "TransactionEnd{gtid="
                        + BinlogPositionAxis.readable(gtid)
                        + ", prepared="
                        + BinlogPositionAxis.readable(preparedGtid)
                        + "}";
    }
}

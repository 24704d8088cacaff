package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

/**
 * For the streamer's tests (the source's own position is {@code BinlogSplitState}): folds emitted
 * {@link BinlogRecord}s into the position to resume from. After a {@link RowChange} the position is
 * inside its transaction with {@code index + 1} rows emitted; after a {@link TransactionEnd} the
 * transaction joins the processed set.
 *
 * <p>Mutable, single-threaded; {@link #position()} returns an immutable snapshot.
 */
public final class BinlogPositionTracker {

    private GtidSet processed;
    private final Gtid resumedGtid;
    private final int resumedSkip;
    private boolean resumedPending;
    private Gtid partialGtid;
    private int rowsEmitted;

    public BinlogPositionTracker(BinlogStartPosition start) {
        this.processed = start.processed();
        this.resumedGtid = start.partialGtid();
        this.resumedSkip = start.rowsAlreadyEmitted();
        this.resumedPending = resumedGtid != null;
    }

    public void onRecord(BinlogRecord record) {
        if (resumedPending && record.gtid().equals(resumedGtid)) {
            resumedPending = false;
        }
        if (record instanceof RowChange) {
            RowChange change = (RowChange) record;
            partialGtid = change.gtid();
            rowsEmitted = change.indexInTransaction() + 1;
        } else {
            processed =
                    record instanceof TransactionEnd end
                            ? end.appliedTo(processed)
                            : processed.add(record.gtid());
            partialGtid = null;
            rowsEmitted = 0;
        }
    }

    /** The position after every record seen so far. */
    public BinlogStartPosition position() {
        if (partialGtid == null) {
            // The resumed transaction keeps its skip until the server has sent it again.
            return resumedPending
                    ? BinlogStartPosition.of(processed, resumedGtid, resumedSkip)
                    : BinlogStartPosition.of(processed);
        }
        return BinlogStartPosition.of(processed, partialGtid, rowsEmitted);
    }

    public GtidSet processed() {
        return processed;
    }
}

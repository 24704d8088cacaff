package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

/**
 * Where {@link TransactionAssembler}'s stream stands: the processed set (every transaction ended,
 * or on a server without GTIDs every position passed), how it grows, and the partial transaction
 * the start position resumes inside until that transaction has ended.
 *
 * <p>Guarantees: {@link #resumePosition} is the position after every record handed to the sink, so
 * a restart from it neither repeats nor loses a row.
 */
final class StreamPosition {

    private ProcessedGrowth growth = ProcessedGrowth.BY_GTID;
    private GtidSet processed;
    private Gtid resumedGtid; // the start position's partial transaction until it has been ended
    private int resumedSkip;

    StreamPosition(BinlogStartPosition start) {
        restartFrom(start);
    }

    void restartFrom(BinlogStartPosition start) {
        processed = start.processed();
        resumedGtid = start.partialGtid();
        resumedSkip = start.rowsAlreadyEmitted();
    }

    void growBy(ProcessedGrowth growth) {
        this.growth = growth;
    }

    ProcessedGrowth growth() {
        return growth;
    }

    GtidSet processed() {
        return processed;
    }

    /**
     * The captured rows of {@code gtid} emitted before the start: 0 unless it is the resumed one.
     */
    int rowsAlreadyEmitted(Gtid gtid) {
        return gtid.equals(resumedGtid) ? resumedSkip : 0;
    }

    /** The set grew to {@code grown} by positions passed outside any transaction. */
    void passed(GtidSet grown) {
        processed = grown;
    }

    /** {@code gtid} ended and the set grew to {@code grown}: a resumed partial one is done. */
    void ended(Gtid gtid, GtidSet grown) {
        processed = grown;
        if (gtid.equals(resumedGtid)) {
            resumedGtid = null;
            resumedSkip = 0;
        }
    }

    BinlogStartPosition resumePosition(OpenTransaction open) {
        Gtid gtid = open.gtid();
        if (gtid != null && !open.droppedByTimestamp()) {
            return BinlogStartPosition.of(processed, gtid, open.rowsHandedOut());
        }
        if (resumedGtid != null && !resumedGtid.equals(gtid)) {
            return BinlogStartPosition.of(processed, resumedGtid, resumedSkip);
        }
        return BinlogStartPosition.of(processed);
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import com.github.shyiko.mysql.binlog.event.Event;

import javax.annotation.Nullable;

import java.util.Collection;

/**
 * How the processed set grows as the stream reads. On a server with GTIDs it holds the GTIDs of the
 * ended transactions ({@link #BY_GTID}); on a server without, every binlog position read so far
 * except the prepared XA parts still held ({@link PositionModeEvents}).
 */
interface ProcessedGrowth {

    /** Each ended transaction joins the set by its GTID; nothing else moves it. */
    ProcessedGrowth BY_GTID = new ProcessedGrowth() {};

    /**
     * After {@code gtid} (and {@code prepared}, the XA part it commits or rolls back) ended at
     * {@code end}; {@code held} are the prepared XA parts the stream still holds.
     */
    default GtidSet ended(
            GtidSet processed,
            Gtid gtid,
            @Nullable Gtid prepared,
            Event end,
            Collection<Gtid> held) {
        GtidSet p = processed.add(gtid);
        return prepared == null ? p : p.add(prepared);
    }

    /**
     * After {@code event}, read outside any transaction (an XA part prepared by it is held): the
     * same set when it does not grow.
     */
    default GtidSet between(GtidSet processed, Event event, Collection<Gtid> held) {
        return processed;
    }

    /**
     * Whether each end reports the grown set ({@link TransactionEnd#processedAfter()}), so that the
     * reader's checkpointed set is the stream's own: where the set grows by more than the GTID.
     */
    default boolean reportsProcessedSet() {
        return false;
    }

    /** The last position the latest growth of {@link #between} passed, as a member of the set. */
    default Gtid lastPassed() {
        throw new IllegalStateException("the processed set grows by GTID only");
    }
}

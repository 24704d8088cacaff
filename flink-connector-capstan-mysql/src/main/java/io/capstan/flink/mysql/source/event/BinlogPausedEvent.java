package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader → enumerator, after a {@link BinlogSplitPauseEvent}: the binlog split stopped at the
 * transaction boundary P, whose processed set this is (no partial transaction; prepared XA parts
 * whose outcome is not yet read are not in it). Every chunk of an added table must be read at a G
 * that holds P.
 */
@Internal
public final class BinlogPausedEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    /** GTID set text: positions, no row value. */
    private final String processed;

    public BinlogPausedEvent(GtidSet processed) {
        this.processed = processed.toString();
    }

    public GtidSet processed() {
        return GtidSet.parse(processed);
    }

    @Override
    public String toString() {
        return "BinlogPausedEvent{processed=" + processed + "}";
    }
}

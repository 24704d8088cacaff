package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import javax.annotation.Nullable;

import java.util.List;

/**
 * Enumerator → reader: the held binlog split streams. As the answer to a {@link
 * BinlogSplitRestoredEvent}: without the tables the configured list no longer selects (none: stream
 * as before). After a {@link BinlogSplitPauseEvent}: from the pause P, with the added tables and
 * the gate of their finished chunks ({@link #added()}, a split at P) joining the split's own. A
 * change the job cannot follow is no answer: the enumerator fails the job by name.
 */
@Internal
public final class BinlogSplitResumeEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<TableId> removedTables;

    /** The added part in the split's own versioned format; null when nothing is added. */
    @Nullable private final byte[] added;

    public BinlogSplitResumeEvent(List<TableId> removedTables, @Nullable BinlogSplit added) {
        this.removedTables = List.copyOf(removedTables);
        this.added = added == null ? null : SplitBytes.toBytes(added);
    }

    /** The tables to drop from the split (and its gate) before it streams on. */
    public List<TableId> removedTables() {
        return removedTables;
    }

    /** The tables added to the paused split with their gate, at its pause position; or null. */
    @Nullable
    public BinlogSplit added() {
        return added == null ? null : SplitBytes.binlogFromBytes(added);
    }

    @Override
    public String toString() {
        return "BinlogSplitResumeEvent{removedTables="
                + removedTables.size()
                + ", added="
                + (added == null ? "none" : added.length + " bytes")
                + "}";
    }
}

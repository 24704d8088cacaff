package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import java.util.List;

/**
 * Enumerator → reader, the answer to a {@link BinlogSplitRestoredEvent}: the restored binlog split
 * may stream, without the tables the configured list no longer selects (none: stream as before). A
 * change the job cannot follow (tables added) is no answer: the enumerator fails the job by name.
 */
@Internal
public final class BinlogSplitResumeEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<TableId> removedTables;

    public BinlogSplitResumeEvent(List<TableId> removedTables) {
        this.removedTables = List.copyOf(removedTables);
    }

    /** The tables to drop from the split (and its gate) before it streams on. */
    public List<TableId> removedTables() {
        return removedTables;
    }

    @Override
    public String toString() {
        return "BinlogSplitResumeEvent{removedTables=" + removedTables.size() + "}";
    }
}

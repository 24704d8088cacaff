package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import java.util.List;

/**
 * Enumerator → reader, the answer to a {@link BinlogSplitRestoredEvent} when tables are added:
 * bring the restored binlog split to a transaction boundary P (finishing a partial transaction with
 * the split's tables as they are), drop {@code removedTables}, hold it there and report P with a
 * {@link BinlogPausedEvent}; meanwhile ask for chunk splits like any reader. A {@link
 * BinlogSplitResumeEvent} carrying the added tables follows.
 */
@Internal
public final class BinlogSplitPauseEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<TableId> removedTables;

    public BinlogSplitPauseEvent(List<TableId> removedTables) {
        this.removedTables = List.copyOf(removedTables);
    }

    public List<TableId> removedTables() {
        return removedTables;
    }

    @Override
    public String toString() {
        return "BinlogSplitPauseEvent{removedTables=" + removedTables.size() + "}";
    }
}

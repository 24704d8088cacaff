package io.capstan.flink.mysql.source.event;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import java.util.List;

/**
 * Reader → enumerator, when a reader restores the binlog split: the tables the split captures. The
 * reader does not stream until the enumerator answers with a {@link BinlogSplitResumeEvent}, after
 * comparing these tables with what the configured table list selects on the server now (the split's
 * table list, not the enumerator's, is what a streaming job captures).
 */
@Internal
public final class BinlogSplitRestoredEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<TableId> tables;

    public BinlogSplitRestoredEvent(List<TableId> tables) {
        this.tables = List.copyOf(tables);
    }

    public List<TableId> tables() {
        return tables;
    }

    @Override
    public String toString() {
        return "BinlogSplitRestoredEvent{tables=" + tables.size() + "}";
    }
}

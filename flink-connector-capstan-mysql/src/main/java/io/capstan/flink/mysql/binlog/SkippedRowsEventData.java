package io.capstan.flink.mysql.binlog;

import com.github.shyiko.mysql.binlog.event.EventData;

/** Stands in for a rows event of an uncaptured table: its row bytes were skipped, not decoded. */
final class SkippedRowsEventData implements EventData {
    private static final long serialVersionUID = 1L;

    private final long tableId;

    SkippedRowsEventData(long tableId) {
        this.tableId = tableId;
    }

    long tableId() {
        return tableId;
    }

    @Override
    public String toString() {
        return "SkippedRowsEventData{tableId=" + tableId + "}";
    }
}

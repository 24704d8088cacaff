package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;

/**
 * Decodes a captured table's PARTIAL_UPDATE_ROWS_EVENT by refusing it: a session with {@code
 * binlog_row_value_options=PARTIAL_JSON} logs JSON updates as diffs against the old value, which
 * the binlog library cannot apply (it has no deserializer for the event and would hand on an empty
 * one). Installed behind {@link CapturedRowsDeserializer}, so uncaptured tables' events are skipped
 * and only a captured table's halts with {@code partial_row_update}.
 */
final class PartialUpdateRefusal implements EventDataDeserializer<EventData> {

    private static final int TABLE_ID_BYTES = 6;

    private final TableSchemaCache tables;

    PartialUpdateRefusal(TableSchemaCache tables) {
        this.tables = tables;
    }

    @Override
    public EventData deserialize(ByteArrayInputStream in) throws IOException {
        long tableId = in.readLong(TABLE_ID_BYTES);
        TableSchemaCache.Entry entry = tables.lookup(tableId);
        if (entry == null) {
            throw halt("table id " + tableId);
        }
        // an uncaptured table decoded because its changes may cascade into captured ones: its
        // referenced columns cannot be compared in a diff
        throw halt((entry.captured ? "captured table " : "table ") + entry.tableId);
    }

    static CapstanHaltException halt(String table) {
        return new CapstanHaltException(
                HaltReason.PARTIAL_ROW_UPDATE,
                "a partial row update (PARTIAL_UPDATE_ROWS_EVENT) of "
                        + table
                        + " arrived: the writing session set binlog_row_value_options=PARTIAL_JSON,"
                        + " so JSON columns were logged as diffs, not values, and the change cannot"
                        + " be delivered exactly. Remedy: SET PERSIST binlog_row_value_options='' and"
                        + " make sure no session sets it, then restart the job without state to"
                        + " snapshot the tables again.");
    }
}

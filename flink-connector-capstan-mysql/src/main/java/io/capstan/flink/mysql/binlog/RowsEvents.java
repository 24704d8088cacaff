package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;

import org.apache.flink.table.data.RowData;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;

import java.io.Serializable;
import java.util.BitSet;
import java.util.Map;

/**
 * The rows events of {@link TransactionAssembler}'s stream: each row of a captured table becomes a
 * row change of the open transaction, emitted, or held when the transaction is an XA prepared part.
 *
 * <p>Guarantees: a rows event outside any transaction, of a table without a table map, with fewer
 * columns than the table (not {@code binlog_row_image=FULL}), or with a value that cannot be
 * converted halts by name; so does a PARTIAL_UPDATE_ROWS_EVENT of a table not known to be
 * uncaptured. No halt message holds a row value (the no-values rule: row values, keys and statement
 * text never reach messages or logs).
 */
final class RowsEvents {

    private final TableSchemaCache tables;
    private final CapturedTableStatements statements;
    private final PendingXaBook xa;
    private final OpenTransaction open;
    private final StreamPosition position;
    private CascadeGuard cascades; // null: foreign-key actions and triggers are not checked

    RowsEvents(
            TableSchemaCache tables,
            CapturedTableStatements statements,
            PendingXaBook xa,
            OpenTransaction open,
            StreamPosition position) {
        this.tables = tables;
        this.statements = statements;
        this.xa = xa;
        this.open = open;
        this.position = position;
    }

    void guardCascades(CascadeGuard guard) {
        this.cascades = guard;
    }

    void onRows(EventData data) throws InterruptedException {
        if (!open.isOpen()) {
            // Every transaction of a GTID server starts with a GTID event; rows without one mean
            // an event the binlog library does not know opened it (MySQL 8.3+'s tagged GTID
            // event). Dropping them would lose data without a trace.
            throw new CapstanHaltException(
                    HaltReason.UNSUPPORTED_SERVER_VERSION,
                    "a rows event arrived outside any GTID transaction after "
                            + BinlogPositionAxis.readable(position.processed())
                            + ": the server"
                            + " wrote a transaction start this connector cannot read (MySQL 8.3+ writes"
                            + " tagged GTIDs, e.g. SET gtid_next='AUTOMATIC:tag', with an event type the"
                            + " binlog library does not know). Remedy: do not use tagged GTIDs on captured"
                            + " servers, then restart from the last checkpoint.");
        }
        if (data instanceof SkippedRowsEventData) {
            return; // an uncaptured table: its rows were never decoded
        }
        long tableId;
        if (data instanceof WriteRowsEventData) {
            tableId = ((WriteRowsEventData) data).getTableId();
        } else if (data instanceof UpdateRowsEventData) {
            tableId = ((UpdateRowsEventData) data).getTableId();
        } else {
            tableId = ((DeleteRowsEventData) data).getTableId();
        }
        TableSchemaCache.Entry table = tables.lookup(tableId);
        if (table == null) {
            throw CapturedRowsDeserializer.unmapped(tableId);
        }
        if (cascades != null && !open.droppedByTimestamp()) {
            cascades.onRows(table, data, open.gtid()); // a parent's change may cascade unlogged
        }
        if (!table.captured) {
            return; // decoded for the guard, or no skipping deserializer installed
        }
        if (data instanceof WriteRowsEventData) {
            WriteRowsEventData write = (WriteRowsEventData) data;
            requireFullImage(table, write.getIncludedColumns());
            for (Serializable[] row : write.getRows()) {
                onRow(table, Operation.INSERT, null, row);
            }
        } else if (data instanceof UpdateRowsEventData) {
            UpdateRowsEventData update = (UpdateRowsEventData) data;
            requireFullImage(table, update.getIncludedColumnsBeforeUpdate());
            requireFullImage(table, update.getIncludedColumns());
            for (Map.Entry<Serializable[], Serializable[]> row : update.getRows()) {
                onRow(table, Operation.UPDATE, row.getKey(), row.getValue());
            }
        } else {
            DeleteRowsEventData delete = (DeleteRowsEventData) data;
            requireFullImage(table, delete.getIncludedColumns());
            for (Serializable[] row : delete.getRows()) {
                onRow(table, Operation.DELETE, row, null);
            }
        }
    }

    /**
     * A PARTIAL_UPDATE_ROWS_EVENT (a session with binlog_row_value_options=PARTIAL_JSON) carries
     * JSON diffs, not after images. Uncaptured tables' arrive skipped; a captured table's halts
     * while it is decoded (BinlogClientFactory); anything else halts here.
     */
    static void onPartialUpdate(EventData data) {
        if (data instanceof SkippedRowsEventData) {
            return;
        }
        throw PartialUpdateRefusal.halt("a table this connector could not identify");
    }

    /** A captured row: emitted, or held when the open transaction is an XA prepared part. */
    private void onRow(
            TableSchemaCache.Entry table, Operation op, Serializable[] before, Serializable[] after)
            throws InterruptedException {
        if (!open.droppedByTimestamp()) {
            statements.rowPassed(table.tableId); // a later DROP of it halts
        }
        if (open.xaPart()) {
            xa.hold(
                    open.gtid(),
                    new PendingXaBook.HeldRow(
                            table.tableId,
                            table.schema,
                            op,
                            before == null ? null : convert(table, before),
                            after == null ? null : convert(table, after)));
        } else if (open.passRow()) {
            open.emit(
                    table.tableId,
                    table.schema,
                    op,
                    before == null ? null : convert(table, before),
                    after == null ? null : convert(table, after));
        }
    }

    private static RowData convert(TableSchemaCache.Entry table, Serializable[] row) {
        try {
            return table.converter.fromBinlog(row);
        } catch (CapstanHaltException e) {
            throw e;
        } catch (RuntimeException e) {
            // The exception's message may quote the value: only its type is reported.
            throw new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "a row of "
                            + table.tableId
                            + " could not be converted ("
                            + e.getClass().getName()
                            + "). Remedy: report this with the table's DDL; exclude the table or restart from"
                            + " the last checkpoint after a fix.");
        }
    }

    private static void requireFullImage(TableSchemaCache.Entry table, BitSet included) {
        if (included != null && included.cardinality() != table.columnCount()) {
            throw new CapstanHaltException(
                    HaltReason.BINLOG_ROW_IMAGE_NOT_FULL,
                    "a rows event of "
                            + table.tableId
                            + " carries "
                            + included.cardinality()
                            + " of its "
                            + table.columnCount()
                            + " columns. Remedy: set binlog_row_image=FULL on the server"
                            + " (and in every session writing to it) and restart from the last checkpoint.");
        }
    }
}

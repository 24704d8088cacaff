package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.RowData;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction {@link TransactionAssembler} has open, and the hand-out of its captured rows.
 *
 * <p>Guarantees: every captured row of the transaction is counted once, in binlog order; a row
 * emitted before a resume ({@code rowsToSkip}) is counted but not emitted again; a row the sink did
 * not take (interrupted) is not counted. So {@link #rowsHandedOut()} is exactly where a resume must
 * continue. A transaction committed before the start timestamp counts nothing and emits nothing.
 */
final class OpenTransaction {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final TransactionAssembler.RecordSink sink;
    private final BinlogStreamerMetrics metrics;

    private Gtid gtid; // null between transactions
    private long commitMicros; // kept after the end: positions passed later are stamped with it
    private boolean afterBegin;
    private boolean openedByStart; // MariaDB: the start event opened the body, no BEGIN follows
    private boolean xaPart; // an XA transaction's prepared part: its rows wait for the outcome
    private boolean droppedByTimestamp;
    private int capturedRows;
    private int rowsToSkip;

    OpenTransaction(TransactionAssembler.RecordSink sink, BinlogStreamerMetrics metrics) {
        this.sink = sink;
        this.metrics = metrics;
    }

    void open(Gtid gtid, long commitMicros, int rowsToSkip, boolean droppedByTimestamp) {
        this.gtid = gtid;
        this.commitMicros = commitMicros;
        this.rowsToSkip = rowsToSkip;
        this.droppedByTimestamp = droppedByTimestamp;
        this.capturedRows = 0;
        this.afterBegin = false;
        this.openedByStart = false;
        this.xaPart = false;
    }

    void close() {
        gtid = null;
        afterBegin = false;
        openedByStart = false;
        xaPart = false;
    }

    boolean isOpen() {
        return gtid != null;
    }

    /** Null between transactions. */
    Gtid gtid() {
        return gtid;
    }

    long commitMicros() {
        return commitMicros;
    }

    boolean droppedByTimestamp() {
        return droppedByTimestamp;
    }

    /** A BEGIN (or XA START, or an atomic CREATE ... SELECT) opened a multi-statement body. */
    void markBegun() {
        afterBegin = true;
    }

    /** The start event opened the body as a BEGIN would (MariaDB's non-standalone GTID event). */
    void markOpenedByStart() {
        afterBegin = true;
        openedByStart = true;
    }

    boolean openedByStart() {
        return openedByStart;
    }

    boolean afterBegin() {
        return afterBegin;
    }

    void markXaPart() {
        xaPart = true;
        afterBegin = true;
    }

    boolean xaPart() {
        return xaPart;
    }

    /** Captured rows the transaction passed (0 when dropped by the start timestamp). */
    int capturedRowsPassed() {
        return droppedByTimestamp ? 0 : capturedRows;
    }

    /** Captured rows handed out so far, including those skipped as emitted before a resume. */
    int rowsHandedOut() {
        return Math.max(capturedRows, rowsToSkip);
    }

    /**
     * Counts one captured row; false when it is dropped (timestamp) or was emitted before (resume).
     */
    boolean passRow() {
        if (droppedByTimestamp) {
            return false;
        }
        if (capturedRows++ < rowsToSkip) {
            metrics.rowChangeSkippedOnResume();
            return false;
        }
        return true;
    }

    /** Takes back the row {@link #passRow()} just counted: it was not handed out. */
    void unpassRow() {
        capturedRows--;
    }

    /** Emits the row {@link #passRow()} just counted. */
    void emit(TableId table, TableSchema schema, Operation op, RowData before, RowData after)
            throws InterruptedException {
        emit(new RowChange(table, schema, op, before, after, gtid, capturedRows - 1, commitMicros));
    }

    /** Emits the schema change {@link #passRow()} just counted. */
    void emitSchemaChange(TableId table, TableSchema columns, String kind)
            throws InterruptedException {
        emit(
                new RowChange(
                        table,
                        columns,
                        Operation.SCHEMA_CHANGE,
                        null,
                        null,
                        gtid,
                        capturedRows - 1,
                        commitMicros,
                        kind));
    }

    private void emit(RowChange change) throws InterruptedException {
        try {
            sink.accept(change);
        } catch (InterruptedException e) {
            capturedRows--; // not handed out: the resume position must not count it
            throw e;
        }
        metrics.rowChangeEmitted();
    }

    /**
     * A new transaction began while this one had no end. If it passed captured rows (or held {@code
     * heldXaRows} of an XA part that was never prepared), those may belong to a transaction that
     * never committed (a cut stream, a server crash): halt. A reconnect drops the open transaction
     * first ({@link TransactionAssembler#restartFrom}), so it never gets here.
     */
    void checkUnended(int heldXaRows) {
        int passed = capturedRowsPassed() + heldXaRows;
        if (passed > 0) {
            throw new CapstanHaltException(
                    HaltReason.TRANSACTION_WITHOUT_END,
                    "transaction "
                            + BinlogPositionAxis.readable(gtid)
                            + " passed "
                            + passed
                            + " captured row change(s) but the next transaction began before its"
                            + " end (no XID or COMMIT): its rows may never have been committed on the"
                            + " server. Remedy: check the server's error log for a crash; restart the"
                            + " job without state to snapshot the tables again.");
        }
        LOG.warn(
                "Transaction {} has no end event before the next GTID and no captured rows; it"
                        + " stays outside the processed set",
                BinlogPositionAxis.readable(gtid));
    }
}

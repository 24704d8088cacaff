package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.RowData;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Turns the binlog's event sequence into {@link BinlogRecord}s, one row change at a time (a
 * transaction is never buffered, except an XA transaction's prepared part, below), and knows the
 * exact position to resume from.
 *
 * <p>GTID opens a transaction (its GTID and original commit time); TABLE_MAP updates the {@link
 * TableSchemaCache}; each row of a captured table's WRITE/UPDATE/DELETE event becomes a {@link
 * RowChange} whose index counts the transaction's captured rows only; XID, COMMIT, or a DDL
 * statement outside BEGIN closes it with a {@link TransactionEnd}, a DDL after the {@link
 * DdlObserver} has seen it. The exception is MySQL 8.0.21+'s atomic CREATE TABLE ... SELECT, logged
 * as {@code CREATE TABLE ... START TRANSACTION} followed by the selected rows and XID: it stays
 * open for its rows. A compressed transaction (TRANSACTION_PAYLOAD, after its GTID event, which
 * MySQL never compresses) is taken apart into its inner events, which go through the same steps one
 * by one. When resuming inside a transaction, its first {@code rowsAlreadyEmitted} captured rows
 * are skipped. Transactions committed before the start timestamp are ended without rows.
 * FORMAT_DESCRIPTION tells the {@link TableSchemaCache} the binlog's server version.
 *
 * <p>An XA transaction is two binlog transactions (docs/adr/0008): the prepared part ({@code XA
 * START}, rows, {@code XA END}, XA_PREPARE event) and, possibly much later, the outcome ({@code XA
 * COMMIT} or {@code XA ROLLBACK} query). The prepared part's rows are held in the {@link
 * PendingXaBook}, not emitted, and its GTID stays outside the processed set; the commit emits them
 * as its own rows (its GTID, index, commit time), and its {@link TransactionEnd} names the prepared
 * part too, so both join the processed set at once; a rollback drops them. A one-phase commit (an
 * XA_PREPARE event flagged one-phase) emits the rows at once, as an ordinary transaction. A commit
 * of a part prepared before the start position halts ({@code xa_prepared_before_start}), except
 * after a snapshot, whose chunks hold its rows.
 *
 * <p>What cannot be delivered exactly halts rather than passing silently: a data change logged as a
 * statement, and a TRUNCATE, DROP or RENAME of a captured table ({@link CapturedTableStatements},
 * which may instead have a TRUNCATE emitted as a change), a PARTIAL_UPDATE_ROWS_EVENT of a captured
 * table, a new GTID while a transaction that passed captured rows has no end, and changes that
 * foreign-key actions or triggers may carry into captured tables unlogged ({@link CascadeGuard}).
 *
 * <p>No I/O: events come in through {@link #onEvent}, records go out through a {@link RecordSink}
 * (which may block: that is the back-pressure). Single-threaded.
 *
 * <p>Longer than 400 lines because it is one state machine: every event handler reads and moves the
 * same open-transaction state (GTID, rows passed, rows to skip, resume point), and each halt it
 * raises reports that state; split, the state would have to be shared across classes.
 */
final class TransactionAssembler {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    /** Receives records in stream order; may block when the consumer is behind. */
    @FunctionalInterface
    interface RecordSink {
        void accept(BinlogRecord record) throws InterruptedException;
    }

    private final TableSchemaCache tables;
    private final Long startTimestampMillis;
    private final BinlogStreamerMetrics metrics;
    private final RecordSink sink;
    private final DdlObserver ddlObserver;
    private final CapturedTableStatements statements;
    private final PendingXaBook xa;
    private final boolean startsAfterSnapshot;
    private CreatedTableCapture createdTables; // null: tables created later are not captured
    private CascadeGuard cascades; // null: foreign-key actions and triggers are not checked
    private SchemaChangeEvents schemaChanges; // null: no schema-change records

    private ProcessedGrowth growth = ProcessedGrowth.BY_GTID;
    private Event event; // the event being read: where an ending transaction ends
    private GtidSet processed;
    private Gtid resumedGtid; // the start position's partial transaction until it has been ended
    private int resumedSkip;

    // The open transaction; gtid == null between transactions.
    private Gtid gtid;
    private long commitMicros;
    private boolean afterBegin;
    private boolean xaPart; // the open transaction is an XA transaction's prepared part
    private boolean droppedByTimestamp;
    private int capturedRows;
    private int rowsToSkip;

    TransactionAssembler(
            TableSchemaCache tables,
            BinlogStartPosition start,
            Long startTimestampMillis,
            BinlogStreamerMetrics metrics,
            RecordSink sink,
            DdlObserver ddlObserver) {
        this(
                tables,
                start,
                startTimestampMillis,
                metrics,
                sink,
                ddlObserver,
                TruncateHandling.HALT);
    }

    TransactionAssembler(
            TableSchemaCache tables,
            BinlogStartPosition start,
            Long startTimestampMillis,
            BinlogStreamerMetrics metrics,
            RecordSink sink,
            DdlObserver ddlObserver,
            TruncateHandling truncateHandling) {
        this(
                tables,
                start,
                startTimestampMillis,
                metrics,
                sink,
                ddlObserver,
                truncateHandling,
                CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                false);
    }

    TransactionAssembler(
            TableSchemaCache tables,
            BinlogStartPosition start,
            Long startTimestampMillis,
            BinlogStreamerMetrics metrics,
            RecordSink sink,
            DdlObserver ddlObserver,
            TruncateHandling truncateHandling,
            int xaMaxPendingRows,
            boolean startsAfterSnapshot) {
        this.startsAfterSnapshot = startsAfterSnapshot;
        this.tables = tables;
        this.xa = new PendingXaBook(xaMaxPendingRows);
        this.ddlObserver = ddlObserver;
        this.statements =
                new CapturedTableStatements(tables.filter(), truncateHandling, ddlObserver);
        this.startTimestampMillis = startTimestampMillis;
        this.metrics = metrics;
        this.sink = sink;
        this.processed = start.processed();
        this.resumedGtid = start.partialGtid();
        this.resumedSkip = start.rowsAlreadyEmitted();
    }

    /**
     * Captures from now on the tables {@code capture} selects that are created in the stream; each
     * is announced by a {@link TableCaptured} before its CREATE's rows and end.
     */
    void captureCreatedTables(CreatedTableCapture capture) {
        this.createdTables = capture;
        capture.transactionEnded(processed); // the start may already hold the awaited position
    }

    /** Grows the processed set by binlog position: a server without GTIDs. */
    void growProcessed(ProcessedGrowth growth) {
        this.growth = growth;
    }

    /** The stream began without a snapshot: a DROP may pass ({@link DropBeforeRows}). */
    void streamOnly() {
        statements.streamOnly();
    }

    /** Follows the table swaps of gh-ost and pt-osc: {@link OnlineSchemaChangeCutOver}. */
    void followOnlineSchemaChanges() {
        statements.followCutOvers();
    }

    /**
     * Emits from now on a record per schema change of a captured table: {@link SchemaChangeEvents}.
     */
    void emitSchemaChanges(SchemaChangeEvents events) {
        this.schemaChanges = events;
    }

    /**
     * Checks from now on the changes that foreign-key actions or triggers may carry into captured
     * tables without a trace in the binlog ({@link CascadeGuard}).
     */
    void guardCascades(CascadeGuard guard) {
        this.cascades = guard;
        statements.checkEffects(guard);
    }

    /**
     * The position after every record handed to the sink: the processed set plus, inside a
     * transaction, the captured rows already passed (emitted, or skipped as emitted before).
     */
    BinlogStartPosition resumePosition() {
        if (gtid != null && !droppedByTimestamp) {
            return BinlogStartPosition.of(processed, gtid, Math.max(capturedRows, rowsToSkip));
        }
        if (resumedGtid != null && !resumedGtid.equals(gtid)) {
            return BinlogStartPosition.of(processed, resumedGtid, resumedSkip);
        }
        return BinlogStartPosition.of(processed);
    }

    GtidSet processed() {
        return processed;
    }

    /**
     * Drops the open transaction after a lost connection: the server will send it again from its
     * GTID event, and {@link #resumePosition()} (taken before this call) says how much to skip.
     */
    void restartFrom(BinlogStartPosition position) {
        processed = position.processed();
        resumedGtid = position.partialGtid();
        resumedSkip = position.rowsAlreadyEmitted();
        gtid = null;
        afterBegin = false;
        xaPart = false;
        // The prepared parts held are outside the processed set: the server sends them again.
        xa.clear();
        tables.forgetTableIds();
    }

    void onEvent(Event event) throws InterruptedException {
        this.event = event;
        read(event);
        if (gtid == null && growth.byPosition()) { // on GTIDs only an end moves the set
            GtidSet grown = growth.between(processed, event, xa.preparedParts());
            if (grown != processed) {
                // positions passed outside any transaction: the reader's set moves with them
                sink.accept(new TransactionEnd(growth.lastPassed(), commitMicros, null, grown));
                processed = grown;
            }
        }
    }

    private void read(Event event) throws InterruptedException {
        EventHeader header = event.getHeader();
        EventType type = header.getEventType();
        EventData data = event.getData();
        if (type != EventType.HEARTBEAT) {
            metrics.eventSeen(header.getTimestamp());
        }
        switch (type) {
            case GTID:
                begin((GtidEventData) data, header);
                break;
            case QUERY:
                if (schemaChanges != null) {
                    schemaChanges.onQuery(header);
                }
                onQuery((QueryEventData) data);
                break;
            case TABLE_MAP:
                tables.onTableMap((TableMapEventData) data);
                break;
            case WRITE_ROWS:
            case EXT_WRITE_ROWS:
            case UPDATE_ROWS:
            case EXT_UPDATE_ROWS:
            case DELETE_ROWS:
            case EXT_DELETE_ROWS:
                onRows(data);
                break;
            case XID:
                end();
                break;
            case PARTIAL_UPDATE_ROWS_EVENT:
                onPartialUpdate(data);
                break;
            case EXECUTE_LOAD_QUERY:
                // A LOAD DATA logged as a statement; the library does not decode its text.
                if (gtid != null && !droppedByTimestamp) {
                    throw statements.statementLoggedLoad(gtid);
                }
                break;
            case XA_PREPARE:
                onXaPrepare(data);
                break;
            case ROTATE:
                if (schemaChanges != null) {
                    schemaChanges.onRotate(((RotateEventData) data).getBinlogFilename());
                }
                break;
            case FORMAT_DESCRIPTION:
                tables.onServerVersion(((FormatDescriptionEventData) data).getServerVersion());
                break;
            case TRANSACTION_PAYLOAD:
                onCompressedTransaction(data);
                break;
            case ANONYMOUS_GTID:
                // A job on GTIDs meets a transaction without one: the server's gtid_mode changed.
                throw GtidModeChange.halt(
                        false, "the server streamed a transaction without a GTID:" + " it");
            case INCIDENT:
                throw new CapstanHaltException(
                        HaltReason.DATA_GAP,
                        "the server's binlog holds an INCIDENT event after "
                                + BinlogPositionAxis.readable(processed)
                                + ": changes may be missing from the binlog. Remedy: re-snapshot the captured"
                                + " tables (start the job without state) after checking the server's error log.");
            default:
                // ROTATE, PREVIOUS_GTIDS, HEARTBEAT, ROWS_QUERY, ...: no effect.
        }
    }

    private void begin(GtidEventData data, EventHeader header) {
        if (gtid != null) {
            unended();
        }
        MySqlGtid mysqlGtid = data.getMySqlGtid();
        gtid = Gtid.of(mysqlGtid.getServerId().toString(), mysqlGtid.getTransactionId());
        long original = data.getOriginalCommitTimestamp();
        commitMicros = original > 0 ? original : header.getTimestamp() * 1000L;
        afterBegin = false;
        xaPart = false;
        capturedRows = 0;
        rowsToSkip = gtid.equals(resumedGtid) ? resumedSkip : 0;
        droppedByTimestamp =
                startTimestampMillis != null && commitMicros < startTimestampMillis * 1000L;
    }

    private void onQuery(QueryEventData data) throws InterruptedException {
        String sql = data.getSql().trim();
        if (gtid == null) {
            return;
        }
        if (sql.regionMatches(true, 0, "XA ", 0, 3)) {
            onXaStatement(sql.substring(3).trim());
            return;
        }
        if (sql.equalsIgnoreCase("BEGIN")) {
            afterBegin = true;
        } else if (sql.equalsIgnoreCase("COMMIT")) {
            end();
        } else if (TransactionRollback.isRollback(sql)) {
            TransactionRollback.check(
                    sql, gtid, (droppedByTimestamp ? 0 : capturedRows) + xa.openRows());
            if (TransactionRollback.endsTransaction(sql)) {
                end();
            }
        } else if (!droppedByTimestamp
                && statements.isUncapturedDml(data.getDatabase(), data.getSql(), gtid)) {
            // A data change of uncaptured tables logged as a statement: nothing to capture.
            return;
        } else if (isAtomicCreateSelect(sql)) {
            // MySQL 8.0.21+ logs CREATE TABLE ... SELECT as one transaction: this statement, then
            // the selected rows as row events, then XID. The rows belong to it: keep it open.
            onDdl(data.getDatabase(), data.getSql());
            afterBegin = true;
        } else if (!afterBegin) {
            // A DDL (or other self-committing statement) is a transaction of its own.
            onDdl(data.getDatabase(), data.getSql());
            end();
        }
    }

    /**
     * {@code CREATE TABLE ... START TRANSACTION}: how the binlog carries an atomic CREATE ...
     * SELECT.
     */
    static boolean isAtomicCreateSelect(String sql) {
        String s = sql.trim();
        if (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        int n = s.length();
        return s.regionMatches(true, 0, "CREATE", 0, 6)
                && n >= 17
                && s.regionMatches(true, n - 17, "START TRANSACTION", 0, 17)
                && (n == 17 || Character.isWhitespace(s.charAt(n - 18)) || s.charAt(n - 18) == ')');
    }

    private void onDdl(String database, String sql) throws InterruptedException {
        String db = database == null ? "" : database;
        try {
            ddlObserver.onDdl(db, sql, gtid);
        } catch (CapstanHaltException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DdlObserverFailure(e);
        }
        if (!droppedByTimestamp) {
            for (TableId truncated : statements.onDdl(db, sql, gtid)) {
                if (passRow()) {
                    emitTruncate(truncated);
                }
            }
        }
        // Also before the start timestamp: the table's later rows are to be captured.
        if (createdTables != null) {
            for (TableId created : createdTables.onDdl(db, sql, gtid, tables)) {
                sink.accept(new TableCaptured(gtid, commitMicros, created));
            }
        }
        if (schemaChanges != null && !droppedByTimestamp) {
            // counted as rows of the DDL's transaction, as an emitted TRUNCATE: once on resume
            for (SchemaChangeEvents.Change c : schemaChanges.onDdl(db, sql, tables.filter())) {
                if (passRow()) {
                    TableSchema columns;
                    try {
                        columns = schemaChanges.columns(c);
                    } catch (RuntimeException e) {
                        capturedRows--; // not handed out
                        throw e;
                    }
                    emit(c.table(), columns, Operation.SCHEMA_CHANGE, c.kind());
                }
            }
        }
        if (cascades != null) {
            cascades.onDdl(sql); // foreign keys, triggers or the captured tables may have changed
        }
    }

    /**
     * A new transaction began while one had passed captured rows without its end: those rows may
     * belong to a transaction that never committed (a cut stream, a server crash). A reconnect
     * drops the open transaction first ({@link #restartFrom}), so it never gets here.
     */
    private void unended() {
        // An XA part without XA PREPARE: its held rows were never emitted, and may have been
        // prepared and committed on the server all the same.
        int held = xa.dropOpen();
        int passed = (droppedByTimestamp ? 0 : capturedRows) + held;
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

    /**
     * A PARTIAL_UPDATE_ROWS_EVENT (a session with binlog_row_value_options=PARTIAL_JSON) carries
     * JSON diffs, not after images. Uncaptured tables' arrive skipped; a captured table's halts
     * while it is decoded (BinlogClientFactory); anything else halts here.
     */
    private void onPartialUpdate(EventData data) {
        if (data instanceof SkippedRowsEventData) {
            return;
        }
        throw PartialUpdateRefusal.halt("a table this connector could not identify");
    }

    /** An exception of the {@link DdlObserver} other than a halt: it fails the streamer. */
    static final class DdlObserverFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DdlObserverFailure(RuntimeException cause) {
            super("the DDL observer failed (" + cause.getClass().getName() + ")", cause);
        }
    }

    private void onCompressedTransaction(EventData data) throws InterruptedException {
        if (!(data instanceof CompressedTransaction)) {
            // Only a deserializer other than BinlogClientFactory's gets here (inner events already
            // decoded).
            throw new IllegalStateException(
                    "a compressed transaction was not decoded by the streamer's deserializer");
        }
        CompressedTransaction payload = (CompressedTransaction) data;
        try {
            for (Event inner = payload.next(); inner != null; inner = payload.next()) {
                read(inner); // it ends with the payload event: no position of its own
            }
        } catch (IOException e) {
            throw new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "an event inside a compressed transaction"
                            + (gtid == null ? "" : " (" + BinlogPositionAxis.readable(gtid) + ")")
                            + " after position "
                            + BinlogPositionAxis.readable(processed)
                            + " could not be decoded ("
                            + e.getClass().getName()
                            + "). Remedy: report this with the captured tables' DDL; restart from the last"
                            + " checkpoint after a fix.");
        }
    }

    private void onRows(EventData data) throws InterruptedException {
        if (gtid == null) {
            // Every transaction of a GTID server starts with a GTID event; rows without one mean
            // an event the binlog library does not know opened it (MySQL 8.3+'s tagged GTID
            // event). Dropping them would lose data without a trace.
            throw new CapstanHaltException(
                    HaltReason.UNSUPPORTED_SERVER_VERSION,
                    "a rows event arrived outside any GTID transaction after "
                            + BinlogPositionAxis.readable(processed)
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
        if (cascades != null && !droppedByTimestamp) {
            cascades.onRows(table, data, gtid); // a parent's change may cascade unlogged
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
            List<Serializable[]> rows = delete.getRows();
            for (Serializable[] row : rows) {
                onRow(table, Operation.DELETE, row, null);
            }
        }
    }

    /**
     * Counts one captured row; false when it is dropped (timestamp) or was emitted before (resume).
     */
    private boolean passRow() {
        if (droppedByTimestamp) {
            return false;
        }
        if (capturedRows++ < rowsToSkip) {
            metrics.rowChangeSkippedOnResume();
            return false;
        }
        return true;
    }

    /** A captured row: emitted, or held when the open transaction is an XA prepared part. */
    private void onRow(
            TableSchemaCache.Entry table, Operation op, Serializable[] before, Serializable[] after)
            throws InterruptedException {
        if (!droppedByTimestamp) {
            statements.rowPassed(table.tableId); // a later DROP of it halts
        }
        if (xaPart) {
            xa.hold(
                    gtid,
                    new PendingXaBook.HeldRow(
                            table.tableId,
                            table.schema,
                            op,
                            before == null ? null : convert(table, before),
                            after == null ? null : convert(table, after)));
        } else if (passRow()) {
            emit(
                    table.tableId,
                    table.schema,
                    op,
                    before == null ? null : convert(table, before),
                    after == null ? null : convert(table, after));
        }
    }

    private void emit(
            TableId table, TableSchema schema, Operation op, RowData before, RowData after)
            throws InterruptedException {
        emit(new RowChange(table, schema, op, before, after, gtid, capturedRows - 1, commitMicros));
    }

    private void emit(TableId table, TableSchema columns, Operation op, String kind)
            throws InterruptedException {
        emit(
                new RowChange(
                        table,
                        columns,
                        op,
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

    private void emitTruncate(TableId table) throws InterruptedException {
        emit(table, null, Operation.TRUNCATE, null, null);
    }

    private static RowData convert(TableSchemaCache.Entry table, Serializable[] row) {
        try {
            return table.converter.fromBinlog(row);
        } catch (CapstanHaltException e) {
            throw e;
        } catch (RuntimeException e) {
            // The exception's message may quote the value: only its type is reported (the no-values
            // rule).
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

    private void end() throws InterruptedException {
        end(null);
    }

    /**
     * Ends the open transaction; {@code prepared}, the prepared part of the XA transaction this one
     * commits or rolls back (else null), joins the processed set with it.
     */
    private void end(Gtid prepared) throws InterruptedException {
        if (gtid == null) {
            return;
        }
        GtidSet grown =
                growth.ended(
                        processed,
                        gtid,
                        prepared,
                        event,
                        growth.byPosition() ? xa.preparedParts() : List.of());
        sink.accept(
                new TransactionEnd(
                        gtid, commitMicros, prepared, growth.byPosition() ? grown : null));
        processed = grown;
        if (gtid.equals(resumedGtid)) {
            resumedGtid = null;
            resumedSkip = 0;
        }
        metrics.transactionSeen();
        if (droppedByTimestamp) {
            metrics.transactionFilteredByTimestamp();
        }
        metrics.commitSeen(commitMicros);
        gtid = null;
        afterBegin = false;
        xaPart = false;
        if (createdTables != null) {
            createdTables.transactionEnded(processed);
        }
    }

    // ---- XA transactions ------------------------------------------------------------------------

    /** An {@code XA ...} statement of the open transaction; {@code rest} follows "XA ". */
    private void onXaStatement(String rest) throws InterruptedException {
        if (startsWithWord(rest, "START") || startsWithWord(rest, "BEGIN")) {
            xaPart = true; // its rows wait for the outcome
            afterBegin = true;
        } else if (startsWithWord(rest, "END")) {
            // the rows are complete; XA_PREPARE follows
        } else if (startsWithWord(rest, "COMMIT")) {
            if (xaPart) {
                onePhaseCommit(); // logged as a statement by servers that do so
            } else {
                onXaOutcome(xaId(rest.substring(6)), true);
            }
        } else if (startsWithWord(rest, "ROLLBACK") && !xaPart) {
            onXaOutcome(xaId(rest.substring(8)), false);
        } else {
            throw xaUnreadable();
        }
    }

    private void onXaPrepare(EventData data) throws InterruptedException {
        if (gtid == null) {
            return;
        }
        if (!xaPart || !(data instanceof XAPrepareEventData)) {
            throw xaUnreadable();
        }
        XAPrepareEventData prepare = (XAPrepareEventData) data;
        if (prepare.isOnePhase()) {
            onePhaseCommit();
            return;
        }
        XaId id;
        try {
            id = XaId.of(prepare);
        } catch (IllegalArgumentException e) {
            throw xaUnreadable();
        }
        // Nothing is emitted and the GTID stays outside the processed set until the outcome.
        xa.prepared(id, gtid);
        metrics.transactionSeen();
        gtid = null;
        afterBegin = false;
        xaPart = false;
    }

    /** XA COMMIT ... ONE PHASE: the held rows of the open part are its rows, as usual. */
    private void onePhaseCommit() throws InterruptedException {
        for (PendingXaBook.HeldRow row : xa.takeOpen()) {
            deliver(row);
        }
        end();
    }

    /** The open transaction is the XA COMMIT or XA ROLLBACK of {@code id}. */
    private void onXaOutcome(XaId id, boolean commit) throws InterruptedException {
        PendingXaBook.Prepared prepared = xa.take(id);
        if (prepared == null) {
            // Prepared before the start position (a later one would be in the book). A rollback,
            // or a commit dropped by time, has nothing to deliver; so has a commit after a
            // snapshot: the prepared part held its tables' metadata locks until this commit, so
            // every chunk of them was read after it, and its G holds it (docs/adr/0008).
            if (commit && !droppedByTimestamp && !startsAfterSnapshot) {
                throw preparedBeforeStart();
            }
            if (commit && startsAfterSnapshot) {
                LOG.info(
                        "XA COMMIT {} ends a transaction prepared before the snapshot's handoff"
                                + " position; its changes are in the snapshot's chunks",
                        BinlogPositionAxis.readable(gtid));
            }
            end();
            return;
        }
        if (commit) {
            for (PendingXaBook.HeldRow row : prepared.rows()) {
                deliver(row);
            }
        }
        end(prepared.prepareGtid());
    }

    /**
     * A held row, emitted as a row of the open transaction (skipped if emitted before a resume).
     */
    private void deliver(PendingXaBook.HeldRow row) throws InterruptedException {
        if (passRow()) {
            emit(row.table(), row.schema(), row.operation(), row.before(), row.after());
        }
    }

    private static boolean startsWithWord(String s, String word) {
        return s.regionMatches(true, 0, word, 0, word.length())
                && (s.length() == word.length() || Character.isWhitespace(s.charAt(word.length())));
    }

    private XaId xaId(String text) {
        try {
            return XaId.parse(text);
        } catch (IllegalArgumentException e) {
            throw xaUnreadable();
        }
    }

    private CapstanHaltException preparedBeforeStart() {
        return new CapstanHaltException(
                HaltReason.XA_PREPARED_BEFORE_START,
                "XA COMMIT "
                        + BinlogPositionAxis.readable(gtid)
                        + " commits an XA transaction prepared before the stream's start position "
                        + BinlogPositionAxis.readable(processed)
                        + ": its rows are in the binlog before the position this job was told to start"
                        + " from, so they cannot be delivered. Remedy: start the job without state"
                        + " from a position that does not hold the prepared part (earlier), or"
                        + " with a snapshot (scan.startup.mode 'initial'), or when the server lists"
                        + " no prepared XA transaction (XA RECOVER) at the start.");
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

    private CapstanHaltException xaUnreadable() {
        return new CapstanHaltException(
                HaltReason.XA_UNSUPPORTED,
                "the binlog holds an XA statement or event"
                        + (gtid == null ? "" : " (" + BinlogPositionAxis.readable(gtid) + ")")
                        + " after position "
                        + BinlogPositionAxis.readable(processed)
                        + " in a form this connector cannot read, so its transaction's changes could"
                        + " be lost or duplicated. Remedy: report it with the server version; restart"
                        + " from the last checkpoint after a fix.");
    }
}

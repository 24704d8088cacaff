package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TableCaptured;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidModeChange;
import io.capstan.flink.mysql.gtid.GtidSet;

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

import java.io.IOException;
import java.util.List;

/**
 * Turns the binlog's event sequence into {@link BinlogRecord}s, one row change at a time (a
 * transaction is never buffered, except an XA transaction's prepared part), and knows the exact
 * position to resume from. It dispatches each event; what is done with it lives in its own class:
 *
 * <ol>
 *   <li>GTID opens a transaction ({@link OpenTransaction}: its GTID, original commit time and the
 *       hand-out of its captured rows), already begun when it stands for MariaDB's GTID event,
 *       which no BEGIN follows ({@link MariaDbEvents.BodyOpened}); a MARIADB_GTID itself only
 *       reaches a job on MySQL GTIDs, and halts; TABLE_MAP updates the {@link TableSchemaCache};
 *       FORMAT_DESCRIPTION tells it the binlog's server version;
 *   <li>each row of a captured table's WRITE/UPDATE/DELETE event becomes a {@link RowChange} whose
 *       index counts the transaction's captured rows only ({@link RowsEvents});
 *   <li>XID, COMMIT, or a DDL statement outside BEGIN closes it with a {@link TransactionEnd}, a
 *       DDL after its effects ({@link DdlEffects}); MySQL 8.0.21+'s atomic CREATE TABLE ... SELECT,
 *       logged as {@code CREATE TABLE ... START TRANSACTION}, rows and XID, stays open for its
 *       rows;
 *   <li>XA statements and XA_PREPARE go to {@link XaTransactions}, which holds a prepared part's
 *       rows until its outcome;
 *   <li>a compressed transaction (TRANSACTION_PAYLOAD, after its GTID event, which MySQL never
 *       compresses) is taken apart into its inner events, which go through the same steps;
 *   <li>the processed set and the resume point are kept by {@link StreamPosition}: resuming inside
 *       a transaction skips its first {@code rowsAlreadyEmitted} captured rows.
 * </ol>
 *
 * <p>Transactions committed before the start timestamp are ended without rows.
 *
 * <p>What cannot be delivered exactly halts rather than passing silently: a data change logged as a
 * statement, and a TRUNCATE, DROP or RENAME of a captured table ({@link CapturedTableStatements},
 * which may instead have a TRUNCATE emitted as a change), a PARTIAL_UPDATE_ROWS_EVENT of a captured
 * table, a new GTID while a transaction that passed captured rows has no end, and changes that
 * foreign-key actions or triggers may carry into captured tables unlogged ({@link CascadeGuard}).
 *
 * <p>No I/O: events come in through {@link #onEvent}, records go out through a {@link RecordSink}
 * (which may block: that is the back-pressure). Single-threaded.
 */
final class TransactionAssembler {

    /** Receives records in stream order; may block when the consumer is behind. */
    @FunctionalInterface
    interface RecordSink {
        void accept(BinlogRecord record) throws InterruptedException;
    }

    private final TableSchemaCache tables;
    private final Long startTimestampMillis;
    private final BinlogStreamerMetrics metrics;
    private final RecordSink sink;
    private final CapturedTableStatements statements;
    private final PendingXaBook xa;
    private final OpenTransaction open;
    private final StreamPosition position;
    private final RowsEvents rows;
    private final DdlEffects ddl;
    private final XaTransactions xaTransactions;
    private Event event; // the event being read: where an ending transaction ends

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
        this.tables = tables;
        this.xa = new PendingXaBook(xaMaxPendingRows);
        this.statements =
                new CapturedTableStatements(tables.filter(), truncateHandling, ddlObserver);
        this.startTimestampMillis = startTimestampMillis;
        this.metrics = metrics;
        this.sink = sink;
        this.open = new OpenTransaction(sink, metrics);
        this.position = new StreamPosition(start);
        this.rows = new RowsEvents(tables, statements, xa, open, position);
        this.ddl = new DdlEffects(ddlObserver, statements, tables, open, sink);
        this.xaTransactions =
                new XaTransactions(open, xa, position, metrics, startsAfterSnapshot, this::end);
    }

    /**
     * Captures from now on the tables {@code capture} selects that are created in the stream; each
     * is announced by a {@link TableCaptured} before its CREATE's rows and end.
     */
    void captureCreatedTables(CreatedTableCapture capture) {
        ddl.captureCreatedTables(capture);
        capture.transactionEnded(position.processed()); // the start may hold the awaited position
    }

    /** Grows the processed set by binlog position: a server without GTIDs. */
    void growProcessed(ProcessedGrowth growth) {
        position.growBy(growth);
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
        ddl.emitSchemaChanges(events);
    }

    /**
     * Checks from now on the changes that foreign-key actions or triggers may carry into captured
     * tables without a trace in the binlog ({@link CascadeGuard}).
     */
    void guardCascades(CascadeGuard guard) {
        rows.guardCascades(guard);
        ddl.guardCascades(guard);
        statements.checkEffects(guard);
    }

    /**
     * The position after every record handed to the sink: the processed set plus, inside a
     * transaction, the captured rows already passed (emitted, or skipped as emitted before).
     */
    BinlogStartPosition resumePosition() {
        return position.resumePosition(open);
    }

    GtidSet processed() {
        return position.processed();
    }

    /**
     * Drops the open transaction after a lost connection: the server will send it again from its
     * GTID event, and {@link #resumePosition()} (taken before this call) says how much to skip.
     */
    void restartFrom(BinlogStartPosition start) {
        position.restartFrom(start);
        open.close();
        // The prepared parts held are outside the processed set: the server sends them again.
        xa.clear();
        tables.forgetTableIds();
    }

    void onEvent(Event event) throws InterruptedException {
        this.event = event;
        read(event);
        ProcessedGrowth growth = position.growth();
        if (!open.isOpen() && growth.reportsProcessedSet()) { // else only an end moves the set
            GtidSet processed = position.processed();
            GtidSet grown = growth.between(processed, event, xa.preparedParts());
            if (grown != processed) {
                // positions passed outside any transaction: the reader's set moves with them
                sink.accept(
                        new TransactionEnd(growth.lastPassed(), open.commitMicros(), null, grown));
                position.passed(grown);
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
                ddl.onQueryEvent(header);
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
                rows.onRows(data);
                break;
            case XID:
                end(null);
                break;
            case PARTIAL_UPDATE_ROWS_EVENT:
                RowsEvents.onPartialUpdate(data);
                break;
            case EXECUTE_LOAD_QUERY:
                // A LOAD DATA logged as a statement; the library does not decode its text.
                if (open.isOpen() && !open.droppedByTimestamp()) {
                    throw statements.statementLoggedLoad(open.gtid());
                }
                break;
            case XA_PREPARE:
                // Read through capstan's own event: XaTransactions needs no binlog library.
                xaTransactions.onPrepare(BinlogEventAdapter.xaPrepare(event));
                break;
            case ROTATE:
                ddl.onRotate(((RotateEventData) data).getBinlogFilename());
                break;
            case FORMAT_DESCRIPTION:
                tables.onServerVersion(((FormatDescriptionEventData) data).getServerVersion());
                break;
            case TRANSACTION_PAYLOAD:
                onCompressedTransaction(data);
                break;
            case MARIADB_GTID:
                // Position mode translates it (PositionModeEvents): this job is on MySQL GTIDs.
                throw MariaDbEvents.otherServerKind(
                        "a MariaDB transaction start on a job on MySQL GTIDs");
            case ANONYMOUS_GTID:
                // A job on GTIDs meets a transaction without one: the server's gtid_mode changed.
                throw GtidModeChange.halt(
                        false, "the server streamed a transaction without a GTID:" + " it");
            case INCIDENT:
                throw new CapstanHaltException(
                        HaltReason.DATA_GAP,
                        "the server's binlog holds an INCIDENT event after "
                                + BinlogPositionAxis.readable(position.processed())
                                + ": changes may be missing from the binlog. Remedy: re-snapshot the captured"
                                + " tables (start the job without state) after checking the server's error log.");
            default:
                // PREVIOUS_GTIDS, HEARTBEAT, ROWS_QUERY, ...: no effect.
        }
    }

    private void begin(GtidEventData data, EventHeader header) {
        if (open.isOpen()) {
            // An XA part without XA PREPARE: its held rows were never emitted, and may have been
            // prepared and committed on the server all the same.
            open.checkUnended(xa.dropOpen());
        }
        MySqlGtid mysqlGtid = data.getMySqlGtid();
        Gtid gtid = Gtid.of(mysqlGtid.getServerId().toString(), mysqlGtid.getTransactionId());
        long original = data.getOriginalCommitTimestamp();
        long commitMicros = original > 0 ? original : header.getTimestamp() * 1000L;
        open.open(
                gtid,
                commitMicros,
                position.rowsAlreadyEmitted(gtid),
                startTimestampMillis != null && commitMicros < startTimestampMillis * 1000L);
        if (data instanceof MariaDbEvents.BodyOpened) {
            open.markOpenedByStart(); // MariaDB writes no BEGIN
        }
    }

    private void onQuery(QueryEventData data) throws InterruptedException {
        String sql = data.getSql().trim();
        if (!open.isOpen()) {
            return;
        }
        if (sql.regionMatches(true, 0, "XA ", 0, 3)) {
            xaTransactions.onStatement(sql.substring(3).trim());
            return;
        }
        if (sql.equalsIgnoreCase("BEGIN")) {
            open.markBegun();
        } else if (sql.equalsIgnoreCase("COMMIT")) {
            end(null);
        } else if (TransactionRollback.isRollback(sql)) {
            TransactionRollback.check(sql, open.gtid(), open.capturedRowsPassed() + xa.openRows());
            if (TransactionRollback.endsTransaction(sql)) {
                end(null);
            }
        } else if (!open.droppedByTimestamp()
                && statements.isUncapturedDml(data.getDatabase(), data.getSql(), open.gtid())) {
            // A data change of uncaptured tables logged as a statement: nothing to capture.
            return;
        } else if (DdlEffects.isAtomicCreateSelect(sql)
                || (open.openedByStart() && sql.regionMatches(true, 0, "CREATE", 0, 6))) {
            // MySQL 8.0.21+ logs CREATE TABLE ... SELECT as one transaction: this statement, then
            // the selected rows as row events, then XID; MariaDB as CREATE TABLE after a GTID
            // event that opened the body. The rows belong to it: keep it open.
            ddl.onDdl(data.getDatabase(), data.getSql());
            open.markBegun();
        } else if (!open.afterBegin()) {
            // A DDL (or other self-committing statement) is a transaction of its own.
            ddl.onDdl(data.getDatabase(), data.getSql());
            end(null);
        }
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
            throw CompressedTransaction.undecodable(e, open.gtid(), position.processed());
        }
    }

    /**
     * Ends the open transaction; {@code prepared}, the prepared part of the XA transaction this one
     * commits or rolls back (else null), joins the processed set with it.
     */
    private void end(Gtid prepared) throws InterruptedException {
        Gtid gtid = open.gtid();
        if (gtid == null) {
            return;
        }
        ProcessedGrowth growth = position.growth();
        boolean reports = growth.reportsProcessedSet();
        GtidSet grown =
                growth.ended(
                        position.processed(),
                        gtid,
                        prepared,
                        event,
                        reports ? xa.preparedParts() : List.of());
        long commitMicros = open.commitMicros();
        sink.accept(new TransactionEnd(gtid, commitMicros, prepared, reports ? grown : null));
        position.ended(gtid, grown);
        metrics.transactionSeen();
        if (open.droppedByTimestamp()) {
            metrics.transactionFilteredByTimestamp();
        }
        metrics.commitSeen(commitMicros);
        open.close();
        ddl.transactionEnded(grown);
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.TableCaptured;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import com.github.shyiko.mysql.binlog.event.EventHeader;

/**
 * What a DDL statement of {@link TransactionAssembler}'s stream does, in this order:
 *
 * <ol>
 *   <li>the {@link DdlObserver} sees it (an exception other than a halt becomes a {@link
 *       TransactionAssembler.DdlObserverFailure});
 *   <li>{@link CapturedTableStatements} checks it: a TRUNCATE emitted as a change is a row of the
 *       DDL's transaction;
 *   <li>a table it creates that is to be captured is announced ({@link TableCaptured}), also before
 *       the start timestamp, as its later rows are to be captured;
 *   <li>a schema change of a captured table becomes a record ({@link SchemaChangeEvents}), counted
 *       as a row of the DDL's transaction, so it is emitted once across a resume;
 *   <li>the {@link CascadeGuard} learns that foreign keys, triggers or the captured tables may have
 *       changed.
 * </ol>
 */
final class DdlEffects {

    private final DdlObserver observer;
    private final CapturedTableStatements statements;
    private final TableSchemaCache tables;
    private final OpenTransaction open;
    private final TransactionAssembler.RecordSink sink;
    private CreatedTableCapture createdTables; // null: tables created later are not captured
    private SchemaChangeEvents schemaChanges; // null: no schema-change records
    private CascadeGuard cascades; // null: foreign-key actions and triggers are not checked

    DdlEffects(
            DdlObserver observer,
            CapturedTableStatements statements,
            TableSchemaCache tables,
            OpenTransaction open,
            TransactionAssembler.RecordSink sink) {
        this.observer = observer;
        this.statements = statements;
        this.tables = tables;
        this.open = open;
        this.sink = sink;
    }

    void captureCreatedTables(CreatedTableCapture capture) {
        this.createdTables = capture;
    }

    void emitSchemaChanges(SchemaChangeEvents events) {
        this.schemaChanges = events;
    }

    void guardCascades(CascadeGuard guard) {
        this.cascades = guard;
    }

    /** Any QUERY event: where the schema-change records take their position from. */
    void onQueryEvent(EventHeader header) {
        if (schemaChanges != null) {
            schemaChanges.onQuery(header);
        }
    }

    void onRotate(String binlogFilename) {
        if (schemaChanges != null) {
            schemaChanges.onRotate(binlogFilename);
        }
    }

    /** A transaction ended and the processed set is now {@code processed}. */
    void transactionEnded(GtidSet processed) {
        if (createdTables != null) {
            createdTables.transactionEnded(processed);
        }
    }

    /** The DDL {@code sql}, run in {@code database} (null: none), of the open transaction. */
    void onDdl(String database, String sql) throws InterruptedException {
        String db = database == null ? "" : database;
        try {
            observer.onDdl(db, sql, open.gtid());
        } catch (CapstanHaltException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TransactionAssembler.DdlObserverFailure(e);
        }
        boolean dropped = open.droppedByTimestamp();
        if (!dropped) {
            for (TableId truncated : statements.onDdl(db, sql, open.gtid())) {
                if (open.passRow()) {
                    open.emit(truncated, null, Operation.TRUNCATE, null, null);
                }
            }
        }
        if (createdTables != null) {
            for (TableId created : createdTables.onDdl(db, sql, open.gtid(), tables)) {
                sink.accept(new TableCaptured(open.gtid(), open.commitMicros(), created));
            }
        }
        if (schemaChanges != null && !dropped) {
            for (SchemaChangeEvents.Change c : schemaChanges.onDdl(db, sql, tables.filter())) {
                if (open.passRow()) {
                    TableSchema columns;
                    try {
                        columns = schemaChanges.columns(c);
                    } catch (RuntimeException e) {
                        open.unpassRow(); // not handed out
                        throw e;
                    }
                    open.emitSchemaChange(c.table(), columns, c.kind());
                }
            }
        }
        if (cascades != null) {
            cascades.onDdl(sql);
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
}

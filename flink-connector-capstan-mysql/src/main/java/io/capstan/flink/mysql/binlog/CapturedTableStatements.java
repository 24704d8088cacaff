package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.SystemVersionedTables;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.SnapshotDdlGuard;
import io.capstan.flink.mysql.snapshot.ddl.TableArrivals;
import io.capstan.flink.mysql.snapshot.ddl.TableRemovals;
import io.capstan.flink.mysql.snapshot.ddl.TokenCursor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a QUERY event's statement means for the captured tables, beyond the transaction's
 * bookkeeping: a data change logged as a statement (its rows never appear as row events) halts with
 * {@code statement_based_change} when it may write a captured table, and passes otherwise; a
 * TRUNCATE of a captured table halts, is emitted or skipped as configured; a DROP or RENAME of one
 * halts with {@code captured_table_removed}; an ALTER giving one a column of MariaDB's UUID, INET4
 * or INET6 halts with {@code unsupported_column_type}. Tables whose snapshot already shows the
 * statement ({@link DdlObserver#snapshotHolds}) pass. Messages name tables, never the statement
 * (the no-values rule).
 */
final class CapturedTableStatements {

    private static final Logger LOG = LoggerFactory.getLogger(CapturedTableStatements.class);

    private static final Set<String> TABLE_CHANGING_HEADS =
            Set.of("TRUNCATE", "DROP", "RENAME", "ALTER");

    /**
     * Checks the effects a statement-logged data change of uncaptured tables may have on captured
     * ones (triggers, foreign-key actions), which statement format does not log.
     */
    @FunctionalInterface
    interface UncapturedStatementCheck {
        /** Halts when the statement may have changed captured tables. */
        void check(String sessionDb, List<StatementDmlTargets.Name> names, Gtid gtid);
    }

    private final TableFilter filter;
    private final TruncateHandling truncate;
    private final DdlObserver snapshot;
    private UncapturedStatementCheck effects = (db, names, gtid) -> {};
    private final OnlineSchemaChangeCutOver cutOvers = new OnlineSchemaChangeCutOver();
    private final DropBeforeRows drops = new DropBeforeRows();

    CapturedTableStatements(TableFilter filter, TruncateHandling truncate, DdlObserver snapshot) {
        this.filter = filter;
        this.truncate = truncate;
        this.snapshot = snapshot;
    }

    /** Checks from now on what statement-logged changes of uncaptured tables may do to others. */
    void checkEffects(UncapturedStatementCheck check) {
        this.effects = check;
    }

    /** The stream began without a snapshot: {@link DropBeforeRows}. */
    void streamOnly() {
        drops.streamOnly();
    }

    /** A captured row of {@code table} passed: a drop of it halts from now on. */
    void rowPassed(TableId table) {
        drops.rowPassed(table);
    }

    /** Follows the table swap of gh-ost and pt-osc as a schema change of the captured table. */
    void followCutOvers() {
        cutOvers.follow();
    }

    /**
     * Checks a statement for a statement-logged data change.
     *
     * @return true when it is one (of uncaptured tables only: it passes), false when it is not
     * @throws CapstanHaltException {@code statement_based_change} when it may write a captured
     *     table or its tables cannot be told
     */
    boolean isUncapturedDml(String database, String sql, Gtid gtid) {
        Optional<StatementDmlTargets.Targets> dml = StatementDmlTargets.of(sql);
        if (dml.isEmpty()) {
            return false;
        }
        if (!dml.get().complete()) {
            throw statementBased(
                    "a table this connector cannot identify (session database "
                            + quoted(database)
                            + ")",
                    gtid);
        }
        for (StatementDmlTargets.Name n : dml.get().names()) {
            Optional<TableId> captured = captured(database, n.database(), n.table());
            if (captured.isPresent()) {
                throw statementBased("captured table " + captured.get(), gtid);
            }
        }
        effects.check(database, dml.get().names(), gtid);
        return true;
    }

    /**
     * The halt for a LOAD DATA logged as a statement (an EXECUTE_LOAD_QUERY event): the binlog
     * library does not decode its text, so its table cannot be told.
     */
    CapstanHaltException statementLoggedLoad(Gtid gtid) {
        return statementBased("a table this connector cannot identify (a LOAD DATA)", gtid);
    }

    /**
     * Checks a DDL statement (after the {@link DdlObserver} let it pass) for a TRUNCATE, DROP or
     * RENAME of a captured table.
     *
     * @return the captured tables whose TRUNCATE is to be emitted ({@link TruncateHandling#EMIT})
     * @throws CapstanHaltException {@code captured_table_removed}, or {@code
     *     captured_table_truncated} under {@link TruncateHandling#HALT}
     */
    List<TableId> onDdl(String database, String sql, Gtid gtid) {
        Optional<TableRemovals> removals = TableRemovals.of(sql);
        if (removals.isEmpty()) {
            unreadable(database, sql, gtid);
            return List.of();
        }
        // MariaDB's CREATE OR REPLACE TABLE removes the table it replaces as a DROP does
        String head = TokenCursor.leadingWord(sql);
        boolean drop = "DROP".equals(head) || "CREATE".equals(head);
        for (String[] name : removals.get().removed()) {
            Optional<TableId> t = captured(database, name[0], name[1]);
            if (t.isPresent()
                    && !snapshot.snapshotHolds(t.get(), gtid)
                    && !(drop && drops.dropPasses(t.get()))
                    && !cutOvers.isCutOverOf(t.get(), database, sql, gtid)) {
                throw drop
                        ? droppedAfterRows(t.get(), gtid)
                        : removed("captured table " + t.get(), gtid);
            }
        }
        TableArrivals.of(sql)
                .ifPresent(
                        a ->
                                a.created().stream()
                                        .filter(c -> !c.temporary() && !c.ifNotExists())
                                        .forEach(
                                                c ->
                                                        captured(database, c.database(), c.table())
                                                                .ifPresent(drops::created)));
        for (String db : removals.get().databases()) {
            droppedDatabase(db, gtid);
        }
        for (String[] name : removals.get().versioned()) {
            // even where the snapshot holds the statement: every later row event is in question
            Optional<TableId> t = captured(database, name[0], name[1]);
            if (t.isPresent()) {
                throw SystemVersionedTables.refused(
                        List.of(t.get()),
                        "was made system-versioned in transaction "
                                + BinlogPositionAxis.readable(gtid));
            }
        }
        for (String[] name : removals.get().mariaDbTyped()) {
            Optional<TableId> t = captured(database, name[0], name[1]);
            if (t.isPresent() && !snapshot.snapshotHolds(t.get(), gtid)) {
                throw MariaDbOwnTypes.givenInStream(
                        t.get(), "in transaction " + BinlogPositionAxis.readable(gtid));
            }
        }
        for (String[] name : removals.get().rowsReplaced()) {
            Optional<TableId> t = captured(database, name[0], name[1]);
            if (t.isEmpty() || snapshot.snapshotHolds(t.get(), gtid)) {
                continue;
            }
            // Some rows gone or replaced: no TRUNCATE event could say which, so never 'emit'.
            if (truncate == TruncateHandling.SKIP) {
                LOG.warn(
                        "Captured table {} lost or had replaced some rows (partition, tablespace or"
                                + " engine) in transaction {}; option binlog.truncate.handling=skip:"
                                + " downstream keeps its rows",
                        t.get(),
                        BinlogPositionAxis.readable(gtid));
            } else {
                throw partlyReplaced(t.get(), gtid);
            }
        }
        List<TableId> emitted = new ArrayList<>();
        for (String[] name : removals.get().truncated()) {
            Optional<TableId> t = captured(database, name[0], name[1]);
            if (t.isEmpty() || snapshot.snapshotHolds(t.get(), gtid)) {
                continue;
            }
            switch (truncate) {
                case EMIT:
                    // Names compare ignoring case so that a doubt halts; an emitted TRUNCATE must
                    // be of exactly the captured table (a server with lower_case_table_names=0
                    // may hold both `orders` and `Orders`).
                    if (!sameName(t.get(), name, database)) {
                        throw truncated(t.get(), gtid);
                    }
                    emitted.add(t.get());
                    break;
                case SKIP:
                    LOG.warn(
                            "Captured table {} was truncated in transaction {}; option"
                                    + " binlog.truncate.handling=skip: downstream keeps its rows",
                            t.get(),
                            BinlogPositionAxis.readable(gtid));
                    break;
                default:
                    throw truncated(t.get(), gtid);
            }
        }
        return emitted;
    }

    /** A TRUNCATE, DROP, RENAME or ALTER the parser could not read: halt if it names a table. */
    private void unreadable(String database, String sql, Gtid gtid) {
        if (!TABLE_CHANGING_HEADS.contains(TokenCursor.leadingWord(sql))) {
            return;
        }
        Optional<Set<TableId>> listed = filter.listed();
        if (listed.isEmpty()) {
            return; // nothing to compare its words with
        }
        Optional<TableId> t = SnapshotDdlGuard.touchedTable(database, sql, listed.get());
        if (t.isPresent() && !snapshot.snapshotHolds(t.get(), gtid)) {
            throw removed(
                    "captured table " + t.get() + " (by a statement this connector could not read)",
                    gtid);
        }
    }

    private void droppedDatabase(String db, Gtid gtid) {
        Optional<Set<TableId>> listed = filter.listed();
        if (listed.isEmpty()) {
            throw removed("database " + quoted(db) + ", which may hold captured tables,", gtid);
        }
        for (TableId t : new TreeSet<>(listed.get())) {
            if (t.database().equalsIgnoreCase(db) && !snapshot.snapshotHolds(t, gtid)) {
                throw removed("captured table " + t + " (its database)", gtid);
            }
        }
    }

    /** The captured table a statement's name may denote, resolved in the session's database. */
    private Optional<TableId> captured(String sessionDb, String db, String table) {
        String d = db != null ? db : sessionDb;
        if (d == null || d.isEmpty()) {
            // MySQL refuses an unqualified name without a default database; compare names only
            Optional<Set<TableId>> listed = filter.listed();
            if (listed.isEmpty()) {
                return Optional.empty();
            }
            return listed.get().stream()
                    .filter(t -> t.table().equalsIgnoreCase(table))
                    .sorted()
                    .findFirst();
        }
        TableId named = TableId.of(d, table);
        if (!filter.mayCapture(named)) {
            return Optional.empty();
        }
        // the catalogue's spelling, when listed
        return Optional.of(
                filter.listed()
                        .flatMap(
                                all ->
                                        all.stream()
                                                .filter(
                                                        t ->
                                                                t.database().equalsIgnoreCase(d)
                                                                        && t.table()
                                                                                .equalsIgnoreCase(
                                                                                        table))
                                                .sorted()
                                                .findFirst())
                        .orElse(named));
    }

    /** Whether {@code name}, as written (database or the session's), spells {@code t} exactly. */
    private static boolean sameName(TableId t, String[] name, String sessionDb) {
        String db = name[0] != null ? name[0] : sessionDb;
        return t.table().equals(name[1]) && t.database().equals(db);
    }

    private static String quoted(String name) {
        return name == null || name.isEmpty() ? "(none)" : "`" + name + "`";
    }

    static CapstanHaltException statementBased(String what, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.STATEMENT_BASED_CHANGE,
                "transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " changed "
                        + what
                        + " with a statement logged as SQL text (the writing session used"
                        + " binlog_format STATEMENT or MIXED), not as row events, so its changes cannot"
                        + " be captured exactly. Remedy: make every writing session use"
                        + " binlog_format=ROW (SET PERSIST binlog_format='ROW', no SESSION override,"
                        + " reconnect pooled connections opened before the change), then restart the"
                        + " job without state to snapshot the tables again.");
    }

    private static CapstanHaltException truncated(TableId table, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.CAPTURED_TABLE_TRUNCATED,
                "captured table "
                        + table
                        + " was truncated in transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " after its snapshot; downstream still holds its rows. Remedy: restart the"
                        + " job without state to snapshot it again, or choose option"
                        + " binlog.truncate.handling (DataStream: truncateHandling) 'emit' (a TRUNCATE"
                        + " change event) or 'skip' (keep the rows downstream).");
    }

    private static CapstanHaltException partlyReplaced(TableId table, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.CAPTURED_TABLE_TRUNCATED,
                "captured table "
                        + table
                        + " lost or had replaced some of its rows in transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " after its snapshot, by an ALTER TABLE that logs no row events"
                        + " (TRUNCATE/DROP/EXCHANGE PARTITION, DISCARD/IMPORT TABLESPACE or ENGINE ="
                        + " BLACKHOLE); downstream still holds the old rows. Remedy: restart the job"
                        + " without state to snapshot it again, or set binlog.truncate.handling"
                        + " (DataStream: truncateHandling) to 'skip' to keep the rows downstream.");
    }

    /** A DROP of a captured table that {@link DropBeforeRows} does not let pass. */
    private static CapstanHaltException droppedAfterRows(TableId table, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.CAPTURED_TABLE_REMOVED,
                "captured table "
                        + table
                        + " was dropped (DROP TABLE, or MariaDB's CREATE OR REPLACE TABLE) in"
                        + " transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " after rows of it may have been emitted (by a snapshot, or by this stream"
                        + " before the DROP, or before the position it restarted from); MySQL logs no"
                        + " row events for a DROP, so downstream would keep rows MySQL no longer has."
                        + " Remedy: remove the table's rows downstream and restart the job without"
                        + " state from a position after the DROP (scan.startup.mode 'specific-offset'"
                        + " or 'latest-offset'), or with a new snapshot ('initial'); a stream-only job"
                        + " passes a DROP of a table whose CREATE it streamed with no row since.");
    }

    private static CapstanHaltException removed(String what, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.CAPTURED_TABLE_REMOVED,
                what
                        + " was dropped or renamed in transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " after its snapshot; downstream still holds its rows and later changes"
                        + " under its name would not fit them. Remedy: restart the job without state"
                        + " (a new snapshot), with the table list updated if the table moved.");
    }
}

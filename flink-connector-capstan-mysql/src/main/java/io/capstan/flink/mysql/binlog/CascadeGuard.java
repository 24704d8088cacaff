package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.TokenCursor;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;

import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Halts where a change may have reached captured tables without a trace in the binary log:
 *
 * <ul>
 *   <li>a row change of a parent table (captured or not) that a foreign key's propagating action
 *       ({@code CASCADE}, {@code SET NULL}) may carry into a captured table: InnoDB applies those
 *       actions below the binary log, which holds only the parent's row ({@code
 *       foreign_key_cascade});
 *   <li>a data change logged as a statement of tables that are not captured but are the parent of
 *       such a constraint ({@code foreign_key_cascade}), or have a trigger or triggers the account
 *       cannot see ({@code statement_based_change}): statement format logs neither cascades nor
 *       what triggers did.
 * </ul>
 *
 * <p>The foreign keys and triggers ({@link ReferentialFacts}) are read when the stream starts and
 * again after each statement that may change them (CREATE, ALTER, RENAME, DROP, GRANT, REVOKE).
 * Without knowing whether any child row referenced the parent row, a parent's delete (or a change
 * of its referenced columns) halts: fail closed. The rows of uncaptured parents are decoded ({@link
 * #decodes}) only for such tables. Messages name tables, constraints and GTIDs, never values.
 */
final class CascadeGuard implements CapturedTableStatements.UncapturedStatementCheck {

    private static final Set<String> RELOADING_HEADS =
            Set.of("CREATE", "ALTER", "RENAME", "DROP", "GRANT", "REVOKE");

    /** The facts could not be read: the stream fails (and Flink restarts it), it does not halt. */
    static final class FactsUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FactsUnavailable(IOException cause) {
            super(
                    "could not read the server's foreign keys and triggers ("
                            + cause.getClass().getName()
                            + ")",
                    cause);
        }
    }

    private final ReferentialFacts.Source source;
    private final TableFilter filter;
    private final DdlObserver snapshot;

    private volatile ReferentialFacts facts;
    private volatile CascadeReach reach;

    CascadeGuard(ReferentialFacts.Source source, TableFilter filter, DdlObserver snapshot) {
        this.source = source;
        this.filter = filter;
        this.snapshot = snapshot;
    }

    /** Reads the facts (again). */
    void load() {
        ReferentialFacts f;
        try {
            f = source.read();
        } catch (IOException e) {
            throw new FactsUnavailable(e);
        }
        CascadeReach r = new CascadeReach(f.foreignKeys(), filter::mayCapture, f.visibleTables());
        if (r.unseen().isPresent()) {
            throw unseen(r.unseen().get());
        }
        facts = f;
        reach = r;
    }

    /** Whether rows of uncaptured {@code table} must be decoded for {@link #onRows}. */
    boolean decodes(TableId table) {
        CascadeReach r = reach;
        return r != null && r.guards(table);
    }

    /** Reloads the facts after a statement that may have changed them. */
    void onDdl(String sql) {
        if (RELOADING_HEADS.contains(TokenCursor.leadingWord(sql))) {
            load();
        }
    }

    /** Checks a rows event of any table (captured or decoded for {@link #decodes}). */
    void onRows(TableSchemaCache.Entry table, EventData data, Gtid gtid) {
        CascadeReach r = reach;
        if (r == null) {
            return; // not started (a streamer's own tests)
        }
        if (data instanceof DeleteRowsEventData) {
            Optional<ForeignKey> k = r.onDelete(table.tableId);
            if (k.isPresent()) {
                check(
                        r,
                        k.get(),
                        "deleted a row of " + table.tableId,
                        "the ON DELETE action of",
                        gtid);
            }
        } else if (data instanceof UpdateRowsEventData && r.guards(table.tableId)) {
            UpdateRowsEventData update = (UpdateRowsEventData) data;
            boolean full =
                    isFull(table, update.getIncludedColumnsBeforeUpdate())
                            && isFull(table, update.getIncludedColumns());
            for (Map.Entry<Serializable[], Serializable[]> row : update.getRows()) {
                Optional<ForeignKey> k =
                        full
                                ? r.onUpdate(table.tableId, row.getKey(), row.getValue())
                                : r.onUpdate(table.tableId, null, null);
                if (k.isPresent()) {
                    check(
                            r,
                            k.get(),
                            "changed a referenced column of a row of " + table.tableId,
                            "the ON UPDATE action of",
                            gtid);
                }
            }
        }
    }

    /**
     * Checks a statement-logged data change of uncaptured tables: halts when one of them passes
     * foreign-key actions on to captured tables, has a trigger, or hides its triggers.
     */
    @Override
    public void check(String sessionDb, List<StatementDmlTargets.Name> names, Gtid gtid) {
        CascadeReach r = reach;
        ReferentialFacts f = facts;
        if (r == null) {
            return; // not started (a streamer's own tests)
        }
        for (StatementDmlTargets.Name n : names) {
            String db = n.database() != null ? n.database() : sessionDb;
            if (db == null || db.isEmpty()) {
                throw CapturedTableStatements.statementBased(
                        "table `" + n.table() + "` (no database to resolve it in)", gtid);
            }
            TableId t = TableId.of(db, n.table());
            Optional<ForeignKey> k = r.anyPropagation(t);
            if (k.isPresent()) {
                check(
                        r,
                        k.get(),
                        "changed rows of " + t + " with a statement",
                        "an action of",
                        gtid);
            }
            if (f.tablesWithTriggers().stream().anyMatch(x -> CascadeReach.sameTable(x, t))) {
                throw CapturedTableStatements.statementBased(
                        "table "
                                + t
                                + ", which has triggers (their changes, of any table, are not"
                                + " logged in statement format),",
                        gtid);
            }
            if (!f.triggersVisible().test(t)) {
                throw CapturedTableStatements.statementBased(
                        "table "
                                + t
                                + ", whose triggers this account cannot see (it lacks the TRIGGER"
                                + " privilege on it: grant it, or use binlog_format=ROW),",
                        gtid);
            }
        }
    }

    /** Halts unless the snapshot of every captured table reached already shows the change. */
    private void check(CascadeReach r, ForeignKey k, String what, String action, Gtid gtid) {
        Set<TableId> reached = r.capturedReachedThrough(k);
        if (!reached.isEmpty() && reached.stream().allMatch(t -> snapshot.snapshotHolds(t, gtid))) {
            return; // every chunk of them was read after this transaction
        }
        throw new CapstanHaltException(
                HaltReason.FOREIGN_KEY_CASCADE,
                "transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " "
                        + what
                        + ", and "
                        + action
                        + " "
                        + k.describe()
                        + " may carry that into captured table(s) "
                        + reached
                        + ". InnoDB applies foreign-key actions below the binary log, which holds no"
                        + " trace of the child rows they change, so downstream would keep rows MySQL"
                        + " deleted or changed. Remedy: drop the propagating action (re-create the"
                        + " constraint without ON DELETE/ON UPDATE CASCADE or SET NULL) and delete or"
                        + " update the child rows explicitly, as row events; capturing the parent too"
                        + " does not help. Then restart the job without state (a new snapshot), since"
                        + " the child rows changed may already be missing downstream.");
    }

    private static CapstanHaltException unseen(TableId t) {
        return new CapstanHaltException(
                HaltReason.FOREIGN_KEY_CASCADE,
                "table "
                        + t
                        + " passes foreign-key actions (CASCADE, SET NULL) on to captured tables, but"
                        + " this account cannot see the foreign keys of "
                        + t
                        + " itself, so changes of its parents that cascade into it, and on to the"
                        + " captured tables, could not be told. Remedy: GRANT SELECT on "
                        + t
                        + " to the connector's account, then restart the job.");
    }

    private static boolean isFull(TableSchemaCache.Entry table, BitSet included) {
        return included == null || included.cardinality() == table.columnCount();
    }
}

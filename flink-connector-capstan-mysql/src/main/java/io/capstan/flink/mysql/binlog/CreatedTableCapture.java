package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.SystemVersionedTables;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.TableArrivals;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Captures the tables created while the stream runs: a CREATE TABLE (also {@code ... LIKE}, {@code
 * ... SELECT}, {@code IF NOT EXISTS}) of a table the configured selection matches and the stream
 * does not capture yet makes it captured from that statement on. All its rows come after the CREATE
 * in the binlog, so none is missed and no snapshot is needed.
 *
 * <p>Why an uncaptured matching name at a CREATE is a new, empty table: every matching table that
 * exists where the stream starts is captured (listed when the stream started, or awaited: {@link
 * CreatedTablesConfig#awaited()}), and from there on a matching table only comes into existence by
 * a CREATE, captured here, or by a RENAME, which halts. An awaited table exists now, maybe already
 * at the stream's start: a plain CREATE of it succeeded, so it did not exist then, but the server
 * logs {@code CREATE TABLE IF NOT EXISTS} also when the table exists, so that one halts with {@code
 * table_entered_selection} (it cannot tell a new table from one with rows no snapshot read). A
 * {@code CREATE TEMPORARY TABLE} is never captured (its rows are not logged as row events). A table
 * whose statement does not tell its column types (a LIKE of a table not captured, a RENAME) gets
 * the check of MariaDB's own types at its first table map ({@link TableSchemaCache#typesUntold}).
 *
 * <p>A table renamed into the selection ({@code RENAME TABLE x TO db.t}, {@code ALTER TABLE x
 * RENAME TO db.t}) holds rows no snapshot read: after a snapshot it halts with {@code
 * table_entered_selection}; a stream-only job (no snapshot of any table) captures it from there,
 * like a created one. A CREATE, RENAME or ALTER this connector cannot read halts the same way,
 * since it may have brought a matching table in.
 *
 * <p>Names in statements are as written: on a server with {@code lower_case_table_names} set the
 * catalogue (and the binlog's table maps) spell them in lower case, so the lower-case spelling is
 * captured as well when the selection matches it. Messages name tables, never the statement (the
 * no-values rule). Single-threaded: the binlog reader thread.
 */
final class CreatedTableCapture {

    private static final Logger LOG = LoggerFactory.getLogger(CreatedTableCapture.class);

    private final TableFilter selection;
    private final boolean afterSnapshot;
    private final Set<TableId> awaited;
    private final GtidSet awaitedBy;

    /**
     * @param afterSnapshot whether the job snapshotted its tables: a table renamed in then halts
     */
    CreatedTableCapture(CreatedTablesConfig config, boolean afterSnapshot) {
        this.selection = config.selection();
        this.afterSnapshot = afterSnapshot;
        this.awaited = new TreeSet<>(config.awaited());
        this.awaitedBy = config.awaitedBy();
    }

    /**
     * The tables {@code sql} brings into the selection, now captured in {@code tables}.
     *
     * @param database the session's database ("" if none)
     * @throws CapstanHaltException {@code table_entered_selection} for a table renamed into the
     *     selection after a snapshot, or a statement that may bring one in and cannot be read
     */
    List<TableId> onDdl(String database, String sql, Gtid gtid, TableSchemaCache tables) {
        Optional<TableArrivals> arrivals = TableArrivals.of(sql);
        if (arrivals.isEmpty()) {
            throw unreadable(database, gtid);
        }
        List<TableId> captured = new ArrayList<>();
        for (TableArrivals.Creation c : arrivals.get().created()) {
            if (c.temporary()) {
                continue;
            }
            for (TableId t : spellings(database, c.database(), c.table())) {
                Optional<TableId> existing = c.ifNotExists() ? awaitedAs(t) : Optional.empty();
                if (existing.isPresent() && !tables.filter().test(existing.get())) {
                    throw existedBeforeCreate(existing.get(), gtid);
                }
                if (c.systemVersioned() && selection.test(t)) {
                    throw SystemVersionedTables.refused(
                            List.of(t),
                            "was created WITH SYSTEM VERSIONING in transaction "
                                    + BinlogPositionAxis.readable(gtid));
                }
                if (c.mariaDbTyped() && selection.test(t)) {
                    throw MariaDbOwnTypes.givenInStream(
                            t,
                            "when it was created in transaction "
                                    + BinlogPositionAxis.readable(gtid));
                }
                if (selection.test(t) && tables.capture(t)) {
                    captured.add(t);
                    if (c.likeSource() != null
                            && !capturedSource(database, c.likeSource(), tables)) {
                        tables.typesUntold(t);
                    }
                }
            }
        }
        for (String[] name : arrivals.get().renamedInto()) {
            for (TableId t : spellings(database, name[0], name[1])) {
                if (!selection.test(t) || tables.filter().test(t)) {
                    continue;
                }
                if (afterSnapshot) {
                    throw renamedIn(t, gtid);
                }
                LOG.info(
                        "Table {} was renamed into the configured selection in transaction {};"
                                + " captured from there (stream-only job)",
                        t,
                        BinlogPositionAxis.readable(gtid));
                tables.capture(t);
                tables.typesUntold(t);
                captured.add(t);
            }
        }
        for (TableId t : captured) {
            awaited.removeIf(a -> a.equals(t) || sameIgnoringCase(a, t));
            LOG.info(
                    "Table {} was created in transaction {}; captured from there",
                    t,
                    BinlogPositionAxis.readable(gtid));
        }
        return captured;
    }

    /**
     * Checks, once the stream has passed the expected tables' position, that each was created in
     * it.
     *
     * @throws CapstanHaltException {@code table_entered_selection} naming the tables not created
     */
    void transactionEnded(GtidSet processed) {
        if (awaited.isEmpty() || !processed.containsAll(awaitedBy)) {
            return;
        }
        throw new CapstanHaltException(
                HaltReason.TABLE_ENTERED_SELECTION,
                "table(s) "
                        + awaited
                        + " match the configured table list and existed when the binlog stream"
                        + " started, but are not among its captured tables and were not created"
                        + " in the stream before "
                        + awaitedBy
                        + ": they were added to the table list of a restored job, or created"
                        + " after the tables were listed and before the stream's start position"
                        + " (e.g. while the snapshot ran), so no snapshot read their rows."
                        + " Remedy: stop the job with a savepoint and restore it with"
                        + " scan.newly-added-table.enabled = true (scan mode initial; DataStream"
                        + " builder: the same switch), which snapshots them; or restore with a"
                        + " table list that leaves them out; or start the job"
                        + " without state.");
    }

    /** The awaited table {@code t} names, as the catalogue spells it. */
    private Optional<TableId> awaitedAs(TableId t) {
        return awaited.stream().filter(a -> a.equals(t) || sameIgnoringCase(a, t)).findFirst();
    }

    /**
     * Whether a LIKE's {@code source} is captured, its column types then told: checked at the start
     * and by every statement since.
     */
    private static boolean capturedSource(
            String database, TableArrivals.Name source, TableSchemaCache tables) {
        return spellings(database, source.database(), source.table()).stream()
                .anyMatch(t -> tables.filter().test(t) && tables.typesTold(t));
    }

    /** The names a table written as {@code db.table} (db may be null) has in the catalogue. */
    private static Set<TableId> spellings(String sessionDb, String db, String table) {
        String d = db != null ? db : sessionDb;
        Set<TableId> out = new LinkedHashSet<>();
        if (d == null || d.isEmpty()) {
            return out; // the server refuses an unqualified name without a database
        }
        out.add(TableId.of(d, table));
        out.add(TableId.of(d.toLowerCase(Locale.ROOT), table.toLowerCase(Locale.ROOT)));
        return out;
    }

    private static boolean sameIgnoringCase(TableId a, TableId b) {
        return a.database().equalsIgnoreCase(b.database()) && a.table().equalsIgnoreCase(b.table());
    }

    private static CapstanHaltException renamedIn(TableId table, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.TABLE_ENTERED_SELECTION,
                "table "
                        + table
                        + " was renamed into the configured table list in transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + ": it holds rows that no snapshot read. Remedy: stop the job with a"
                        + " savepoint and restore it with scan.newly-added-table.enabled = true"
                        + " (DataStream builder: the same switch), which snapshots it; or"
                        + " start the job without state.");
    }

    private static CapstanHaltException existedBeforeCreate(TableId table, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.TABLE_ENTERED_SELECTION,
                "table "
                        + table
                        + " matches the configured table list and existed when the binlog stream"
                        + " started without being captured; transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " holds a CREATE TABLE IF NOT EXISTS of it, which the server logs also"
                        + " when the table already exists, so the stream cannot tell whether it"
                        + " holds rows that no snapshot read. Remedy: stop the job with a"
                        + " savepoint and restore it with scan.newly-added-table.enabled = true"
                        + " (DataStream builder: the same switch), which snapshots it; or restore"
                        + " with a table list that leaves it out; or start the job without"
                        + " state.");
    }

    private static CapstanHaltException unreadable(String database, Gtid gtid) {
        return new CapstanHaltException(
                HaltReason.TABLE_ENTERED_SELECTION,
                "transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " holds a CREATE, RENAME or ALTER statement (session database "
                        + (database == null || database.isEmpty() ? "(none)" : "`" + database + "`")
                        + ") this connector could not read, so it cannot tell whether a table"
                        + " entered the configured table list. Remedy: report the statement's form"
                        + " (not its text, if it holds values); restart from the last checkpoint"
                        + " after a fix, or start the job without state.");
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The captured row changes of XA transactions that are prepared in the binlog but whose outcome
 * ({@code XA COMMIT} / {@code XA ROLLBACK}) has not been streamed yet, by XID, plus the rows of the
 * prepared part being read now. They are held in memory only: none of them was emitted and the
 * prepared part's GTID stays outside the processed set until the outcome, so after a restore or
 * reconnect the server streams the prepared part again and the book is rebuilt (docs/adr/0008).
 *
 * <p>Bounded: holding more than {@code maxRows} row changes in all halts with {@code
 * xa_pending_rows_exceeded} rather than growing without bound or dropping rows. Single-threaded.
 */
final class PendingXaBook {

    /** A row change of a prepared part, without the transaction it will be delivered under. */
    record HeldRow(
            TableId table, TableSchema schema, Operation operation, RowData before, RowData after) {
        @Override
        public String toString() {
            return "HeldRow{table=" + table + ", operation=" + operation + "}"; // no values
        }
    }

    /** A prepared part: its own GTID and its captured row changes in binlog order. */
    record Prepared(Gtid prepareGtid, List<HeldRow> rows) {}

    private final int maxRows;
    private final Map<XaId, Prepared> pending = new HashMap<>();
    private List<HeldRow> open = new ArrayList<>();
    private int heldRows;

    PendingXaBook(int maxRows) {
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be >= 1, was " + maxRows);
        }
        this.maxRows = maxRows;
    }

    /**
     * Holds a row change of the prepared part {@code gtid} being read.
     *
     * @throws CapstanHaltException {@code xa_pending_rows_exceeded} when the cap would be passed
     */
    void hold(Gtid gtid, HeldRow row) {
        if (heldRows >= maxRows) {
            throw new CapstanHaltException(
                    HaltReason.XA_PENDING_ROWS_EXCEEDED,
                    "XA transaction "
                            + BinlogPositionAxis.readable(gtid)
                            + " would make the prepared XA transactions awaiting their XA COMMIT or"
                            + " XA ROLLBACK in the binlog hold more than "
                            + maxRows
                            + " captured row changes ("
                            + pending.size()
                            + " prepared and one being read). Remedy: raise '"
                            + CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.key()
                            + "' (held rows take the binlog reader's memory), or have the"
                            + " application end prepared XA transactions sooner (XA RECOVER lists"
                            + " them), then restart from the last checkpoint: nothing is lost,"
                            + " the held rows are read again from the binlog.");
        }
        open.add(row);
        heldRows++;
    }

    /**
     * The part being read ended with XA PREPARE: its rows wait for the outcome under {@code xid}.
     */
    void prepared(XaId xid, Gtid prepareGtid) {
        Prepared before = pending.putIfAbsent(xid, new Prepared(prepareGtid, open));
        if (before != null) {
            // The server refuses a second XA START of an XID still prepared: the stream is broken.
            throw new IllegalStateException(
                    "XA transaction "
                            + prepareGtid
                            + " was prepared under an XID already prepared by "
                            + before.prepareGtid());
        }
        open = new ArrayList<>();
    }

    /** The part being read committed in one phase: its rows, which the book no longer holds. */
    List<HeldRow> takeOpen() {
        List<HeldRow> rows = open;
        heldRows -= rows.size();
        open = new ArrayList<>();
        return rows;
    }

    /**
     * The part being read had no end (the stream restarts or is cut): its rows are dropped.
     *
     * @return how many rows it held
     */
    int dropOpen() {
        return takeOpen().size();
    }

    /** How many rows the part being read holds so far. */
    int openRows() {
        return open.size();
    }

    /** The prepared part of {@code xid}, which the book no longer holds; null if it holds none. */
    Prepared take(XaId xid) {
        Prepared p = pending.remove(xid);
        if (p != null) {
            heldRows -= p.rows().size();
        }
        return p;
    }

    /** Forgets everything: the stream restarts at a position before every pending prepared part. */
    void clear() {
        pending.clear();
        open = new ArrayList<>();
        heldRows = 0;
    }

    /** The GTIDs of the prepared parts held: outside the processed set until their outcome. */
    List<Gtid> preparedParts() {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<Gtid> parts = new ArrayList<>(pending.size());
        for (Prepared p : pending.values()) {
            parts.add(p.prepareGtid());
        }
        return parts;
    }

    int heldRows() {
        return heldRows;
    }

    int pendingTransactions() {
        return pending.size();
    }
}

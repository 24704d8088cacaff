package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.stream.event.BinlogEvent;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The XA statements and XA_PREPARE events of {@link TransactionAssembler}'s stream (docs/adr/0008).
 *
 * <p>An XA transaction is two binlog transactions: the prepared part ({@code XA START}, rows,
 * {@code XA END}, XA_PREPARE event) and, possibly much later, the outcome ({@code XA COMMIT} or
 * {@code XA ROLLBACK} query). Guarantees:
 *
 * <ol>
 *   <li>the prepared part's rows are held in the {@link PendingXaBook}, not emitted, and its GTID
 *       stays outside the processed set;
 *   <li>the commit emits them as its own rows (its GTID, index, commit time), and its end names the
 *       prepared part too, so both join the processed set at once; a rollback drops them;
 *   <li>a one-phase commit (an XA_PREPARE event flagged one-phase, or {@code XA COMMIT ... ONE
 *       PHASE}) emits the rows at once, as an ordinary transaction;
 *   <li>a commit of a part prepared before the start position halts ({@code
 *       xa_prepared_before_start}), except after a snapshot, whose chunks hold its rows;
 *   <li>a statement or event in a form not read here halts ({@code xa_unsupported}).
 * </ol>
 */
final class XaTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    /** Ends the open transaction; {@code prepared}, the XA part it completes, joins with it. */
    @FunctionalInterface
    interface Ending {
        void end(Gtid prepared) throws InterruptedException;
    }

    private final OpenTransaction open;
    private final PendingXaBook book;
    private final StreamPosition position;
    private final BinlogStreamerMetrics metrics;
    private final boolean startsAfterSnapshot;
    private final Ending ending;

    XaTransactions(
            OpenTransaction open,
            PendingXaBook book,
            StreamPosition position,
            BinlogStreamerMetrics metrics,
            boolean startsAfterSnapshot,
            Ending ending) {
        this.open = open;
        this.book = book;
        this.position = position;
        this.metrics = metrics;
        this.startsAfterSnapshot = startsAfterSnapshot;
        this.ending = ending;
    }

    /** An {@code XA ...} statement of the open transaction; {@code rest} follows "XA ". */
    void onStatement(String rest) throws InterruptedException {
        if (startsWithWord(rest, "START") || startsWithWord(rest, "BEGIN")) {
            open.markXaPart(); // its rows wait for the outcome
        } else if (startsWithWord(rest, "END")) {
            // the rows are complete; XA_PREPARE follows
        } else if (startsWithWord(rest, "COMMIT")) {
            if (open.xaPart()) {
                onePhaseCommit(); // logged as a statement by servers that do so
            } else {
                onOutcome(xaId(rest.substring(6)), true);
            }
        } else if (startsWithWord(rest, "ROLLBACK") && !open.xaPart()) {
            onOutcome(xaId(rest.substring(8)), false);
        } else {
            throw unreadable();
        }
    }

    void onPrepare(BinlogEvent.XaPrepare prepare) throws InterruptedException {
        if (!open.isOpen()) {
            return;
        }
        if (!open.xaPart() || !prepare.readable()) {
            throw unreadable();
        }
        if (prepare.onePhase()) {
            onePhaseCommit();
            return;
        }
        XaId id;
        try {
            id = XaId.of(prepare);
        } catch (IllegalArgumentException e) {
            throw unreadable();
        }
        // Nothing is emitted and the GTID stays outside the processed set until the outcome.
        book.prepared(id, open.gtid());
        metrics.transactionSeen();
        open.close();
    }

    /** The held rows of the open part are its rows, as usual. */
    private void onePhaseCommit() throws InterruptedException {
        for (PendingXaBook.HeldRow row : book.takeOpen()) {
            deliver(row);
        }
        ending.end(null);
    }

    /** The open transaction is the XA COMMIT or XA ROLLBACK of {@code id}. */
    private void onOutcome(XaId id, boolean commit) throws InterruptedException {
        PendingXaBook.Prepared prepared = book.take(id);
        if (prepared == null) {
            // Prepared before the start position (a later one would be in the book). A rollback,
            // or a commit dropped by time, has nothing to deliver; so has a commit after a
            // snapshot: the prepared part held its tables' metadata locks until this commit, so
            // every chunk of them was read after it, at a position holding it (docs/adr/0008).
            if (commit && !open.droppedByTimestamp() && !startsAfterSnapshot) {
                throw preparedBeforeStart();
            }
            if (commit && startsAfterSnapshot) {
                LOG.info(
                        "XA COMMIT {} ends a transaction prepared before the snapshot's handoff"
                                + " position; its changes are in the snapshot's chunks",
                        BinlogPositionAxis.readable(open.gtid()));
            }
            ending.end(null);
            return;
        }
        if (commit) {
            for (PendingXaBook.HeldRow row : prepared.rows()) {
                deliver(row);
            }
        }
        ending.end(prepared.prepareGtid());
    }

    /**
     * A held row, emitted as a row of the open transaction (skipped if emitted before a resume).
     */
    private void deliver(PendingXaBook.HeldRow row) throws InterruptedException {
        if (open.passRow()) {
            open.emit(row.table(), row.schema(), row.operation(), row.before(), row.after());
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
            throw unreadable();
        }
    }

    private CapstanHaltException preparedBeforeStart() {
        return new CapstanHaltException(
                HaltReason.XA_PREPARED_BEFORE_START,
                "XA COMMIT "
                        + BinlogPositionAxis.readable(open.gtid())
                        + " commits an XA transaction prepared before the stream's start position "
                        + BinlogPositionAxis.readable(position.processed())
                        + ": its rows are in the binlog before the position this job was told to start"
                        + " from, so they cannot be delivered. Remedy: start the job without state"
                        + " from a position that does not hold the prepared part (earlier), or"
                        + " with a snapshot (scan.startup.mode 'initial'), or when the server lists"
                        + " no prepared XA transaction (XA RECOVER) at the start.");
    }

    private CapstanHaltException unreadable() {
        Gtid gtid = open.gtid();
        return new CapstanHaltException(
                HaltReason.XA_UNSUPPORTED,
                "the binlog holds an XA statement or event"
                        + (gtid == null ? "" : " (" + BinlogPositionAxis.readable(gtid) + ")")
                        + " after position "
                        + BinlogPositionAxis.readable(position.processed())
                        + " in a form this connector cannot read, so its transaction's changes could"
                        + " be lost or duplicated. Remedy: report it with the server version; restart"
                        + " from the last checkpoint after a fix.");
    }
}

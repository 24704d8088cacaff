package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.schema.TableId;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.SQLException;
import java.time.Duration;

import static io.capstan.flink.mysql.snapshot.read.ChunkConnections.execute;

/**
 * Steps 1-3 of docs/snapshot.md: opens B's read view at an exact position under a brief table lock
 * on A.
 *
 * <ol>
 *   <li>A: {@code LOCK TABLES t READ}: no transaction is writing {@code t} any more; A's session
 *       wait_timeout is short until it unlocks, so that the server frees the table soon if this
 *       process vanishes while it holds the lock ({@link
 *       ChunkConnections#LOCK_HOLDER_WAIT_TIMEOUT});
 *   <li>B, in one round trip ({@link ReadViewStatements}): start the read view, read G (the view
 *       holds exactly the effects on {@code t} of the transactions in G), take B's metadata lock on
 *       {@code t} (held until COMMIT: no DDL can run until the chunk is read), read the definition;
 *   <li>A: {@code UNLOCK TABLES} (always), and its own wait_timeout back: writers of {@code t}
 *       waited two round trips.
 * </ol>
 *
 * <p>Repeated, within the lock wait budget ({@link LockWaitBudget}), when A cannot lock in time or
 * when B gives up waiting for its metadata lock because a DDL queued under A's lock (ADR 0004).
 */
final class BriefLock {

    private static final Logger LOG = LoggerFactory.getLogger(BriefLock.class);

    private final SnapshotReadOptions options;
    private final BriefLockListener listener;

    BriefLock(SnapshotReadOptions options, BriefLockListener listener) {
        this.options = options;
        this.listener = listener;
    }

    /**
     * Opens B's read view on {@code table}; B's transaction stays open (the caller reads and
     * commits).
     *
     * @throws io.capstan.flink.mysql.error.RetryBudgetExhaustedException when the budget is spent
     */
    ReadView openReadView(ChunkConnections sessions, TableId table)
            throws SQLException, IOException {
        LockWaitBudget waits = new LockWaitBudget(table, options);
        while (true) {
            listener.beforeLock(table);
            lockTable(sessions, table, waits);
            ReadView view = null;
            try {
                listener.whileLocked(table);
                view = ReadViewStatements.open(sessions.snapshot(), table);
            } catch (SQLException e) {
                if (!SqlErrors.isStatementTimeout(e) && !SqlErrors.isLockWaitTimeout(e)) {
                    throw e;
                }
                // A DDL queued for t between our LOCK TABLES and B's metadata lock: it waits for A,
                // and B waits behind it. Let go of both so that the DDL runs, then start over.
                execute(sessions.snapshot(), "ROLLBACK");
            } finally {
                unlock(sessions);
            }
            if (view == null) {
                LOG.info(
                        "A DDL queued on table {} while it was locked; opening the read view again",
                        table);
                pause(sessions, waits.failed(), table);
                continue;
            }
            listener.afterUnlock(table);
            return view;
        }
    }

    private static void lockTable(ChunkConnections sessions, TableId table, LockWaitBudget waits)
            throws SQLException, IOException {
        while (true) {
            try {
                execute(sessions.lock(), lockStatement(table));
                if (waits.failures() > 0) {
                    LOG.info(
                            "Locked table {} after {} lock wait timeouts", table, waits.failures());
                }
                return;
            } catch (SQLException e) {
                if (!SqlErrors.isLockWaitTimeout(e)) {
                    throw e;
                }
            }
            pause(sessions, waits.failed(), table);
        }
    }

    /** A's wait_timeout goes short first, in the same round trip. */
    static String lockStatement(TableId table) {
        return "SET SESSION wait_timeout = "
                + ChunkConnections.LOCK_HOLDER_WAIT_TIMEOUT.toSeconds()
                + "; LOCK TABLES "
                + table.quoted()
                + " READ";
    }

    /** A's own wait_timeout (saved when A opened) comes back in the same round trip. */
    static String unlockStatement() {
        return "UNLOCK TABLES; SET SESSION wait_timeout = " + ChunkConnections.SAVED_WAIT_TIMEOUT;
    }

    private static void unlock(ChunkConnections sessions) throws SQLException {
        try {
            execute(sessions.lock(), unlockStatement());
        } catch (SQLException e) {
            // Closing the session is the other way to release the lock; never leave it held.
            sessions.closeLock();
            throw e;
        }
    }

    /** Waits before the next attempt; a closing reader (abort) or an interrupt ends the wait. */
    private static void pause(ChunkConnections sessions, Duration delay, TableId table)
            throws InterruptedIOException {
        LOG.debug("Lock wait timeout on table {}, retrying in {} ms", table, delay.toMillis());
        try {
            if (sessions.awaitAbort(delay)) {
                throw new InterruptedIOException(
                        "the chunk reader was closed while waiting to lock " + table);
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to lock " + table);
        }
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;

/**
 * A {@code ROLLBACK} or {@code ROLLBACK TO [SAVEPOINT] sp} query event inside a transaction. The
 * server logs one when a transaction that changed a non-transactional table (or a temporary table
 * in statement format) rolls back, whole or to a savepoint: the row events before it may then be
 * changes that were undone. A rollback after no captured row passed has nothing to undo here (a
 * whole rollback ends the transaction like a commit: none of its rows was captured); after one, the
 * stream cannot tell which rows stayed, so it halts. Pure.
 */
final class TransactionRollback {

    private TransactionRollback() {}

    /** Whether {@code sql} (trimmed) is a {@code ROLLBACK} query, whole or to a savepoint. */
    static boolean isRollback(String sql) {
        return sql.regionMatches(true, 0, "ROLLBACK", 0, 8)
                && (sql.length() == 8
                        || Character.isWhitespace(sql.charAt(8))
                        || sql.charAt(8) == ';');
    }

    /** Whether {@code sql} rolls back the whole transaction (it ends), not to a savepoint. */
    static boolean endsTransaction(String sql) {
        String rest = sql.substring(8).trim();
        if (rest.regionMatches(true, 0, "WORK", 0, 4)) {
            rest = rest.substring(4).trim();
        }
        // ROLLBACK [WORK] TO [SAVEPOINT] sp keeps the transaction open; every other form ends it
        return !(rest.regionMatches(true, 0, "TO", 0, 2)
                && (rest.length() == 2 || !Character.isLetterOrDigit(rest.charAt(2))));
    }

    /**
     * @param capturedRows captured row changes the transaction passed (emitted, or held for its XA
     *     outcome) before the rollback
     * @throws CapstanHaltException {@code transaction_rolled_back} when any did
     */
    static void check(String sql, Gtid gtid, int capturedRows) {
        if (capturedRows == 0) {
            return;
        }
        throw new CapstanHaltException(
                HaltReason.TRANSACTION_ROLLED_BACK,
                "transaction "
                        + BinlogPositionAxis.readable(gtid)
                        + " passed "
                        + capturedRows
                        + " captured row change(s), then the binlog holds a "
                        + (endsTransaction(sql) ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT")
                        + " of it (logged when it also changed a non-transactional or temporary"
                        + " table): the rows undone on the server cannot be told from the rows"
                        + " that stayed. Remedy: write captured tables only in transactions"
                        + " without non-transactional tables; restart the job without state to"
                        + " snapshot the tables again.");
    }
}

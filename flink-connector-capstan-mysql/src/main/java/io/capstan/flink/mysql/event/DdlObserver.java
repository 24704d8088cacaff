package io.capstan.flink.mysql.event;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

/**
 * Sees every DDL statement the binlog stream passes: each QUERY event that is a transaction of its
 * own (not BEGIN, COMMIT, ROLLBACK, XA, nor a statement inside BEGIN ... COMMIT such as SAVEPOINT).
 * That is CREATE/ALTER/DROP/RENAME/TRUNCATE of any table in any database, and also other
 * self-committing statements (account management, CREATE PROCEDURE, ANALYZE TABLE, ...): the
 * observer decides what concerns it.
 *
 * <p>Called on the streamer's event thread, in stream order, before the statement's {@link
 * TransactionEnd} is queued: a halt thrown here keeps that GTID out of the processed set. A {@link
 * io.capstan.flink.mysql.error.CapstanHaltException} halts the streamer with its reason (the binlog
 * streamer's poll throws it); any other exception fails the streamer the same way. Must not block
 * for long: the binlog connection waits meanwhile.
 *
 * <p>The SQL text may carry literal values (DEFAULT clauses, CHECK constraints, password hashes of
 * account statements): never log it, nor put it in an exception message, which the streamer logs.
 */
@FunctionalInterface
@Internal
public interface DdlObserver {

    /**
     * @param database the session's default database when the statement ran ("" if none); the
     *     statement may name tables of other databases
     * @param sql the statement as the server logged it
     * @param gtid the statement's transaction
     */
    void onDdl(String database, String sql, Gtid gtid);

    /**
     * True when the snapshot of captured {@code table} already shows what transaction {@code gtid}
     * did to it (each of its chunks was read after {@code gtid}): the stream then lets a TRUNCATE,
     * DROP or RENAME of the table in {@code gtid} pass, since downstream never saw the rows it
     * removed. False by default: outside a snapshot every such statement is news.
     */
    default boolean snapshotHolds(TableId table, Gtid gtid) {
        return false;
    }

    /** Ignores every statement. */
    DdlObserver NONE = (database, sql, gtid) -> {};
}

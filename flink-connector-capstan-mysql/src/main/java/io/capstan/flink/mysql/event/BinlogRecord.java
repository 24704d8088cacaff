package io.capstan.flink.mysql.event;

import io.capstan.flink.mysql.gtid.Gtid;

import org.apache.flink.annotation.Internal;

/**
 * One element of the binlog stream: a captured row change, the end of a transaction, or a table
 * captured from here on ({@link TableCaptured}).
 *
 * <p>Every transaction the server sends, captured or not, ends with exactly one {@link
 * TransactionEnd}, so a consumer that folds records into its position (the reader's {@code
 * BinlogSplitState}) always advances its processed GTID set.
 */
@Internal
public sealed interface BinlogRecord permits RowChange, TransactionEnd, TableCaptured {

    /** The transaction this record belongs to. */
    Gtid gtid();

    /**
     * The transaction's original commit time on its source server, in microseconds since the epoch.
     */
    long commitTimestampMicros();
}

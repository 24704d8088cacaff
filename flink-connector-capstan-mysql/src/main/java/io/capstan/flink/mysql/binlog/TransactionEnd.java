package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.gtid.Gtid;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * The end of one transaction. Sent for every transaction the server streams, including those with
 * no captured rows and those dropped by the start timestamp, so the processed set always advances.
 *
 * <p>The end of an {@code XA COMMIT} or {@code XA ROLLBACK} also names the GTID of the XA
 * transaction's prepared part ({@link #preparedGtid()}): both join the processed set together, at
 * the outcome, after the committed rows (docs/adr/0008). The prepared part has no end of its own.
 *
 * @param preparedGtid the prepared part this XA outcome ends, or null
 */
@Internal
public record TransactionEnd(Gtid gtid, long commitTimestampMicros, @Nullable Gtid preparedGtid)
        implements BinlogRecord {

    public TransactionEnd {
        Objects.requireNonNull(gtid, "gtid");
    }

    /** The end of an ordinary transaction. */
    public TransactionEnd(Gtid gtid, long commitTimestampMicros) {
        this(gtid, commitTimestampMicros, null);
    }

    @Override
    public String toString() {
        return preparedGtid == null
                ? "TransactionEnd{gtid=" + gtid + "}"
                : "TransactionEnd{gtid=" + gtid + ", prepared=" + preparedGtid + "}";
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.gtid.Gtid;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * The end of one transaction. Sent for every transaction the server streams, including those with
 * no captured rows and those dropped by the start timestamp, so the processed set always advances.
 */
@Internal
public record TransactionEnd(Gtid gtid, long commitTimestampMicros) implements BinlogRecord {

    public TransactionEnd {
        Objects.requireNonNull(gtid, "gtid");
    }

    @Override
    public String toString() {
        return "TransactionEnd{gtid=" + gtid + "}";
    }
}

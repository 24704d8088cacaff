package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.gtid.Gtid;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * The end of one transaction. Sent for every transaction the server streams, including those with
 * no captured rows and those dropped by the start timestamp, so the processed set always advances.
 */
@Internal
public final class TransactionEnd implements BinlogRecord {

    private final Gtid gtid;
    private final long commitTimestampMicros;

    public TransactionEnd(Gtid gtid, long commitTimestampMicros) {
        this.gtid = Objects.requireNonNull(gtid, "gtid");
        this.commitTimestampMicros = commitTimestampMicros;
    }

    @Override
    public Gtid gtid() {
        return gtid;
    }

    @Override
    public long commitTimestampMicros() {
        return commitTimestampMicros;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransactionEnd
                && gtid.equals(((TransactionEnd) o).gtid)
                && commitTimestampMicros == ((TransactionEnd) o).commitTimestampMicros;
    }

    @Override
    public int hashCode() {
        return gtid.hashCode() * 31 + Long.hashCode(commitTimestampMicros);
    }

    @Override
    public String toString() {
        return "TransactionEnd{gtid=" + gtid + "}";
    }
}

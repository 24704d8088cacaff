package io.capstan.flink.mysql.gtid;

import java.io.Serializable;
import java.util.Objects;

/** TEMPORARY stand-in for branch gtid's Gtid (replaced on merge). */
public final class Gtid implements Serializable, Comparable<Gtid> {
    private static final long serialVersionUID = 1L;
    private final String uuid;
    private final long transactionId;

    private Gtid(String uuid, long transactionId) {
        this.uuid = uuid.toLowerCase();
        this.transactionId = transactionId;
    }

    public static Gtid of(String uuid, long transactionId) {
        return new Gtid(uuid, transactionId);
    }

    public static Gtid parse(String text) {
        int i = text.lastIndexOf(':');
        return new Gtid(text.substring(0, i), Long.parseLong(text.substring(i + 1)));
    }

    public String uuid() {
        return uuid;
    }

    public long transactionId() {
        return transactionId;
    }

    @Override
    public int compareTo(Gtid o) {
        int c = uuid.compareTo(o.uuid);
        return c != 0 ? c : Long.compare(transactionId, o.transactionId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gtid && ((Gtid) o).uuid.equals(uuid) && ((Gtid) o).transactionId == transactionId;
    }

    @Override
    public int hashCode() {
        return Objects.hash(uuid, transactionId);
    }

    @Override
    public String toString() {
        return uuid + ":" + transactionId;
    }
}

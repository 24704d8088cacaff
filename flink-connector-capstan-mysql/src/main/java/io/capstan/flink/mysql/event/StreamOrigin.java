package io.capstan.flink.mysql.event;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * How a binlog split's stream began, kept in its state so that a restore streams on as the job
 * started, whatever {@code scan.startup.mode} is configured now: whether a snapshot preceded it (an
 * XA transaction prepared before its start is then held in the snapshot's chunks, and a table
 * renamed into the list holds rows no snapshot read), and the {@code timestamp} start whose older
 * transactions it drops.
 *
 * <p>A split of a checkpoint written before this was kept has an {@link #UNKNOWN} origin, read the
 * safe way on each path: no transaction is dropped by time (older ones are emitted rather than
 * lost), a table renamed into the list halts, and the commit of an XA transaction prepared before
 * the start halts (neither can be told correct without the origin).
 *
 * @param known false for a split from a checkpoint that did not keep it
 * @param snapshotted whether the stream took over from a snapshot of its tables
 * @param startTimestampMillis the {@code timestamp} start: transactions committed before it are
 *     dropped (their GTIDs still join the processed set); null for every other start
 */
@Internal
public record StreamOrigin(boolean known, boolean snapshotted, @Nullable Long startTimestampMillis)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** A split from a checkpoint that did not keep its origin. */
    public static final StreamOrigin UNKNOWN = new StreamOrigin(false, false, null);

    /** A stream that took over from a snapshot of its tables. */
    public static final StreamOrigin AFTER_SNAPSHOT = new StreamOrigin(true, true, null);

    public StreamOrigin {
        if (!known && (snapshotted || startTimestampMillis != null)) {
            throw new IllegalArgumentException("an unknown origin has no parts");
        }
        if (snapshotted && startTimestampMillis != null) {
            throw new IllegalArgumentException("a snapshot's stream has no start timestamp");
        }
    }

    /**
     * A stream that started without a snapshot; {@code startTimestampMillis} for a {@code
     * timestamp} start, else null.
     */
    public static StreamOrigin streamOnly(@Nullable Long startTimestampMillis) {
        return new StreamOrigin(true, false, startTimestampMillis);
    }

    /** Transactions committed before this are dropped; null: none is. */
    @Nullable
    public Long dropsCommittedBeforeMillis() {
        return startTimestampMillis;
    }

    /** Whether an XA transaction prepared before the start is held in the snapshot's chunks. */
    public boolean snapshotHoldsPreparedBeforeStart() {
        return known && snapshotted;
    }

    /**
     * Whether a table renamed into the list halts: it holds rows no snapshot read (a stream-only
     * job captures it from its rename, as it would a created table).
     */
    public boolean tableRenamedInHalts() {
        return !known || snapshotted;
    }

    @Override
    public String toString() {
        if (!known) {
            return "unknown (a checkpoint of an older version)";
        }
        if (snapshotted) {
            return "after a snapshot";
        }
        return startTimestampMillis == null
                ? "stream-only"
                : "stream-only from timestamp " + startTimestampMillis;
    }
}

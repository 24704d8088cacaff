package io.capstan.flink.mysql.binlog;

import org.apache.flink.annotation.Internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one {@link BinlogStreamer}, written by its reader thread and readable from any
 * thread. Counts and timestamps only: no values, no keys (the no-values rule).
 */
@Internal
public final class BinlogStreamerMetrics {

    private final AtomicLong transactionsSeen = new AtomicLong();
    private final AtomicLong transactionsFilteredByTimestamp = new AtomicLong();
    private final AtomicLong rowChangesEmitted = new AtomicLong();
    private final AtomicLong rowChangesSkippedOnResume = new AtomicLong();
    private final AtomicLong uncapturedRowsEventsSkipped = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong schemaBuilds = new AtomicLong();
    private volatile long lastEventTimestampMillis;
    private volatile long lastCommitTimestampMicros;
    private volatile boolean connected;

    void transactionSeen() {
        transactionsSeen.incrementAndGet();
    }

    void transactionFilteredByTimestamp() {
        transactionsFilteredByTimestamp.incrementAndGet();
    }

    void rowChangeEmitted() {
        rowChangesEmitted.incrementAndGet();
    }

    void rowChangeSkippedOnResume() {
        rowChangesSkippedOnResume.incrementAndGet();
    }

    void uncapturedRowsEventSkipped() {
        uncapturedRowsEventsSkipped.incrementAndGet();
    }

    void reconnected() {
        reconnects.incrementAndGet();
    }

    void schemaBuilt() {
        schemaBuilds.incrementAndGet();
    }

    void eventSeen(long headerTimestampMillis) {
        if (headerTimestampMillis > 0) {
            lastEventTimestampMillis = headerTimestampMillis;
        }
    }

    void commitSeen(long commitTimestampMicros) {
        lastCommitTimestampMicros = commitTimestampMicros;
    }

    void connected(boolean up) {
        connected = up;
    }

    /** Transactions the server streamed (captured or not), counted at their end. */
    public long transactionsSeen() {
        return transactionsSeen.get();
    }

    /** Transactions dropped because they committed before the start timestamp. */
    public long transactionsFilteredByTimestamp() {
        return transactionsFilteredByTimestamp.get();
    }

    /** Row changes handed to the queue. */
    public long rowChangesEmitted() {
        return rowChangesEmitted.get();
    }

    /**
     * Row changes of a resumed transaction skipped because they were emitted before the restore.
     */
    public long rowChangesSkippedOnResume() {
        return rowChangesSkippedOnResume.get();
    }

    /**
     * Rows events of uncaptured tables whose row bytes were skipped without decoding. Counted per
     * event (a rows event holds one or more rows; counting rows would require decoding them).
     */
    public long uncapturedRowsEventsSkipped() {
        return uncapturedRowsEventsSkipped.get();
    }

    /** Successful reconnects after a transient fault. */
    public long reconnects() {
        return reconnects.get();
    }

    /** Table schemas (and their converters) built from table-map events. */
    public long schemaBuilds() {
        return schemaBuilds.get();
    }

    /**
     * Header timestamp of the last binlog event (heartbeats excluded), ms since the epoch; 0 if
     * none.
     */
    public long lastEventTimestampMillis() {
        return lastEventTimestampMillis;
    }

    /** Original commit time of the last transaction seen, µs since the epoch; 0 if none. */
    public long lastCommitTimestampMicros() {
        return lastCommitTimestampMicros;
    }

    public boolean isConnected() {
        return connected;
    }

    @Override
    public String toString() {
        return "BinlogStreamerMetrics{transactions="
                + transactionsSeen()
                + ", rowChanges="
                + rowChangesEmitted()
                + ", skippedOnResume="
                + rowChangesSkippedOnResume()
                + ", uncapturedRowsEventsSkipped="
                + uncapturedRowsEventsSkipped()
                + ", filteredByTimestamp="
                + transactionsFilteredByTimestamp()
                + ", reconnects="
                + reconnects()
                + ", connected="
                + connected
                + "}";
    }
}

package io.capstan.flink.mysql.source.reader;

/**
 * Asks the binlog fetcher to end the binlog split at the next transaction boundary (task thread
 * asks, fetcher thread obeys): its table list may change only there, because a partial
 * transaction's count of rows already emitted counts rows of the tables captured when it was taken.
 * The fetcher hands over records up to and including the first transaction end, then closes the
 * stream and reports the split finished; the reader restarts it from the state it reached.
 */
final class BinlogBoundaryStop {

    private volatile boolean requested;

    void request() {
        requested = true;
    }

    void clear() {
        requested = false;
    }

    boolean requested() {
        return requested;
    }
}

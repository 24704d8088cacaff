package io.capstan.flink.mysql.source.reader;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;

/**
 * The reader's metrics beyond those Flink's base classes keep. {@code numRecordsIn} comes from
 * {@code SourceReaderBase}; {@code currentEmitEventTimeLag} and {@code sourceIdleTime} from the
 * source operator, fed by the commit timestamp each record is emitted with. Counts only: no row
 * values ever reach a metric.
 */
public final class CapstanReaderMetrics {

    public static final String CURRENT_FETCH_EVENT_TIME_LAG = "currentFetchEventTimeLag";
    public static final String TRANSACTIONS_PROCESSED = "transactionsProcessed";
    public static final String ROWS_EMITTED = "rowsEmitted";
    public static final String ROWS_SKIPPED_ON_RESUME = "rowsSkippedOnResume";

    private final Counter transactionsProcessed;
    private final Counter rowsEmitted;
    private final Counter rowsSkippedOnResume;
    /** Written by the fetcher thread, read by the metric reporter. */
    private volatile long fetchEventTimeLagMillis = -1;

    public CapstanReaderMetrics(SourceReaderMetricGroup group) {
        this.transactionsProcessed = group.counter(TRANSACTIONS_PROCESSED);
        this.rowsEmitted = group.counter(ROWS_EMITTED);
        this.rowsSkippedOnResume = group.counter(ROWS_SKIPPED_ON_RESUME);
        group.gauge(CURRENT_FETCH_EVENT_TIME_LAG, () -> fetchEventTimeLagMillis);
    }

    void transactionProcessed() {
        transactionsProcessed.inc();
    }

    void rowEmitted() {
        rowsEmitted.inc();
    }

    void rowSkippedOnResume() {
        rowsSkippedOnResume.inc();
    }

    /** Fetch time minus commit time of the latest fetched change, in milliseconds. */
    void recordFetched(long commitTimestampMicros, long fetchTimeMillis) {
        fetchEventTimeLagMillis = fetchTimeMillis - commitTimestampMicros / 1000;
    }

    long rowsEmittedCount() {
        return rowsEmitted.getCount();
    }
}

package io.capstan.flink.mysql.source.enumerator;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Weighs an {@code initial} snapshot's estimated duration against the server's binlog retention:
 * publishes both as gauges and warns (at most when it gets materially worse, {@link
 * RetentionWarning}) when the snapshot may outlast the binlog its handoff needs. It never halts:
 * the estimate is rough, and the {@code gtid_purged} watch ({@link HandoffStartWatch}) halts on the
 * purge itself. Coordinator thread only; the server's figures arrive from the enumerator's async
 * calls.
 */
@Internal
final class SnapshotRetentionMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotRetentionMonitor.class);

    private final LongSupplier clockMillis;
    private final CapstanEnumeratorMetrics metrics;
    private final RetentionWarning warning = new RetentionWarning();

    @Nullable private SnapshotDurationEstimate estimate;
    @Nullable private BinlogRetention retention;
    private int tables;
    private boolean over;
    private long rowsPerSecondLimit;

    /**
     * @param clockMillis a monotonic clock in milliseconds
     */
    SnapshotRetentionMonitor(LongSupplier clockMillis, CapstanEnumeratorMetrics metrics) {
        this.clockMillis = clockMillis;
        this.metrics = metrics;
    }

    /** The snapshot's row rate limit ({@code scan.snapshot.max-rows-per-second}; 0: none). */
    void rowsPerSecondLimit(long rowsPerSecond) {
        this.rowsPerSecondLimit = rowsPerSecond;
    }

    /** The snapshot of {@code book} runs (from its start, or from a restore); once. */
    void snapshotRuns(SnapshotBook book) {
        if (estimate == null) {
            estimate =
                    new SnapshotDurationEstimate(
                            clockMillis, book.rowCount(), book.finishedCount());
            estimate.rateLimit(rowsPerSecondLimit);
            tables = book.tables().size();
        }
    }

    /**
     * The server's figures, from {@link SnapshotPlanning#retentionFacts}. A failed read leaves the
     * gauges as they were; the purge watch still halts on a purge.
     */
    void factsRead(@Nullable SnapshotPlanning.RetentionFacts facts, @Nullable Throwable error) {
        if (error != null) {
            LOG.warn(
                    "Could not read the tables' row estimates and the binlog retention: {}",
                    error.toString());
            return;
        }
        facts.retention().ifPresent(r -> retention = r);
        if (estimate != null) {
            facts.estimatedRows().ifPresent(estimate::estimatedRows);
        }
        publish();
    }

    /** After every change of the enumerator's state. */
    void refresh(EnumeratorPhase phase, @Nullable SnapshotBook book) {
        if (estimate == null) {
            return;
        }
        if (book != null) {
            estimate.progress(book.rowCount(), book.finishedCount());
        }
        // Past SNAPSHOTTING every chunk is read; a reopened chunk leads back to it.
        over = phase != EnumeratorPhase.SNAPSHOTTING && phase != EnumeratorPhase.RESOLVING_TABLES;
        publish();
    }

    private void publish() {
        if (estimate == null) {
            metrics.retention(-1, -1, retention == null ? -1 : retention.seconds());
            return;
        }
        OptionalLong remaining = over ? OptionalLong.of(0) : estimate.remainingSeconds();
        OptionalLong duration = estimate.durationSeconds();
        metrics.retention(
                remaining.orElse(-1),
                duration.orElse(-1),
                retention == null ? -1 : retention.seconds());
        if (over || retention == null || duration.isEmpty()) {
            return;
        }
        switch (warning.check(duration.getAsLong(), retention.seconds())) {
            case WARN:
                LOG.warn(
                        "The snapshot of {} table(s) is estimated to take {} s from its start ({} s"
                                + " remaining at {} rows/s), more than {}% of the binlog retention"
                                + " of {} s ({}): the server may purge the binlog the handoff"
                                + " starts from before the snapshot ends, and the job would halt"
                                + " with data_gap. Remedy: raise binlog_expire_logs_seconds well"
                                + " above the estimate, or raise the job's parallelism (a shorter"
                                + " snapshot). The estimate rests on the server's row estimates"
                                + " and the rate measured so far.",
                        tables,
                        duration.getAsLong(),
                        remaining.orElse(-1),
                        estimate.rowsPerSecond().orElse(-1),
                        Math.round(RetentionWarning.NEAR * 100),
                        retention.seconds(),
                        retention.setting());
                break;
            case FITS_AGAIN:
                if (retention.purgesAutomatically()) {
                    LOG.info(
                            "The snapshot's estimated duration of {} s fits the binlog retention"
                                    + " of {} s ({}) again",
                            duration.getAsLong(),
                            retention.seconds(),
                            retention.setting());
                } else {
                    LOG.info(
                            "The server no longer purges binlogs on its own ({}): the snapshot's"
                                    + " estimated duration of {} s fits",
                            retention.setting(),
                            duration.getAsLong());
                }
                break;
            default:
                break;
        }
    }
}

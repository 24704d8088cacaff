package io.capstan.flink.mysql.source.enumerator;

import org.apache.flink.annotation.Internal;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * How long the snapshot will take: the tables' row estimate minus the rows read so far, over the
 * rate measured since the first completion this enumerator saw. Pure (a clock is passed in); fed on
 * the coordinator thread.
 *
 * <p>The rate is known once {@link #MIN_MEASURED} has passed and {@link #MIN_CHUNKS} chunks have
 * finished since that first completion. The first completion is the baseline, not the start: it
 * leaves out the readers' start-up (connections, the first lock) and a restore's replay. Half a
 * minute averages over many chunks at any real size and dilutes the burst in which the first rows
 * fill Flink's network buffers faster than a slow sink drains them. The rate is the average over
 * the whole measurement, not a window: a snapshot runs for hours and the cumulative average is the
 * steady one.
 *
 * <p>With a row rate limit ({@link #rateLimit}) the end is known from the start: the remaining rows
 * at the limit, until a rate is measured (which the limit then caps).
 *
 * <p>The row estimate is the server's ({@code information_schema.TABLES.TABLE_ROWS}, InnoDB's
 * sample): it can be off by tens of percent, so the estimate is a warning's ground, never a halt's.
 * Once more rows were read than estimated, the remaining rows count as 0. After a restore the
 * duration counts from the restore, not from the snapshot's first start, which is not in the
 * checkpoint: it errs short.
 */
@Internal
public final class SnapshotDurationEstimate {

    /** The least time measured before a rate is trusted. */
    public static final Duration MIN_MEASURED = Duration.ofSeconds(30);

    /** The least chunks finished in the measurement before a rate is trusted. */
    public static final int MIN_CHUNKS = 4;

    private final LongSupplier clockMillis;
    private final long startedAt;

    private long estimatedRows = -1;
    private double limitPerMilli; // scan.snapshot.max-rows-per-second; 0: none
    private long baselineAt = -1;
    private long baselineRows;
    private int baselineChunks;
    private long lastAt;
    private long rowsRead;
    private int chunksFinished;

    /**
     * @param clockMillis a monotonic clock in milliseconds
     * @param rowsRead rows of the chunks already finished (a restore's), counted as read
     * @param chunksFinished the chunks already finished
     */
    public SnapshotDurationEstimate(LongSupplier clockMillis, long rowsRead, int chunksFinished) {
        this.clockMillis = clockMillis;
        this.startedAt = clockMillis.getAsLong();
        this.rowsRead = rowsRead;
        this.chunksFinished = chunksFinished;
    }

    /**
     * The snapshot's row rate limit (0: none): the snapshot never reads faster, so it bounds the
     * measured rate, and before a rate is measured the end is estimated at it (the earliest the
     * snapshot can end, which is what a retention warning needs).
     */
    public void rateLimit(long rowsPerSecond) {
        this.limitPerMilli = Math.max(0, rowsPerSecond) / 1000.0;
    }

    /** The server's estimate of the rows of every table the snapshot reads. */
    public void estimatedRows(long rows) {
        this.estimatedRows = Math.max(0, rows);
    }

    /**
     * The rows of every chunk finished so far and their count, now; unchanged figures are ignored
     * (the time of the last completion is what the rate is measured to). The first change is the
     * baseline; a drop (chunks reopened by a restore of a reader) starts the measurement again.
     */
    public void progress(long rowsRead, int chunksFinished) {
        if (rowsRead == this.rowsRead && chunksFinished == this.chunksFinished) {
            return;
        }
        long now = clockMillis.getAsLong();
        if (baselineAt < 0 || rowsRead < this.rowsRead || chunksFinished < this.chunksFinished) {
            baselineAt = now;
            baselineRows = rowsRead;
            baselineChunks = chunksFinished;
        }
        this.lastAt = now;
        this.rowsRead = rowsRead;
        this.chunksFinished = chunksFinished;
    }

    /** Rows per second measured so far; empty until enough is measured. */
    public OptionalLong rowsPerSecond() {
        double rate = rate();
        return rate > 0
                ? OptionalLong.of(Math.round(Math.max(1, rate * 1000)))
                : OptionalLong.empty();
    }

    /** Seconds from now to the estimated end; empty while unknown. */
    public OptionalLong remainingSeconds() {
        long end = estimatedEnd();
        return end < 0
                ? OptionalLong.empty()
                : OptionalLong.of(toSeconds(Math.max(0, end - clockMillis.getAsLong())));
    }

    /**
     * Seconds from the snapshot's start (this enumerator's) to the estimated end; empty while
     * unknown.
     */
    public OptionalLong durationSeconds() {
        long end = estimatedEnd();
        return end < 0
                ? OptionalLong.empty()
                : OptionalLong.of(toSeconds(Math.max(end, clockMillis.getAsLong()) - startedAt));
    }

    /** Milliseconds on the clock at the estimated end, or -1. */
    private long estimatedEnd() {
        double rate = rate();
        if (estimatedRows < 0 || (rate <= 0 && limitPerMilli <= 0)) {
            return -1;
        }
        long remainingRows = Math.max(0, estimatedRows - rowsRead);
        if (rate <= 0) {
            return clockMillis.getAsLong() + (long) Math.ceil(remainingRows / limitPerMilli);
        }
        if (limitPerMilli > 0) {
            rate = Math.min(rate, limitPerMilli);
        }
        return lastAt + (long) Math.ceil(remainingRows / rate);
    }

    /** Rows per millisecond, or 0 while unknown. */
    private double rate() {
        if (baselineAt < 0) {
            return 0;
        }
        long measured = lastAt - baselineAt;
        long rows = rowsRead - baselineRows;
        if (measured < MIN_MEASURED.toMillis()
                || chunksFinished - baselineChunks < MIN_CHUNKS
                || rows <= 0) {
            return 0;
        }
        return (double) rows / measured;
    }

    private static long toSeconds(long millis) {
        return (millis + 999) / 1000;
    }
}

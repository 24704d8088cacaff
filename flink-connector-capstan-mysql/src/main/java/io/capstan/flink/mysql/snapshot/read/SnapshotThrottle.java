package io.capstan.flink.mysql.snapshot.read;

import org.apache.flink.annotation.Internal;

import java.util.function.LongSupplier;

/**
 * The snapshot's row rate limit of one reader (its share of {@code
 * scan.snapshot.max-rows-per-second}): a token bucket that pays after the fact. A chunk is read
 * whole, then its rows are charged; the next chunk may start once the charged rows are paid for at
 * the rate, so over any stretch of many chunks the reader reads at most the rate (plus one chunk).
 * A chunk is never cut: the server reads it at full speed and the reader then waits, so a smaller
 * {@code scan.incremental.snapshot.chunk.size} smooths the load. Pure (a nanosecond clock is passed
 * in); one reader's fetcher thread uses it.
 */
@Internal
public final class SnapshotThrottle {

    /** Never waits. */
    public static final SnapshotThrottle UNLIMITED = new SnapshotThrottle(0, System::nanoTime);

    private final double nanosPerRow;
    private final LongSupplier nanoClock;

    /** When the rows charged so far are paid for; no earlier chunk may start. */
    private long paidAt;

    private boolean started;

    /** When the chunk being read was let through ({@link #waitNanos} said 0). */
    private long readStart;

    /**
     * @param rowsPerSecond this reader's rate, or 0 for no limit
     * @param nanoClock a monotonic clock in nanoseconds
     */
    public SnapshotThrottle(double rowsPerSecond, LongSupplier nanoClock) {
        if (rowsPerSecond < 0 || Double.isNaN(rowsPerSecond) || Double.isInfinite(rowsPerSecond)) {
            throw new IllegalArgumentException("a rate is 0 (no limit) or positive");
        }
        this.nanosPerRow = rowsPerSecond == 0 ? 0 : 1e9 / rowsPerSecond;
        this.nanoClock = nanoClock;
    }

    /**
     * One reader's share of a job's limit: {@code rowsPerSecond / readers}, or no limit when {@code
     * rowsPerSecond} is 0.
     */
    public static SnapshotThrottle share(long rowsPerSecond, int readers, LongSupplier nanoClock) {
        if (rowsPerSecond == 0) {
            return new SnapshotThrottle(0, nanoClock);
        }
        return new SnapshotThrottle((double) rowsPerSecond / Math.max(1, readers), nanoClock);
    }

    public boolean isLimited() {
        return nanosPerRow > 0;
    }

    /**
     * Nanoseconds until the next chunk may be read; 0 when it may be read now (ask right before
     * reading: the read's own time counts towards what its rows pay).
     */
    public long waitNanos() {
        if (!isLimited()) {
            return 0;
        }
        long now = nanoClock.getAsLong();
        long wait = started ? Math.max(0, paidAt - now) : 0;
        if (wait == 0) {
            readStart = now;
        }
        return wait;
    }

    /** Charges the rows of a chunk just read. */
    public void charge(long rows) {
        if (!isLimited()) {
            return;
        }
        // From when the read began (its time is part of what the rows pay for); idle time before it
        // is not saved up, so a reader that waited for a chunk does not burst after it.
        long from = started ? Math.max(paidAt, readStart) : readStart;
        started = true;
        paidAt = from + (long) Math.ceil(rows * nanosPerRow);
    }
}

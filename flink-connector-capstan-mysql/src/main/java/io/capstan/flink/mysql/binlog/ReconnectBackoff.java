package io.capstan.flink.mysql.binlog;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Capped exponential backoff with jitter and a budget, for reconnecting the binlog stream.
 *
 * <p>Attempt {@code n} (0-based) waits a random time in {@code [d/2, d]} with {@code d = min(max,
 * initial * 2^n)} ("equal jitter": never less than half the nominal delay, so a flapping server is
 * not hammered, and replicas restarting together spread out). The budget is spent when {@code
 * maxAttempts} attempts failed in a row or {@code maxDuration} passed since the connection was
 * lost. {@link #reset()} after a successful connection. Pure: time and randomness are passed in.
 */
final class ReconnectBackoff {

    private final long initialMillis;
    private final long maxMillis;
    private final int maxAttempts;
    private final long maxDurationMillis;
    private final DoubleSupplier random;

    private int attempts;
    private long lostAtMillis = -1;

    ReconnectBackoff(
            Duration initial,
            Duration max,
            int maxAttempts,
            Duration maxDuration,
            DoubleSupplier random) {
        this.initialMillis = initial.toMillis();
        this.maxMillis = max.toMillis();
        this.maxAttempts = maxAttempts;
        this.maxDurationMillis = maxDuration.toMillis();
        this.random = random;
    }

    /**
     * The delay before the next attempt, or -1 when the budget is spent.
     *
     * @param nowMillis the current time; the first call after a reset marks when the connection was
     *     lost
     */
    long nextDelayMillis(long nowMillis) {
        if (lostAtMillis < 0) {
            lostAtMillis = nowMillis;
        }
        if (attempts >= maxAttempts) {
            return -1;
        }
        long nominal = nominalDelayMillis(attempts);
        long delay = nominal / 2 + (long) (random.getAsDouble() * (nominal - nominal / 2));
        if (nowMillis + delay - lostAtMillis > maxDurationMillis) {
            // One last attempt right at the end of the budget, if there is time left at all.
            long left = lostAtMillis + maxDurationMillis - nowMillis;
            if (left <= 0) {
                return -1;
            }
            delay = left;
        }
        attempts++;
        return delay;
    }

    /** The un-jittered delay of attempt {@code n}: {@code min(max, initial * 2^n)}. */
    long nominalDelayMillis(int n) {
        if (n >= 62 || initialMillis << n >>> n != initialMillis) {
            return maxMillis;
        }
        return Math.min(maxMillis, initialMillis << n);
    }

    /** Attempts made since the connection was lost. */
    int attempts() {
        return attempts;
    }

    /** The connection is up again: the next loss starts a fresh budget. */
    void reset() {
        attempts = 0;
        lostAtMillis = -1;
    }
}

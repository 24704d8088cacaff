package io.capstan.flink.mysql.snapshot.read;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * When to try LOCK TABLES again after a lock wait timeout: exponential backoff from {@link
 * #INITIAL_DELAY} doubling to {@link #MAX_DELAY}, with jitter (half fixed, half random) so that
 * several readers do not retry in step, until the budget is spent. Pure: time and randomness are
 * passed in.
 */
final class LockRetryPolicy {
    static final Duration INITIAL_DELAY = Duration.ofMillis(100);
    static final Duration MAX_DELAY = Duration.ofSeconds(5);

    private final long budgetNanos;
    private final DoubleSupplier random;

    LockRetryPolicy(Duration budget, DoubleSupplier random) {
        this.budgetNanos = budget.toNanos();
        this.random = random;
    }

    /**
     * The pause before attempt {@code failedAttempts + 1}, or null when the budget is spent: {@code
     * elapsed} is the time since the first attempt began, {@code attemptCost} how long one attempt
     * may wait (lock_wait_timeout), so an attempt is started only if it can finish within the
     * budget.
     */
    Duration nextDelay(int failedAttempts, Duration elapsed, Duration attemptCost) {
        long cap =
                Math.min(
                        MAX_DELAY.toNanos(),
                        INITIAL_DELAY.toNanos() << Math.min(20, Math.max(0, failedAttempts - 1)));
        long delay = cap / 2 + (long) (random.getAsDouble() * (cap / 2));
        long after = elapsed.toNanos() + delay + attemptCost.toNanos();
        if (after > budgetNanos) {
            // A last, shorter pause is still worth it if one more attempt fits.
            long room = budgetNanos - elapsed.toNanos() - attemptCost.toNanos();
            if (room < 0) {
                return null;
            }
            delay = room;
        }
        return Duration.ofNanos(delay);
    }
}

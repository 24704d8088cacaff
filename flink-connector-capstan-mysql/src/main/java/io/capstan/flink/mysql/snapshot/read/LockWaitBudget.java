package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import io.capstan.flink.mysql.schema.TableId;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * One chunk's attempts to lock its table and open the read view: each failed one (a lock wait
 * timeout, or a DDL that queued under the lock) counts against {@code
 * scan.snapshot.lock-wait.budget}, and is followed by a backoff pause ({@link LockRetryPolicy}) or,
 * when the budget has no room for another attempt, by the {@code lock_wait_budget_exhausted} halt.
 * Decides only; the caller pauses. Time and randomness are passed in.
 */
final class LockWaitBudget {

    private final TableId table;
    private final Duration budget;
    private final Duration attemptCost;
    private final LockRetryPolicy policy;
    private final LongSupplier nanoClock;
    private final long start;
    private int failures;

    /** Starts the budget now, with the options' budget and lock_wait_timeout. */
    LockWaitBudget(TableId table, SnapshotReadOptions options) {
        this(
                table,
                options.lockWaitBudget(),
                options.lockWaitTimeout(),
                () -> ThreadLocalRandom.current().nextDouble(),
                System::nanoTime);
    }

    /**
     * @param attemptCost how long one attempt may wait (lock_wait_timeout): an attempt is only
     *     started if it can finish within the budget
     */
    LockWaitBudget(
            TableId table,
            Duration budget,
            Duration attemptCost,
            DoubleSupplier random,
            LongSupplier nanoClock) {
        this.table = table;
        this.budget = budget;
        this.attemptCost = attemptCost;
        this.policy = new LockRetryPolicy(budget, random);
        this.nanoClock = nanoClock;
        this.start = nanoClock.getAsLong();
    }

    /**
     * Counts a failed attempt and returns the pause before the next one.
     *
     * @throws RetryBudgetExhaustedException {@code lock_wait_budget_exhausted} when no further
     *     attempt fits in the budget
     */
    Duration failed() {
        failures++;
        Duration elapsed = Duration.ofNanos(nanoClock.getAsLong() - start);
        Duration delay = policy.nextDelay(failures, elapsed, attemptCost);
        if (delay == null) {
            throw new RetryBudgetExhaustedException(
                    HaltReason.LOCK_WAIT_BUDGET_EXHAUSTED,
                    "could not lock table "
                            + table
                            + " for reading within"
                            + " scan.snapshot.lock-wait.budget ("
                            + budget.toSeconds()
                            + " s, "
                            + failures
                            + " attempts): another session holds a conflicting lock (a long transaction, a"
                            + " LOCK TABLES ... WRITE or a DDL); let it finish, or raise"
                            + " scan.snapshot.lock-wait.budget; Flink's restart strategy (if any) restarts"
                            + " from the last checkpoint and tries again");
        }
        return delay;
    }

    /** Failed attempts so far. */
    int failures() {
        return failures;
    }
}

package io.capstan.flink.mysql.error;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A halt after the connector's own retries ran out ({@code lock_wait_budget_exhausted}, {@code
 * reconnect_budget_exhausted}): the cause (a long transaction holding the table, a server that is
 * down) may pass, so unlike other halts Flink's restart strategy may restart the job from its last
 * checkpoint, which tries again. Bound the retries with the restart strategy.
 */
@ThrowableAnnotation(ThrowableType.RecoverableError)
@PublicEvolving
public final class RetryBudgetExhaustedException extends CapstanHaltException {
    private static final long serialVersionUID = 1L;

    public RetryBudgetExhaustedException(HaltReason reason, String message) {
        super(reason, message);
    }
}

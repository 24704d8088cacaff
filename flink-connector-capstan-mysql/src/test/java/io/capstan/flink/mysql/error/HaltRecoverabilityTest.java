package io.capstan.flink.mysql.error;

import org.apache.flink.runtime.throwable.ThrowableClassifier;
import org.apache.flink.runtime.throwable.ThrowableType;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Flink's failure handler (its own classifier, which walks the cause chain as the scheduler
 * does) makes of halts: not restarted, except after a retry budget ran out.
 */
class HaltRecoverabilityTest {

    @Test
    void aHaltIsNotRecoverableEvenWhenWrapped() {
        CapstanHaltException halt = new CapstanHaltException(HaltReason.DATA_GAP, "purged");
        RuntimeException wrapped =
                new RuntimeException(
                        "SplitFetcher thread 0 received unexpected exception",
                        new RuntimeException(halt));
        assertThat(
                        ThrowableClassifier.findThrowableOfThrowableType(
                                wrapped, ThrowableType.NonRecoverableError))
                .containsSame(halt);
    }

    @Test
    void anExhaustedRetryBudgetMayBeRestarted() {
        for (HaltReason reason :
                new HaltReason[] {
                    HaltReason.LOCK_WAIT_BUDGET_EXHAUSTED, HaltReason.RECONNECT_BUDGET_EXHAUSTED
                }) {
            CapstanHaltException halt = new RetryBudgetExhaustedException(reason, "gave up");
            assertThat(ThrowableClassifier.getThrowableType(halt))
                    .isEqualTo(ThrowableType.RecoverableError);
            assertThat(
                            ThrowableClassifier.findThrowableOfThrowableType(
                                    new RuntimeException(halt), ThrowableType.NonRecoverableError))
                    .isEmpty();
        }
    }
}

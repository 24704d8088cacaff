package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LockWaitBudgetTest {

    private static final TableId T = TableId.of("shop", "orders");

    @Test
    void eachFailureBacksOffUntilNoFurtherAttemptFitsInTheBudgetSinceTheFirst() {
        AtomicLong clock = new AtomicLong(Duration.ofHours(5).toNanos()); // any origin
        LockWaitBudget budget =
                new LockWaitBudget(
                        T, Duration.ofSeconds(10), Duration.ofSeconds(1), () -> 1.0, clock::get);
        assertThat(budget.failed()).isEqualTo(Duration.ofMillis(100));
        assertThat(budget.failed()).isEqualTo(Duration.ofMillis(200));
        assertThat(budget.failures()).isEqualTo(2);
        clock.addAndGet(Duration.ofMillis(8_700).toNanos());
        // 8.7 s spent, an attempt costs 1 s: a last pause of 0.3 s instead of 0.4 s
        assertThat(budget.failed()).isEqualTo(Duration.ofMillis(300));
        clock.addAndGet(Duration.ofMillis(600).toNanos());
        assertThatThrownBy(budget::failed)
                .isInstanceOfSatisfying(
                        RetryBudgetExhaustedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HaltReason.LOCK_WAIT_BUDGET_EXHAUSTED))
                .hasMessageContaining("shop.orders")
                .hasMessageContaining("scan.snapshot.lock-wait.budget (10 s, 4 attempts)");
    }
}

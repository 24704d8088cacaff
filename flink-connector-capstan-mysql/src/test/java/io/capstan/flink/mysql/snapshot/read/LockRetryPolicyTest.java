package io.capstan.flink.mysql.snapshot.read;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class LockRetryPolicyTest {

    @Test
    void backsOffExponentiallyUpToTheCap() {
        LockRetryPolicy p = new LockRetryPolicy(Duration.ofHours(1), () -> 1.0);
        Duration oneSecond = Duration.ofSeconds(1);
        assertThat(p.nextDelay(1, Duration.ZERO, oneSecond)).isEqualTo(Duration.ofMillis(100));
        assertThat(p.nextDelay(2, Duration.ZERO, oneSecond)).isEqualTo(Duration.ofMillis(200));
        assertThat(p.nextDelay(3, Duration.ZERO, oneSecond)).isEqualTo(Duration.ofMillis(400));
        assertThat(p.nextDelay(30, Duration.ZERO, oneSecond)).isEqualTo(Duration.ofSeconds(5));
    }

    @Property(tries = 300)
    void jitterStaysWithinTheUpperHalf(
            @ForAll @IntRange(min = 1, max = 40) int failures,
            @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random) {
        LockRetryPolicy p = new LockRetryPolicy(Duration.ofHours(1), () -> random);
        long cap = Math.min(5000, 100L << Math.min(20, failures - 1));
        long d = p.nextDelay(failures, Duration.ZERO, Duration.ofSeconds(1)).toMillis();
        assertThat(d).isBetween(cap / 2 - 1, cap);
    }

    @Test
    void stopsWhenAnotherAttemptCannotFinishWithinTheBudget() {
        LockRetryPolicy p = new LockRetryPolicy(Duration.ofSeconds(10), () -> 0.5);
        Duration timeout = Duration.ofSeconds(1);
        assertThat(p.nextDelay(5, Duration.ofSeconds(8), timeout)).isNotNull();
        // a shortened last pause still lets one more attempt fit
        assertThat(p.nextDelay(20, Duration.ofSeconds(8), timeout))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(p.nextDelay(5, Duration.ofMillis(9_001), timeout)).isNull();
    }

    @Test
    void optionsValidateAndPrintNoSecret() {
        SnapshotReadOptions o = SnapshotReadOptions.defaults();
        assertThat(o.lockWaitTimeoutSeconds()).isEqualTo(1);
        assertThat(
                        new SnapshotReadOptions(0, Duration.ofMillis(1500), Duration.ofSeconds(5))
                                .lockWaitTimeoutSeconds())
                .isEqualTo(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                new SnapshotReadOptions(
                                        0, Duration.ofMillis(500), Duration.ofSeconds(5)))
                .hasMessageContaining("scan.snapshot.lock-wait.timeout");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                new SnapshotReadOptions(
                                        -1, Duration.ofSeconds(1), Duration.ofSeconds(5)))
                .hasMessageContaining("scan.snapshot.fetch.size");
    }
}

package io.capstan.flink.mysql.snapshot.read;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private void advanceMillis(long ms) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void unlimitedNeverWaits() {
        SnapshotThrottle t = SnapshotThrottle.share(0, 4, now::get);
        t.charge(1_000_000);
        assertThat(t.isLimited()).isFalse();
        assertThat(t.waitNanos()).isZero();
    }

    @Test
    void theFirstChunkStartsAtOnceAndTheNextWhenItsRowsArePaidFor() {
        SnapshotThrottle t = new SnapshotThrottle(1_000, now::get); // 1 ms per row
        assertThat(t.waitNanos()).isZero();
        t.charge(500);
        assertThat(t.waitNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
        advanceMillis(100); // asking does not move anything

        assertThat(t.waitNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
        advanceMillis(100);
        assertThat(t.waitNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        advanceMillis(300);
        assertThat(t.waitNanos()).isZero();
    }

    @Test
    void overManyChunksTheRateIsTheLimitWhateverTheReadTime() {
        SnapshotThrottle t = new SnapshotThrottle(2_000, now::get);
        long start = now.get();
        // the read time (0..2 ms) is within what the rows pay for: the rate is the limit
        long rows = 0;
        for (int chunk = 0; chunk < 200; chunk++) {
            now.addAndGet(t.waitNanos()); // wait as told
            assertThat(t.waitNanos()).isZero();
            advanceMillis(chunk % 3); // the read itself takes 0..2 ms
            t.charge(100);
            rows += 100;
        }
        now.addAndGet(t.waitNanos());
        double seconds = (now.get() - start) / 1e9;
        assertThat(rows / seconds).isBetween(1_999.0, 2_000.0001);
    }

    @Test
    void idleTimeIsNotSavedUpForABurst() {
        SnapshotThrottle t = new SnapshotThrottle(1_000, now::get);
        t.waitNanos();
        t.charge(100);
        advanceMillis(10_000); // no chunk for 10 s
        assertThat(t.waitNanos()).isZero();
        t.charge(100);
        assertThat(t.waitNanos())
                .as("the second chunk still pays for its own rows")
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void aJobsLimitIsSharedEquallyBetweenItsReaders() {
        SnapshotThrottle t = SnapshotThrottle.share(3_000, 3, now::get);
        t.waitNanos();
        t.charge(1_000);
        assertThat(t.waitNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void aNegativeRateIsRefused() {
        assertThatThrownBy(() -> new SnapshotThrottle(-1, now::get))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

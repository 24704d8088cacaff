package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

@Tag(FlinkLines.NEUTRAL)
class SilenceWatchdogTest {

    @Test
    void silenceIsThreeHeartbeatsAndFiveSecondsWithoutActivity() {
        AtomicLong now = new AtomicLong(1_000);
        SilenceWatchdog w = new SilenceWatchdog(Duration.ofSeconds(10), now::get);
        assertThat(w.silenceMillis()).isEqualTo(35_000);
        now.addAndGet(Duration.ofSeconds(35).toNanos());
        assertThat(w.silent()).isFalse();
        now.incrementAndGet();
        assertThat(w.silent()).isTrue();
        w.activity();
        assertThat(w.silent()).isFalse();
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        assertThat(w.silent()).isFalse();
    }

    @Test
    void itsThreadReportsSilenceWhileRunningAndStops() throws Exception {
        AtomicLong now = new AtomicLong();
        SilenceWatchdog w = new SilenceWatchdog(Duration.ofMillis(100), now::get); // checks 1/s
        AtomicInteger reports = new AtomicInteger();
        CountDownLatch reported = new CountDownLatch(1);
        String name = "watchdog-test-stops";
        w.start(
                name,
                () -> true, // still running: only stop() may end the thread
                () -> {
                    reports.incrementAndGet();
                    reported.countDown();
                });
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertThat(reported.await(5, TimeUnit.SECONDS)).isTrue();

        w.stop();
        int reportsAtStop = reports.get();
        now.addAndGet(Duration.ofSeconds(60).toNanos()); // far past the silence limit
        Thread.sleep(2_500); // more than two check intervals
        assertThat(reports.get()).isEqualTo(reportsAtStop);
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void activityKeepsItQuiet() throws Exception {
        AtomicLong now = new AtomicLong();
        SilenceWatchdog w = new SilenceWatchdog(Duration.ofMillis(100), now::get);
        CountDownLatch reported = new CountDownLatch(1);
        w.start("watchdog-test", () -> true, reported::countDown);
        for (int i = 0; i < 15; i++) { // 1.5 s: at least one check
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            w.activity();
            Thread.sleep(100);
        }
        assertThat(reported.getCount()).isEqualTo(1);
        w.stop();
    }
}

package io.capstan.flink.mysql.source.enumerator;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The snapshot's remaining and total duration from the row estimate and the measured rate. */
class SnapshotDurationEstimateTest {

    private final AtomicLong now = new AtomicLong(1_000_000);

    private void advance(long seconds) {
        now.addAndGet(seconds * 1000);
    }

    @Test
    void unknownUntilThirtySecondsAndFourChunksAreMeasuredFromTheFirstCompletion() {
        SnapshotDurationEstimate e = new SnapshotDurationEstimate(now::get, 0, 0);
        e.estimatedRows(100_000);
        advance(20); // the readers' start-up: not measured
        e.progress(1_000, 1); // the baseline
        advance(10);
        e.progress(2_000, 2);
        advance(10);
        e.progress(3_000, 3);
        advance(10);
        e.progress(4_000, 4);
        assertThat(e.remainingSeconds()).as("three chunks in 30 s").isEmpty();
        advance(5);
        e.progress(4_500, 5);
        // 3,500 rows in 35 s since the baseline: 100 rows/s, 95,500 rows to go
        assertThat(e.rowsPerSecond()).hasValue(100);
        assertThat(e.remainingSeconds()).hasValue(955);
        assertThat(e.durationSeconds()).hasValue(55 + 955);
    }

    @Test
    void aRowRateLimitGivesTheEndFromTheStartAndCapsTheMeasuredRate() {
        SnapshotDurationEstimate e = new SnapshotDurationEstimate(now::get, 0, 0);
        e.rateLimit(50);
        e.estimatedRows(100_000);
        assertThat(e.rowsPerSecond()).as("nothing measured").isEmpty();
        assertThat(e.remainingSeconds()).as("100,000 rows at 50 rows/s").hasValue(2_000);
        e.progress(1_000, 1);
        for (int i = 2; i <= 6; i++) {
            advance(10);
            e.progress(1_000L * i, i); // measured: 100 rows/s, twice the limit
        }
        assertThat(e.rowsPerSecond()).hasValue(100);
        assertThat(e.remainingSeconds()).as("94,000 rows at the limit").hasValue(1_880);
    }

    @Test
    void tooShortAMeasurementIsUnknownHoweverManyChunks() {
        SnapshotDurationEstimate e = new SnapshotDurationEstimate(now::get, 0, 0);
        e.estimatedRows(100_000);
        e.progress(10, 1);
        for (int i = 2; i <= 50; i++) {
            now.addAndGet(500);
            e.progress(10L * i, i);
        }
        assertThat(e.remainingSeconds()).isEmpty();
        assertThat(e.durationSeconds()).isEmpty();
    }

    @Test
    void withoutTheRowEstimateTheDurationIsUnknown() {
        SnapshotDurationEstimate e = measured(new SnapshotDurationEstimate(now::get, 0, 0));
        assertThat(e.rowsPerSecond()).isPresent();
        assertThat(e.remainingSeconds()).isEmpty();
        e.estimatedRows(20_000);
        assertThat(e.remainingSeconds()).isPresent();
    }

    @Test
    void theRemainingTimeRunsDownBetweenCompletionsAndStopsAtZero() {
        SnapshotDurationEstimate e = measured(new SnapshotDurationEstimate(now::get, 0, 0));
        e.estimatedRows(10_000 + 6_000); // 6,000 rows after the measured ones, at 100 rows/s
        assertThat(e.remainingSeconds()).hasValue(60);
        long duration = e.durationSeconds().getAsLong();
        advance(20);
        e.progress(10_000, 10); // unchanged figures: the rate still counts to the last completion
        assertThat(e.remainingSeconds()).hasValue(40);
        assertThat(e.durationSeconds()).hasValue(duration);
        advance(100); // slower than estimated: the end moves with the clock
        assertThat(e.remainingSeconds()).hasValue(0);
        assertThat(e.durationSeconds()).hasValue(duration + 60);
    }

    @Test
    void moreRowsReadThanEstimatedLeavesNothingRemaining() {
        SnapshotDurationEstimate e = measured(new SnapshotDurationEstimate(now::get, 0, 0));
        e.estimatedRows(5_000);
        assertThat(e.remainingSeconds()).hasValue(0);
    }

    @Test
    void aRestoreCountsItsFinishedRowsAsReadButNotInTheRate() {
        SnapshotDurationEstimate e = new SnapshotDurationEstimate(now::get, 50_000, 500);
        e.estimatedRows(100_000);
        e.progress(50_000, 500); // unchanged: no baseline yet
        advance(60);
        e.progress(51_000, 501); // the baseline: the first completion after the restore
        for (int i = 1; i <= 4; i++) {
            advance(10);
            e.progress(51_000 + 1_000L * i, 501 + i);
        }
        // 4,000 rows in 40 s: 100 rows/s, 45,000 to go
        assertThat(e.remainingSeconds()).hasValue(450);
        assertThat(e.durationSeconds()).hasValue(100 + 450);
    }

    @Test
    void reopenedChunksStartTheMeasurementAgain() {
        SnapshotDurationEstimate e = measured(new SnapshotDurationEstimate(now::get, 0, 0));
        e.estimatedRows(100_000);
        assertThat(e.remainingSeconds()).isPresent();
        advance(1);
        e.progress(9_000, 9); // a reader restored: its chunks are read again
        assertThat(e.remainingSeconds()).isEqualTo(OptionalLong.empty());
    }

    /** 10,000 rows in 10 chunks; 9,000 of them in 90 s after the first: 100 rows/s. */
    private SnapshotDurationEstimate measured(SnapshotDurationEstimate e) {
        for (int i = 1; i <= 10; i++) {
            e.progress(1_000L * i, i);
            if (i < 10) {
                advance(10);
            }
        }
        return e;
    }
}

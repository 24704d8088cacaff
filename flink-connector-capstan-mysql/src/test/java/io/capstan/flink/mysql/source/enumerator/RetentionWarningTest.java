package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.enumerator.RetentionWarning.Verdict;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One warning past 80 %, again only when a quarter worse, withdrawn once below 70 %. */
class RetentionWarningTest {

    @Test
    void warnsOncePastEightyPercentAndAgainOnlyWhenMateriallyWorse() {
        RetentionWarning w = new RetentionWarning();
        assertThat(w.check(800, 1000)).isEqualTo(Verdict.NONE); // exactly 80 %: not past it
        assertThat(w.check(810, 1000)).isEqualTo(Verdict.WARN);
        assertThat(w.check(900, 1000)).isEqualTo(Verdict.NONE);
        assertThat(w.check(1000, 1000)).isEqualTo(Verdict.NONE); // 1.23x of 0.81
        assertThat(w.check(1013, 1000)).isEqualTo(Verdict.WARN); // 1.25x of 0.81
        assertThat(w.check(1013, 820)).isEqualTo(Verdict.NONE); // 1.24 < 1.25 * 1.013
        assertThat(w.check(1013, 500)).isEqualTo(Verdict.WARN); // the retention was lowered
    }

    @Test
    void anEstimateWaveringAroundTheThresholdWarnsOnce() {
        RetentionWarning w = new RetentionWarning();
        assertThat(w.check(81, 100)).isEqualTo(Verdict.WARN);
        assertThat(w.check(79, 100)).isEqualTo(Verdict.NONE);
        assertThat(w.check(81, 100)).isEqualTo(Verdict.NONE);
        assertThat(w.check(75, 100)).isEqualTo(Verdict.NONE);
    }

    @Test
    void aRaisedRetentionWithdrawsTheWarningOnceAndAWorseningWarnsAgain() {
        RetentionWarning w = new RetentionWarning();
        assertThat(w.check(900, 1000)).isEqualTo(Verdict.WARN);
        assertThat(w.check(900, 2000)).isEqualTo(Verdict.FITS_AGAIN);
        assertThat(w.check(900, 2000)).isEqualTo(Verdict.NONE);
        assertThat(w.check(1700, 2000)).isEqualTo(Verdict.WARN);
        assertThat(w.check(1700, 0)).as("no automatic purge").isEqualTo(Verdict.FITS_AGAIN);
        assertThat(w.check(1_000_000, 0)).isEqualTo(Verdict.NONE);
    }
}

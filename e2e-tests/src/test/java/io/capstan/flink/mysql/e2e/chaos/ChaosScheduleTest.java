package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

@Tag(FlinkLines.NEUTRAL)
class ChaosScheduleTest {
    private static ChaosSchedule draw(long seed, int seconds) {
        return ChaosSchedule.draw(
                seed,
                Duration.ofSeconds(seconds),
                Duration.ofSeconds(2),
                Duration.ofSeconds(3),
                Duration.ofSeconds(9));
    }

    @Test
    void aSeedGivesTheSameScheduleEveryTime() {
        assertThat(draw(42, 300)).isEqualTo(draw(42, 300));
        assertThat(draw(42, 300).toString()).isEqualTo(draw(42, 300).toString());
        assertThat(draw(42, 300)).isNotEqualTo(draw(43, 300));
    }

    @Test
    void faultsAreInTimeOrderWithinTheGapsAndTheLength() {
        ChaosSchedule schedule = draw(7, 300);
        assertThat(schedule.steps().get(0).atMillis()).isEqualTo(2_000);
        for (int i = 1; i < schedule.steps().size(); i++) {
            long gap = schedule.steps().get(i).atMillis() - schedule.steps().get(i - 1).atMillis();
            assertThat(gap).isBetween(3_000L, 9_000L);
        }
        assertThat(schedule.steps().get(schedule.steps().size() - 1).atMillis())
                .isLessThan(300_000);
    }

    @Test
    void aLongScheduleHasEveryKindOfFault() {
        Set<Fault> seen = EnumSet.noneOf(Fault.class);
        draw(1, 1_200).steps().forEach(step -> seen.add(step.fault()));
        assertThat(seen).containsExactlyInAnyOrder(Fault.values());
    }

    @Test
    void theReportNamesTheSeedAndHowToReplayIt() {
        assertThat(draw(99, 20).toString())
                .startsWith("seed 99 (replay: -Dcapstan.chaos.seed=99)")
                .contains("at the handoff:");
    }
}

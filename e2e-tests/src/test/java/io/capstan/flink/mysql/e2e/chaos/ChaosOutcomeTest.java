package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.chaos.ChaosOutcome.Applied;
import io.capstan.flink.mysql.e2e.chaos.ChaosOutcome.Phase;
import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

@Tag(FlinkLines.NEUTRAL)
class ChaosOutcomeTest {
    private static final ChaosSchedule SCHEDULE =
            ChaosSchedule.draw(
                    77,
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(3),
                    Duration.ofSeconds(6));
    private static final List<Applied> APPLIED =
            List.of(
                    new Applied(2_000, Fault.NETWORK_RESET, Phase.SNAPSHOT, "reset 2"),
                    new Applied(5_000, Fault.TASK_MANAGER_KILL, Phase.HANDOFF, "killed tm-1"),
                    new Applied(9_000, Fault.NETWORK_RESET, Phase.STREAM, "reset 1"));

    @Test
    void aFailedRoundPrintsTheSeedTheScheduleAndTheFirstViolation() {
        ChaosOutcome outcome =
                new ChaosOutcome(
                        SCHEDULE,
                        APPLIED,
                        List.of("orders_1: uid 7: version repeated", "orders_1: uid 9: gap"),
                        null,
                        "counts",
                        12_000);
        assertThat(outcome.passed()).isFalse();
        assertThat(outcome.report())
                .contains("seed 77 (replay: -Dcapstan.chaos.seed=77)")
                .contains("First violation: orders_1: uid 7: version repeated")
                .contains("HANDOFF  TASK_MANAGER_KILL");
    }

    @Test
    void aHaltFailsTheRoundAndIsNamed() {
        ChaosOutcome outcome =
                new ChaosOutcome(
                        SCHEDULE, APPLIED, List.of(), "halt data_gap: job x FAILED", "", 1_000);
        assertThat(outcome.passed()).isFalse();
        assertThat(outcome.report()).contains("the job stopped: halt data_gap");
    }

    @Test
    void countsByKindAndPhase() {
        ChaosOutcome outcome = new ChaosOutcome(SCHEDULE, APPLIED, List.of(), null, "", 1_000);
        assertThat(outcome.passed()).isTrue();
        assertThat(outcome.faultCounts())
                .isEqualTo(Map.of(Fault.NETWORK_RESET, 2, Fault.TASK_MANAGER_KILL, 1));
        assertThat(outcome.phaseCounts())
                .isEqualTo(Map.of(Phase.SNAPSHOT, 1, Phase.HANDOFF, 1, Phase.STREAM, 1));
    }
}

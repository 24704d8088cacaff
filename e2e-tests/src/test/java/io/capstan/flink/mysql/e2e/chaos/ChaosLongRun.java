package io.capstan.flink.mysql.e2e.chaos;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The long chaos run ({@code mvn -Pchaos}, not part of {@code mvn verify}): {@link ChaosRun} rounds
 * of three minutes of faults each, with random seeds (the first one {@code -Dcapstan.chaos.seed=}
 * if given), for {@code -Dcapstan.chaos.minutes=} minutes (default 30); it stops at the first round
 * that fails, with that round's seed, schedule and first violation. Reports the faults survived per
 * hour, by kind and by phase, also into {@code target/chaos-long-run.txt}.
 */
class ChaosLongRun {
    private static final ChaosRun.Settings LONG =
            new ChaosRun.Settings(
                    8_000,
                    500,
                    1_000,
                    Duration.ofMinutes(3),
                    Duration.ofSeconds(3),
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(4),
                    2,
                    20,
                    5_000);

    @Test
    void faultsForAsLongAsAsked() throws Exception {
        long minutes = Long.getLong("capstan.chaos.minutes", 30);
        String firstSeed = System.getProperty("capstan.chaos.seed", "");
        SecureRandom random = new SecureRandom();
        Map<Fault, Integer> byKind = new EnumMap<>(Fault.class);
        Map<ChaosOutcome.Phase, Integer> byPhase = new TreeMap<>();
        int rounds = 0;
        int faults = 0;
        long begun = System.nanoTime();
        while (rounds == 0 || elapsedMillis(begun) < minutes * 60_000) {
            long seed =
                    rounds == 0 && !firstSeed.isBlank()
                            ? Long.parseLong(firstSeed)
                            : random.nextLong() & Long.MAX_VALUE;
            ChaosOutcome outcome;
            // a fresh cluster and server a round: the JobManager's metaspace grows with every
            // submission of the jar (Flink keeps some classes of each), and a round has dozens
            try (ChaosRig rig = ChaosRig.start("ChaosLongRun")) {
                outcome = rig.run(LONG).run(seed, 5801 + rounds);
            }
            rounds++;
            System.out.println(outcome.report());
            assertThat(outcome.passed()).as(outcome.report()).isTrue();
            faults += outcome.applied().size();
            outcome.faultCounts().forEach((k, v) -> byKind.merge(k, v, Integer::sum));
            outcome.phaseCounts().forEach((k, v) -> byPhase.merge(k, v, Integer::sum));
            report(rounds, faults, byKind, byPhase, elapsedMillis(begun));
        }
        assertThat(faults).isPositive();
    }

    private static void report(
            int rounds,
            int faults,
            Map<Fault, Integer> byKind,
            Map<ChaosOutcome.Phase, Integer> byPhase,
            long millis)
            throws IOException {
        String text =
                String.format(
                        "Chaos long run: %d rounds, %d faults survived in %.1f min (%.0f per hour),"
                                + " zero violations%nby kind: %s%nby phase: %s%n",
                        rounds,
                        faults,
                        millis / 60_000.0,
                        faults * 3_600_000.0 / millis,
                        byKind,
                        byPhase);
        System.out.print(text);
        Files.writeString(Path.of("target", "chaos-long-run.txt"), text);
    }

    private static long elapsedMillis(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}

package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.connector.CdcJobFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short chaos run of every build: fixed seeds (or {@code -Dcapstan.chaos.seed=N} to replay
 * one), each a {@link ChaosRun} of about half a minute of faults (TaskManager SIGKILLs, network
 * stalls and resets, KILLed connections, binlog rotations, MySQL restarts, checkpoint and savepoint
 * restores) over the snapshot, the handoff and the stream of a two-table {@code initial} job. Each
 * round must end exactly once with the final contents equal to MySQL's, and no halt. {@link
 * ChaosLongRun} is the same for as long as asked ({@code -Pchaos}).
 */
class ChaosClusterIT {
    static final ChaosRun.Settings SHORT =
            new ChaosRun.Settings(
                    3_000,
                    500,
                    3_000,
                    Duration.ofSeconds(35),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(3),
                    Duration.ofSeconds(6),
                    2,
                    40,
                    2_000);

    private static ChaosRig rig;

    @BeforeAll
    static void start() {
        rig = ChaosRig.start("ChaosClusterIT");
    }

    @AfterAll
    static void stop() {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void exactlyOnceThroughFaultsInSnapshotHandoffAndStream() throws Exception {
        List<Long> seeds = seeds();
        List<ChaosOutcome> outcomes = new ArrayList<>();
        long serverId = 5701;
        for (long seed : seeds) {
            ChaosOutcome outcome = rig.run(SHORT).run(seed, serverId++);
            System.out.println(outcome.report());
            assertThat(outcome.passed()).as(outcome.report()).isTrue();
            outcomes.add(outcome);
        }
        List<ChaosOutcome.Phase> phases =
                outcomes.stream().flatMap(o -> o.applied().stream()).map(a -> a.phase()).toList();
        assertThat(phases)
                .as("phases the faults hit")
                .contains(
                        ChaosOutcome.Phase.SNAPSHOT,
                        ChaosOutcome.Phase.HANDOFF,
                        ChaosOutcome.Phase.STREAM);
        CdcJobFixture.assertPasswordNotInLogs(rig.cluster, rig.db.connectorAccount().password());
    }

    private static List<Long> seeds() {
        String replay = System.getProperty("capstan.chaos.seed", "");
        if (!replay.isBlank()) {
            return Stream.of(replay.split(",")).map(s -> Long.parseLong(s.trim())).toList();
        }
        return List.of(1L, 2L);
    }
}

package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sets of the three kinds (MySQL GTIDs, binlog positions, MariaDB GTIDs) never meet: each pair of
 * different kinds halts {@code gtid_mode_changed}, the same kinds and an empty set pass.
 */
class GtidModeChangeTest {

    private static final String UUID_A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final GtidSet MYSQL = GtidSet.parse(UUID_A + ":1-5");
    private static final GtidSet POSITIONS =
            BinlogPositionAxis.of(UUID_A).before(new Position(3, 400));
    private static final GtidSet MARIADB = MariaDbGtidAxes.ofState("0-1-42,1-2-7");

    private static CapstanHaltException halt(GtidSet jobs, GtidSet servers) {
        try {
            GtidModeChange.requireSameKind(jobs, servers, "the chunk's high watermark");
            return null;
        } catch (CapstanHaltException e) {
            return e;
        }
    }

    @Test
    void setsOfDifferentKindsHaltBothWays() {
        List<GtidSet> kinds = List.of(MYSQL, POSITIONS, MARIADB);
        for (GtidSet jobs : kinds) {
            for (GtidSet servers : kinds) {
                CapstanHaltException e = halt(jobs, servers);
                if (jobs == servers) {
                    assertThat(e).as("%s against its own kind", jobs).isNull();
                } else {
                    assertThat(e).as("%s against %s", jobs, servers).isNotNull();
                    boolean gtidsOfBothKinds = jobs != POSITIONS && servers != POSITIONS;
                    // MySQL's GTIDs against MariaDB's: no mode changed, the server is another
                    assertThat(e.reason())
                            .isEqualTo(
                                    gtidsOfBothKinds
                                            ? HaltReason.SOURCE_IDENTITY_MISMATCH
                                            : HaltReason.GTID_MODE_CHANGED);
                    assertThat(e.getMessage()).contains("the chunk's high watermark");
                }
            }
        }
    }

    @Test
    void setsOfTheSameKindPassThoughTheyDiffer() {
        assertThat(halt(MYSQL, GtidSet.parse("4e11fa47-71ca-11e1-9e33-c80aa9429562:1"))).isNull();
        assertThat(halt(POSITIONS, BinlogPositionAxis.of(UUID_A).before(new Position(9, 4))))
                .isNull();
        assertThat(halt(MARIADB, MariaDbGtidAxes.ofState("5-9-1"))).isNull();
    }

    @Test
    void anEmptySetPassesAgainstEveryKind() {
        for (GtidSet set : List.of(MYSQL, POSITIONS, MARIADB)) {
            assertThat(halt(GtidSet.empty(), set)).isNull();
            assertThat(halt(set, GtidSet.empty())).isNull();
        }
    }

    @Test
    void aHaltInvolvingMariaDbNamesStrictModeAndOneBetweenMySqlKindsNamesGtidMode() {
        assertThat(halt(MARIADB, MYSQL).getMessage())
                .contains("are MariaDB GTIDs but", "holds MySQL GTIDs");
        assertThat(halt(POSITIONS, MARIADB).getMessage()).contains("gtid_strict_mode = ON");
        assertThat(halt(MARIADB, POSITIONS).getMessage()).contains("gtid_strict_mode = OFF");
        assertThat(halt(POSITIONS, MYSQL).getMessage())
                .contains("gtid_mode = ON")
                .doesNotContain("gtid_strict_mode");
        assertThat(halt(MYSQL, POSITIONS).getMessage())
                .contains("gtid_mode other than ON")
                .doesNotContain("gtid_strict_mode");
    }

    @Test
    void aJobOnMySqlGtidsMeetingAMariaDbSetIsNotToldItRunsOnMariaDbGtids() {
        assertThat(halt(MYSQL, MARIADB).getMessage())
                .doesNotContain("the job runs on MariaDB GTIDs");
    }
}

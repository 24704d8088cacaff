package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.UUID_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A resume position on MariaDB GTIDs against a MariaDB server's state (docs/adr/0013, decision 8),
 * domain by domain: the server must hold every domain of the position at least as far, and the
 * position must hold the binlog state before the server's oldest file; and the server's strict mode
 * must still be the job's.
 */
class MariaDbResumeCheckTest {

    private static final String ADDRESS = "maria:3306";
    private static final List<BinlogFiles.File> FILES =
            List.of(
                    new BinlogFiles.File("mariadb-bin.000003", 5_000),
                    new BinlogFiles.File("mariadb-bin.000004", 900));

    /**
     * A MariaDB with {@code gtid_binlog_state} {@code state}, whose oldest file starts after {@code
     * oldest}.
     */
    private static ServerGtidState mariaDb(String state, String oldest, String gtidMode) {
        return ServerGtidState.of(
                MariaDbGtidAxes.ofState(state),
                MariaDbGtidAxes.ofState(oldest),
                new BinlogFiles(UUID_A, gtidMode, FILES, new Position(4, 900)));
    }

    private static ServerGtidState strict(String state, String oldest) {
        return mariaDb(state, oldest, ServerDialect.MARIADB_STRICT_GTID_MODE);
    }

    private static BinlogStartPosition at(String position) {
        return BinlogStartPosition.of(MariaDbGtidAxes.ofState(position));
    }

    private static CapstanHaltException halt(BinlogStartPosition start, ServerGtidState server) {
        try {
            ResumeCheck.check(start, server, ADDRESS);
        } catch (CapstanHaltException e) {
            assertThat(e.getMessage()).contains(ADDRESS);
            return e;
        }
        return null;
    }

    private static HaltReason haltOf(BinlogStartPosition start, ServerGtidState server) {
        CapstanHaltException e = halt(start, server);
        return e == null ? null : e.reason();
    }

    @Test
    void theServerThePositionCameFromServesItAndEverythingBetween() {
        ServerGtidState server = strict("0-1-10,1-1-4", "0-1-3");
        assertThat(server.mariaDb()).isTrue();
        assertThat(server.positionMode()).isFalse();
        assertThat(haltOf(at("0-1-10,1-1-4"), server)).isNull();
        assertThat(haltOf(at("0-1-3,1-1-1"), server)).isNull();
        assertThat(haltOf(at("0-1-3"), server)).as("a domain the job never saw").isNull();
    }

    @Test
    void aPromotedReplicaHoldingEverythingPassesWhateverServerIdWroteItsLastGtid() {
        BinlogStartPosition job = at("0-1-10,1-1-4");
        assertThat(haltOf(job, strict("0-1-10,1-1-4,0-2-3", "0-1-3")))
                .as("the same pairs (and an older one of its own)")
                .isNull();
        assertThat(haltOf(job, strict("0-1-10,0-2-12,1-1-4", "0-1-3")))
                .as("a higher sequence number under its own server id")
                .isNull();
        assertThat(haltOf(job, strict("0-2-12,1-3-5", "0-2-9")))
                .as("a state that lists only other server ids")
                .isNull();
    }

    @Test
    void aServerBehindInADomainHaltsNamingTheDomainAndBothPositions() {
        CapstanHaltException e = halt(at("0-1-10,1-1-4"), strict("0-1-8,1-1-4", "0-1-3"));
        assertThat(e).isNotNull();
        assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(e.getMessage())
                .contains("domain 0: 0-1-8 against 0-1-10")
                .contains("'0-1-10,1-1-4'")
                .contains("'0-1-8,1-1-4'")
                .as("only the domain it is behind in")
                .doesNotContain("domain 1");
    }

    @Test
    void aServerLackingADomainHaltsNamingTheDomain() {
        CapstanHaltException e = halt(at("0-1-10,1-1-4"), strict("0-1-10", "0-1-3"));
        assertThat(e).isNotNull();
        assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(e.getMessage())
                .contains("domain 1: none against 1-1-4")
                .doesNotContain("domain 0");
    }

    @Test
    void aReconnectToAnotherServerBehindSaysItFailedOver() {
        BinlogStartPosition job = at("0-1-10");
        ServerIdentity behind = new ServerIdentity(UUID_B, 2, strict("0-1-8,0-2-9", "0-1-3"));
        assertThatThrownBy(() -> ResumeCheck.checkReconnect(job, UUID_A, behind, ADDRESS))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                            assertThat(e.getMessage())
                                    .contains("domain 0: 0-2-9 against 0-1-10")
                                    .contains("MariaDB server_id 2")
                                    .contains(UUID_A);
                        });
        ServerIdentity ahead = new ServerIdentity(UUID_B, 2, strict("0-1-10,0-2-11", "0-1-3"));
        assertThat(ResumeCheck.checkReconnect(job, UUID_A, ahead, ADDRESS)).isTrue();
    }

    @Test
    void aPositionNotHoldingTheOldestFilesStateIsAGap() {
        ServerGtidState server = strict("0-1-10,1-1-4", "0-1-6,1-1-2");
        CapstanHaltException e = halt(at("0-1-5,1-1-4"), server);
        assertThat(e).isNotNull();
        assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP);
        assertThat(e.getMessage())
                .contains("domain 0: 0-1-5 against 0-1-6")
                .contains("'0-1-6,1-1-2'")
                .doesNotContain("domain 1");
        assertThat(haltOf(at("0-1-10"), server))
                .as("the job never saw domain 1, whose first transactions were purged")
                .isEqualTo(HaltReason.DATA_GAP);
        assertThat(haltOf(at("0-1-6,1-1-2"), server))
                .as("exactly the oldest file's state")
                .isNull();
        assertThat(haltOf(BinlogStartPosition.of(GtidSet.empty()), server))
                .as("from the beginning")
                .isEqualTo(HaltReason.DATA_GAP);
    }

    @Test
    void thePartialTransactionOfAResumeInsideOneCountsAsHeld() {
        Gtid partial = MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 10));
        BinlogStartPosition inside =
                BinlogStartPosition.of(MariaDbGtidAxes.ofState("0-1-9"), partial, 2);
        CapstanHaltException e = halt(inside, strict("0-1-9", "0-1-3"));
        assertThat(e).isNotNull();
        assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(e.getMessage()).contains("domain 0: 0-1-9 against 0-1-10");
        assertThat(haltOf(inside, strict("0-1-10", "0-1-3"))).isNull();
        assertThat(haltOf(inside, strict("0-1-12", "0-1-9")))
                .as("its oldest file starts with the partial transaction")
                .isNull();
        assertThat(haltOf(inside, strict("0-1-12", "0-1-10")))
                .as("the partial transaction itself was purged")
                .isEqualTo(HaltReason.DATA_GAP);
    }

    @Test
    void aJobOnMariaDbGtidsHaltsWhenTheServerTurnedStrictModeOff() {
        CapstanHaltException e =
                halt(at("0-1-10"), mariaDb("0-1-10", "0-1-3", ServerDialect.MARIADB_GTID_MODE));
        assertThat(e).isNotNull();
        assertThat(e.reason()).isEqualTo(HaltReason.GTID_MODE_CHANGED);
        assertThat(e.getMessage()).contains("gtid_strict_mode = OFF").contains("MariaDB GTIDs");
    }

    @Test
    void aJobOnPositionsContinuesOnAMariaDbThatTurnedStrictModeOnUnderItsOwnPositionChecks() {
        ServerGtidState server = strict("0-1-10", "0-1-3");
        BinlogPositionAxis axis = server.files().axis();
        assertThat(haltOf(BinlogStartPosition.of(axis.before(new Position(3, 4_000))), server))
                .isNull();
        assertThat(haltOf(BinlogStartPosition.of(axis.before(new Position(2, 100))), server))
                .as("a purged file")
                .isEqualTo(HaltReason.DATA_GAP);
        assertThat(haltOf(BinlogStartPosition.of(axis.before(new Position(3, 5_001))), server))
                .as("an offset the server never wrote")
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        GtidSet otherServers = BinlogPositionAxis.of(UUID_B).before(new Position(3, 4_000));
        assertThat(haltOf(BinlogStartPosition.of(otherServers), server))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void aMySqlGtidSetOnAMariaDbServerIsAnotherServersPosition() {
        assertThat(
                        haltOf(
                                BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-5")),
                                strict("0-1-10", "0-1-3")))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }
}

package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;
import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MariaDB GTIDs on (domain, server id) axes, by example: the axis id spells the pair and is no
 * other kind of source id, a state reads as {@code 1..n} per pair, its position is per domain the
 * largest sequence number, advance keeps the shape of a state, and messages print MariaDB's text.
 */
@Tag(FlinkLines.NEUTRAL)
class MariaDbGtidAxesTest {

    private static final String MYSQL_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final long MAX = MariaDbGtidPosition.MAX_ID;

    @Test
    void theAxisIdSpellsTheDomainAndTheServerIdInHex() {
        assertThat(MariaDbGtidAxes.axisId(1, 7)).isEqualTo("00000001-ca57-8db0-8db0-000000000007");
        assertThat(MariaDbGtidAxes.axisId(0, 0)).isEqualTo("00000000-ca57-8db0-8db0-000000000000");
        assertThat(MariaDbGtidAxes.axisId(0xAB, 0x1234))
                .isEqualTo("000000ab-ca57-8db0-8db0-000000001234");
        assertThat(MariaDbGtidAxes.axisId(MAX, MAX))
                .isEqualTo("ffffffff-ca57-8db0-8db0-0000ffffffff");
        assertThat(MariaDbGtidAxes.axisId(1, 7)).isNotEqualTo(MariaDbGtidAxes.axisId(7, 1));
        assertThat(MariaDbGtidAxes.isAxisId(MariaDbGtidAxes.axisId(1, 7))).isTrue();
        assertThat(MariaDbGtidAxes.isAxisId(MariaDbGtidAxes.axisId(MAX, MAX))).isTrue();
        assertThat(MariaDbGtidAxes.isAxisId("FFFFFFFF-CA57-8DB0-8DB0-0000FFFFFFFF")).isTrue();
    }

    @Test
    void theAxisIdRefusesIdsOutOfRange() {
        assertThatThrownBy(() -> MariaDbGtidAxes.axisId(MAX + 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("domain id out of range");
        assertThatThrownBy(() -> MariaDbGtidAxes.axisId(1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("server id out of range");
    }

    @Test
    void noOtherKindOfSourceIdIsAnAxisId() {
        assertThat(MariaDbGtidAxes.isAxisId(MYSQL_UUID)).isFalse();
        assertThat(MariaDbGtidAxes.isAxisId(BinlogPositionAxis.of(MYSQL_UUID).axisId())).isFalse();
        // a version-1 uuid whose low most-significant half is close to the mark
        assertThat(MariaDbGtidAxes.isAxisId("00000001-ca57-1db0-8db0-000000000007")).isFalse();
        assertThat(MariaDbGtidAxes.isAxisId("00000001-ca57-8db0-8db1-000000000007")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "garbage",
                "1-7-4",
                "00000001-ca57-8db0-8db0-00000000000g",
                "00000001ca578db08db0000000000007",
                "00000001-ca57-8db0-8db0-000000000007:1",
                // short and signed forms that UUID.fromString reads as the axis of (1, 7)
                "1-ca57-8db0-8db0-7",
                "+1-ca57-8db0-8db0-+7",
                "00000001-ca57-8db0-8db0-+00000000007"
            })
    void garbageIsNoAxisId(String id) {
        assertThat(MariaDbGtidAxes.isAxisId(id)).isFalse();
    }

    @Test
    void nullIsNoAxisId() {
        assertThat(MariaDbGtidAxes.isAxisId(null)).isFalse();
    }

    @Test
    void aGtidRoundTripsThroughItsAxisUpToTheLimits() {
        DomainGtid g = new DomainGtid(1, 7, 4);

        Gtid onAxis = MariaDbGtidAxes.gtid(g);

        assertThat(onAxis).isEqualTo(Gtid.of("00000001-ca57-8db0-8db0-000000000007", 4));
        assertThat(MariaDbGtidAxes.domainGtid(onAxis)).isEqualTo(g);
        for (DomainGtid limit :
                new DomainGtid[] {
                    new DomainGtid(MAX, MAX, MariaDbGtidPosition.MAX_SEQUENCE),
                    new DomainGtid(0, 0, 1),
                    new DomainGtid(MAX, 0, 1),
                    new DomainGtid(0, MAX, 1)
                }) {
            assertThat(MariaDbGtidAxes.domainGtid(MariaDbGtidAxes.gtid(limit))).isEqualTo(limit);
        }
    }

    @Test
    void sequenceNumberZeroIsNoTransaction() {
        assertThatThrownBy(() -> MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0-1-0")
                .hasMessageContaining("seq 0");
    }

    @Test
    void aMySqlGtidHasNoMariaDbGtid() {
        assertThatThrownBy(() -> MariaDbGtidAxes.domainGtid(Gtid.of(MYSQL_UUID, 5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(MYSQL_UUID + " is no MariaDB GTID axis id");
    }

    @Test
    void aStateHoldsEachPairsGtidsUpToItsLast() {
        GtidSet s = MariaDbGtidAxes.ofState("0-1-5,0-2-9,3-1-2");

        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 5)))).isTrue();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 2, 9)))).isTrue();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 2, 1)))).isTrue();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(3, 1, 2)))).isTrue();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 2, 10)))).isFalse();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 6)))).isFalse();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(3, 1, 3)))).isFalse();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 3, 1)))).isFalse();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(1, 1, 1)))).isFalse();
        assertThat(s.transactionCount()).isEqualTo(5 + 9 + 2);
        assertThat(s.sourceIds())
                .containsExactly(
                        MariaDbGtidAxes.axisId(0, 1),
                        MariaDbGtidAxes.axisId(0, 2),
                        MariaDbGtidAxes.axisId(3, 1));
        assertThat(MariaDbGtidAxes.ofState(" 3-1-2 , 0-2-9,0-1-5\n")).isEqualTo(s);
        assertThat(MariaDbGtidAxes.ofState("")).isEqualTo(GtidSet.empty());
    }

    @Test
    void aPairGivenTwiceIsRefusedQuotingOnlyThePair() {
        assertThatThrownBy(() -> MariaDbGtidAxes.ofState("0-1-5,0-2-9,3-1-2,0-2-11"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid MariaDB GTID state: domain 0 and server 2 appear twice")
                .hasMessageNotContaining("0-2-9")
                .hasMessageNotContaining("0-2-11")
                .hasMessageNotContaining("0-1-5");
    }

    @Test
    void malformedStateTextIsRefusedQuotingTheEntry() {
        assertThatThrownBy(() -> MariaDbGtidAxes.ofState("0-1-5,0-x-9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'0-x-9'")
                .hasMessageNotContaining("0-1-5");
        assertThatThrownBy(() -> MariaDbGtidAxes.ofState(null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePositionOfAStateIsPerDomainTheLargestSequenceNumber() {
        GtidSet s = MariaDbGtidAxes.ofState("0-1-5,0-2-9,3-1-2");

        assertThat(MariaDbGtidAxes.position(s)).hasToString("0-2-9,3-1-2");
        // the largest, not the first pair of the domain nor the largest server id
        assertThat(MariaDbGtidAxes.position(MariaDbGtidAxes.ofState("0-2-3,0-1-8,0-3-6")))
                .hasToString("0-1-8");
        assertThat(MariaDbGtidAxes.position(GtidSet.empty()))
                .isEqualTo(MariaDbGtidPosition.empty());
    }

    @Test
    void aPositionRoundTripsThroughItsSet() {
        MariaDbGtidPosition p = MariaDbGtidPosition.parse("0-2-9,3-1-2,4294967295-4294967295-1");

        GtidSet set = MariaDbGtidAxes.of(p);

        assertThat(set).isEqualTo(MariaDbGtidAxes.ofState(p.toString()));
        assertThat(MariaDbGtidAxes.position(set)).isEqualTo(p);
    }

    @Test
    void theSetOfAPositionLosesAnEntryOfSequenceNumberZero() {
        // 0-1-0 names no transaction: the set has nothing of domain 0, so neither has its position
        MariaDbGtidPosition p = MariaDbGtidPosition.parse("0-1-0,3-1-2");

        assertThat(MariaDbGtidAxes.of(p)).isEqualTo(MariaDbGtidAxes.ofState("3-1-2"));
        assertThat(MariaDbGtidAxes.position(MariaDbGtidAxes.of(p))).hasToString("3-1-2");
    }

    @Test
    void thePositionOfAMySqlSetIsRefused() {
        GtidSet mysql = GtidSet.parse(MYSQL_UUID + ":1-5");
        GtidSet mixed = mysql.union(MariaDbGtidAxes.ofState("0-1-5"));
        GtidSet positions =
                BinlogPositionAxis.of(MYSQL_UUID).before(new BinlogPositionAxis.Position(1, 400));

        assertThatThrownBy(() -> MariaDbGtidAxes.position(mysql))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(MYSQL_UUID + " is no MariaDB GTID axis id");
        assertThatThrownBy(() -> MariaDbGtidAxes.position(mixed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(MYSQL_UUID);
        assertThatThrownBy(() -> MariaDbGtidAxes.position(positions))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is no MariaDB GTID axis id");
    }

    @Test
    void advanceFillsThePairsAxisFromOneLeavingNoHoles() {
        GtidSet s = GtidSet.empty();

        s = MariaDbGtidAxes.advance(s, MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 3)));
        assertThat(s).isEqualTo(MariaDbGtidAxes.ofState("0-1-3"));

        // gtid_seq_no skipped 4..9, and server 2 took over the domain at 10
        s = MariaDbGtidAxes.advance(s, MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 10)));
        s = MariaDbGtidAxes.advance(s, MariaDbGtidAxes.gtid(new DomainGtid(0, 2, 12)));
        s = MariaDbGtidAxes.advance(s, MariaDbGtidAxes.gtid(new DomainGtid(5, 2, 1)));

        assertThat(s).isEqualTo(MariaDbGtidAxes.ofState("0-1-10,0-2-12,5-2-1"));
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 7)))).isTrue();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 2, 11)))).isTrue();
        assertThat(s.contains(MariaDbGtidAxes.gtid(new DomainGtid(0, 2, 13)))).isFalse();
        assertThat(s.transactionCount()).isEqualTo(10 + 12 + 1);
        assertThat(MariaDbGtidAxes.position(s)).hasToString("0-2-12,5-2-1");
        // a GTID already held changes nothing
        assertThat(MariaDbGtidAxes.advance(s, MariaDbGtidAxes.gtid(new DomainGtid(0, 1, 2))))
                .isEqualTo(s);
    }

    @Test
    void advanceRefusesAMySqlGtid() {
        assertThatThrownBy(() -> MariaDbGtidAxes.advance(GtidSet.empty(), Gtid.of(MYSQL_UUID, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(MYSQL_UUID + " is no MariaDB GTID axis id");
    }

    @Test
    void readableGtidsAreMariaDbsTextForAxesOnly() {
        assertThat(MariaDbGtidAxes.readable(MariaDbGtidAxes.gtid(new DomainGtid(3, 7, 12))))
                .isEqualTo("3-7-12");
        assertThat(MariaDbGtidAxes.readable(Gtid.of(MYSQL_UUID, 5))).isEqualTo(MYSQL_UUID + ":5");
        assertThat(MariaDbGtidAxes.readable((Gtid) null)).isEqualTo("none");
    }

    @Test
    void readableSetsAreTheirPositionForMariaDbSetsOnly() {
        GtidSet mariadb = MariaDbGtidAxes.ofState("3-1-2,0-1-5,0-2-9");
        GtidSet mysql = GtidSet.parse(MYSQL_UUID + ":1-5");

        assertThat(MariaDbGtidAxes.readable(mariadb))
                .isEqualTo("MariaDB GTID position '0-2-9,3-1-2'");
        assertThat(MariaDbGtidAxes.readable(mysql)).isEqualTo(MYSQL_UUID + ":1-5");
        assertThat(MariaDbGtidAxes.readable(mysql.union(mariadb)))
                .isEqualTo(mysql.union(mariadb).toString());
        assertThat(MariaDbGtidAxes.readable(GtidSet.empty())).isEqualTo("");
        assertThat(MariaDbGtidAxes.readable((GtidSet) null)).isEqualTo("null");
    }

    @Test
    void aMariaDbSetIsNonEmptyWithOnlyAxes() {
        GtidSet mariadb = MariaDbGtidAxes.ofState("0-1-5,3-1-2");

        assertThat(MariaDbGtidAxes.isMariaDbSet(mariadb)).isTrue();
        assertThat(MariaDbGtidAxes.isMariaDbSet(GtidSet.empty())).isFalse();
        assertThat(MariaDbGtidAxes.isMariaDbSet(mariadb.union(GtidSet.parse(MYSQL_UUID + ":1"))))
                .isFalse();
        assertThat(MariaDbGtidAxes.isMariaDbSet(GtidSet.parse(MYSQL_UUID + ":1-3"))).isFalse();
        assertThat(
                        MariaDbGtidAxes.isMariaDbSet(
                                mariadb.union(
                                        BinlogPositionAxis.of(MYSQL_UUID)
                                                .before(new BinlogPositionAxis.Position(1, 400)))))
                .isFalse();
    }

    @Test
    void theServerIsAheadByTheSequenceNumbersOfEachDomainBetweenThePositions() {
        GtidSet server = MariaDbGtidAxes.ofState("0-1-5,0-2-12,3-1-4");
        // domain 0: 12 - 7 (the job's last is 0-1-7, whatever the server id); domain 3: all 4
        assertThat(MariaDbGtidAxes.sequencesAhead(server, MariaDbGtidAxes.ofState("0-1-7")))
                .isEqualTo(9);
        assertThat(MariaDbGtidAxes.sequencesAhead(server, GtidSet.empty())).isEqualTo(16);
        assertThat(MariaDbGtidAxes.sequencesAhead(server, server)).isZero();
        // a job ahead of the server in a domain counts as caught up there, not negative
        assertThat(MariaDbGtidAxes.sequencesAhead(server, MariaDbGtidAxes.ofState("0-2-20,3-1-4")))
                .isZero();
    }
}

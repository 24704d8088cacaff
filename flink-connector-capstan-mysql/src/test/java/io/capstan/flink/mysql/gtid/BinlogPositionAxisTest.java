package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The position axis: ordinal order is (file, offset) order, a rotation's next file comes after the
 * whole previous file, a position round-trips through its ordinal and through "the set before it",
 * and a view at P holds exactly the transactions that start before P.
 */
class BinlogPositionAxisTest {

    private static final String SERVER = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final BinlogPositionAxis AXIS = BinlogPositionAxis.of(SERVER);

    @Provide
    Arbitrary<Position> positions() {
        // small files often (rotations between neighbours), the extremes sometimes
        Arbitrary<Long> file =
                Arbitraries.oneOf(
                        Arbitraries.longs().between(1, 5),
                        Arbitraries.longs().between(0, Integer.MAX_VALUE - 1L));
        Arbitrary<Long> offset =
                Arbitraries.oneOf(
                        Arbitraries.longs().between(4, 600),
                        Arbitraries.longs().between(4, 0xFFFF_FFFFL));
        return Combinators.combine(file, offset).as(Position::new);
    }

    @Property(tries = 200)
    void ordinalOrderIsPositionOrder(
            @ForAll("positions") Position a, @ForAll("positions") Position b) {
        assertThat(
                        Long.signum(
                                Long.compare(
                                        BinlogPositionAxis.ordinal(a),
                                        BinlogPositionAxis.ordinal(b))))
                .isEqualTo(Integer.signum(a.compareTo(b)));
    }

    @Property(tries = 200)
    void aPositionRoundTripsThroughItsOrdinalAndItsPrefix(@ForAll("positions") Position p) {
        assertThat(BinlogPositionAxis.position(BinlogPositionAxis.ordinal(p))).isEqualTo(p);
        assertThat(AXIS.resumeFrom(AXIS.before(p))).isEqualTo(p);
    }

    @Property(tries = 200)
    void aViewAtPHoldsExactlyTheTransactionsStartingBeforeP(
            @ForAll("positions") Position view, @ForAll("positions") Position transaction) {
        assertThat(AXIS.before(view).contains(AXIS.transactionAt(transaction)))
                .isEqualTo(transaction.compareTo(view) < 0);
    }

    /** After a rotation the next file's first event comes after every event of the old file. */
    @Property(tries = 200)
    void theNextFileFollowsTheWholePreviousFile(@ForAll("positions") Position p) {
        if (p.fileIndex() + 1 > Integer.MAX_VALUE - 1L) {
            return; // the last file index has no next file
        }
        Position nextFileStart = new Position(p.fileIndex() + 1, 4);
        assertThat(AXIS.before(nextFileStart).containsAll(AXIS.before(p))).isTrue();
        assertThat(AXIS.before(nextFileStart).contains(AXIS.transactionAt(p))).isTrue();
    }

    @Example
    void theAxisIsNeitherTheServerUuidNorAnotherServersAxis() {
        BinlogPositionAxis other = BinlogPositionAxis.of("4f22fa47-71ca-11e1-9e33-c80aa9429562");
        assertThat(AXIS.axisId()).isNotEqualTo(SERVER).isNotEqualTo(other.axisId());
        assertThat(BinlogPositionAxis.of(SERVER.toUpperCase()).axisId()).isEqualTo(AXIS.axisId());
        GtidSet atMine = AXIS.before(new Position(3, 4711));
        assertThat(AXIS.holds(atMine)).isTrue();
        assertThat(other.holds(atMine)).isFalse();
        assertThatThrownBy(() -> other.resumeFrom(atMine))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AXIS.holds(GtidSet.parse(SERVER + ":1-5"))).isFalse();
    }

    @Example
    void aSetWithAHoleIsNoResumePosition() {
        GtidSet hole =
                GtidSet.builder()
                        .addRange(AXIS.axisId(), "", 1, 10)
                        .addRange(AXIS.axisId(), "", 12, 20)
                        .build();
        assertThatThrownBy(() -> AXIS.resumeFrom(hole))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not one prefix");
        assertThat(BinlogPositionAxis.readable(hole))
                .isEqualTo("every binlog position before 000000:11 and 1 later range(s)");
    }

    @Example
    void fileNamesAndIndexes() {
        assertThat(BinlogPositionAxis.fileIndex("binlog.000042")).isEqualTo(42);
        assertThat(BinlogPositionAxis.fileIndex("/var/lib/mysql/mysql-bin.1234567"))
                .isEqualTo(1234567);
        assertThat(BinlogPositionAxis.fileName("binlog", 42)).isEqualTo("binlog.000042");
        assertThat(BinlogPositionAxis.fileName("binlog", 1234567)).isEqualTo("binlog.1234567");
        assertThatThrownBy(() -> BinlogPositionAxis.fileIndex("binlog"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(BinlogPositionAxis.readable(AXIS.before(new Position(42, 4711))))
                .isEqualTo("every binlog position before 000042:4711");
    }

    @Example
    void positionsReadAsFileAndOffsetGtidsAsMySqlWritesThem() {
        assertThat(BinlogPositionAxis.readable(AXIS.transactionAt(new Position(7, 1234))))
                .isEqualTo("000007:1234");
        Gtid real = Gtid.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:23");
        assertThat(BinlogPositionAxis.readable(real)).isEqualTo(real.toString());
        GtidSet realSet = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23");
        assertThat(BinlogPositionAxis.readable(realSet)).isEqualTo(realSet.toString());
        assertThat(BinlogPositionAxis.readable((Gtid) null)).isEqualTo("none");
    }

    @Example
    void aStreamResumesAtTheFirstHoleOfItsProcessedSet() {
        Position hole = new Position(3, 500);
        GtidSet processed =
                AXIS.through(
                        GtidSet.empty(),
                        new Position(3, 900),
                        java.util.List.of(AXIS.transactionAt(hole)));
        assertThat(processed.contains(AXIS.transactionAt(hole))).isFalse();
        assertThat(processed.contains(AXIS.transactionAt(new Position(3, 700)))).isTrue();
        assertThat(AXIS.firstMissing(processed)).isEqualTo(hole);
        GtidSet filled = processed.add(AXIS.transactionAt(hole));
        assertThat(AXIS.firstMissing(filled)).isEqualTo(new Position(3, 900));
        assertThat(AXIS.firstMissing(GtidSet.empty())).isEqualTo(BinlogPositionAxis.position(1));
    }

    @Property(tries = 200)
    void growingThroughAPositionIsItsPrefix(@ForAll("positions") Position p) {
        GtidSet grown = AXIS.through(GtidSet.empty(), p, java.util.List.of());
        assertThat(grown).isEqualTo(AXIS.before(p));
        assertThat(AXIS.through(grown, p, java.util.List.of())).isSameAs(grown);
    }

    @Example
    void onlyAxisSetsArePositionSets() {
        assertThat(BinlogPositionAxis.isPositionSet(AXIS.before(new Position(1, 200)))).isTrue();
        assertThat(BinlogPositionAxis.isPositionSet(GtidSet.parse(SERVER + ":1-5"))).isFalse();
        assertThat(BinlogPositionAxis.isPositionSet(GtidSet.empty())).isFalse();
        GtidSet mixed = AXIS.before(new Position(1, 200)).union(GtidSet.parse(SERVER + ":1"));
        assertThat(BinlogPositionAxis.isPositionSet(mixed)).isFalse();
        assertThat(BinlogPositionAxis.withAxisId(AXIS.axisId()).before(new Position(1, 200)))
                .isEqualTo(AXIS.before(new Position(1, 200)));
    }
}

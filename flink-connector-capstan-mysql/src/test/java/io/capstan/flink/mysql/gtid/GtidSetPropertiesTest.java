package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.testing.FlinkLines;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Algebra laws of {@link GtidSet}, checked against random small sets over 3 uuids (one with a tag
 * too) and small transaction numbers, so that overlaps, adjacency and gaps are frequent.
 */
@Tag(FlinkLines.NEUTRAL)
class GtidSetPropertiesTest {

    private static final List<String> UUIDS =
            List.of(
                    "2174b383-5441-11e8-b90a-c80aa9429562",
                    "3e11fa47-71ca-11e1-9e33-c80aa9429562",
                    "8a94f357-aab4-11df-86ab-c80aa9429563");
    private static final List<String> TAGS = List.of("", "", "t1");
    private static final int MAX_N = 24;
    private static final int TRIES = 300;

    @Provide
    Arbitrary<Gtid> gtids() {
        return Combinators.combine(
                        Arbitraries.of(UUIDS),
                        Arbitraries.of(TAGS),
                        Arbitraries.longs().between(1, MAX_N))
                .as(Gtid::of);
    }

    /**
     * A few random ranges {source, first, last} (inclusive), which overlap, touch and leave gaps.
     */
    @Provide
    Arbitrary<List<long[]>> rangeLists() {
        Arbitrary<long[]> range =
                Combinators.combine(
                                Arbitraries.integers().between(0, UUIDS.size() * TAGS.size() - 1),
                                Arbitraries.longs().between(1, MAX_N),
                                Arbitraries.longs().between(0, 5))
                        .as(
                                (source, first, length) ->
                                        new long[] {
                                            source, first, Math.min(MAX_N, first + length)
                                        });
        return range.list().ofMaxSize(8);
    }

    /** Sets built from such ranges. */
    @Provide
    Arbitrary<GtidSet> sets() {
        return rangeLists().map(GtidSetPropertiesTest::build);
    }

    private static GtidSet build(List<long[]> ranges) {
        GtidSet.Builder b = GtidSet.builder();
        for (long[] r : ranges) {
            int source = (int) r[0];
            b.addRange(UUIDS.get(source / TAGS.size()), TAGS.get(source % TAGS.size()), r[1], r[2]);
        }
        return b.build();
    }

    /** The builder's merging against the ranges themselves (the model the other laws build on). */
    @Property(tries = TRIES)
    void aBuiltSetHoldsExactlyTheGtidsOfItsRanges(
            @ForAll("rangeLists") List<long[]> ranges, @ForAll("gtids") Gtid g) {
        boolean inARange =
                ranges.stream()
                        .anyMatch(
                                r -> {
                                    int source = (int) r[0];
                                    return UUIDS.get(source / TAGS.size()).equals(g.uuid())
                                            && java.util.Objects.equals(
                                                    TAGS.get(source % TAGS.size()), g.tag())
                                            && r[1] <= g.transactionId()
                                            && g.transactionId() <= r[2];
                                });
        assertThat(build(ranges).contains(g)).isEqualTo(inARange);
    }

    @Property(tries = TRIES)
    void transactionCountIsInclusionExclusion(
            @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
        assertThat(a.union(b).transactionCount())
                .isEqualTo(
                        a.transactionCount()
                                + b.transactionCount()
                                - a.intersect(b).transactionCount());
        assertThat(a.subtract(b).transactionCount())
                .isEqualTo(a.transactionCount() - a.intersect(b).transactionCount());
    }

    @Property(tries = TRIES)
    void unionIsCommutative(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
        assertThat(a.union(b)).isEqualTo(b.union(a));
    }

    @Property(tries = TRIES)
    void unionIsAssociative(
            @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b, @ForAll("sets") GtidSet c) {
        assertThat(a.union(b).union(c)).isEqualTo(a.union(b.union(c)));
    }

    @Property(tries = TRIES)
    void unionIsIdempotent(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
        assertThat(a.union(a)).isEqualTo(a);
        assertThat(a.union(b).union(b)).isEqualTo(a.union(b));
    }

    @Property(tries = TRIES)
    void intersectDistributesOverUnion(
            @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b, @ForAll("sets") GtidSet c) {
        assertThat(a.intersect(b.union(c))).isEqualTo(a.intersect(b).union(a.intersect(c)));
    }

    @Property(tries = TRIES)
    void differenceAndIntersectionPartitionTheSet(
            @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
        assertThat(a.subtract(b).intersect(b).isEmpty()).isTrue();
        assertThat(a.subtract(b).union(a.intersect(b))).isEqualTo(a);
    }

    @Property(tries = TRIES)
    void containsAllMeansUnionAddsNothing(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
        assertThat(a.containsAll(b)).isEqualTo(a.union(b).equals(a));
        assertThat(a.union(b).containsAll(a)).isTrue();
        assertThat(a.containsAll(a.intersect(b))).isTrue();
    }

    @Property(tries = TRIES)
    void operationsAgreeWithABruteForceModel(
            @ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b, @ForAll("gtids") Gtid g) {
        Set<Gtid> ma = model(a);
        Set<Gtid> mb = model(b);

        Set<Gtid> union = new HashSet<>(ma);
        union.addAll(mb);
        Set<Gtid> inter = new HashSet<>(ma);
        inter.retainAll(mb);
        Set<Gtid> diff = new HashSet<>(ma);
        diff.removeAll(mb);
        assertThat(model(a.union(b))).isEqualTo(union);
        assertThat(model(a.intersect(b))).isEqualTo(inter);
        assertThat(model(a.subtract(b))).isEqualTo(diff);
        assertThat(a.containsAll(b)).isEqualTo(ma.containsAll(mb));
    }

    @Property(tries = TRIES)
    void addEqualsUnionWithSingleton(@ForAll("sets") GtidSet a, @ForAll("gtids") Gtid g) {
        GtidSet added = a.add(g);
        assertThat(added).isEqualTo(a.union(GtidSet.of(g)));
        assertThat(added.contains(g)).isTrue();
        assertThat(added.toString()).isEqualTo(a.union(GtidSet.of(g)).toString());
    }

    @Property(tries = TRIES)
    void printedFormParsesBackToTheSameSet(@ForAll("sets") GtidSet a) {
        String text = a.toString();
        GtidSet parsed = GtidSet.parse(text);
        assertThat(parsed).isEqualTo(a);
        assertThat(parsed.hashCode()).isEqualTo(a.hashCode());
        assertThat(parsed.toString()).isEqualTo(text);
        assertThat(GtidSet.parse(text.toUpperCase().replace(",", ",\n "))).isEqualTo(a);
    }

    @Property(tries = TRIES)
    void equalContentPrintsTheSameText(@ForAll("sets") GtidSet a, @ForAll("sets") GtidSet b) {
        // The same content reached in two different ways prints one text.
        GtidSet viaUnion = a.union(b);
        GtidSet viaAdds = a;
        for (Gtid g : model(b)) {
            viaAdds = viaAdds.add(g);
        }
        assertThat(viaAdds).isEqualTo(viaUnion);
        assertThat(viaAdds.toString()).isEqualTo(viaUnion.toString());
    }

    /** Every GTID of a set, by brute force over the small universe the generators use. */
    private static Set<Gtid> model(GtidSet s) {
        Set<Gtid> all = new HashSet<>();
        for (String uuid : UUIDS) {
            for (String tag : Set.copyOf(TAGS)) {
                for (long n = 1; n <= MAX_N + 1; n++) {
                    Gtid g = Gtid.of(uuid, tag, n);
                    if (s.contains(g)) {
                        all.add(g);
                    }
                }
            }
        }
        return all;
    }
}

package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;
import io.capstan.flink.mysql.testing.FlinkLines;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Laws of {@link MariaDbGtidPosition} over random positions of a few domains (one at the 32-bit
 * limit), two server ids and small sequence numbers, so that equal, smaller and missing domains are
 * frequent: the text round-trips, holds is per domain, contains and meet form a meet semilattice,
 * and advance grows the position.
 */
@Tag(FlinkLines.NEUTRAL)
class MariaDbGtidPositionPropertiesTest {

    private static final List<Long> DOMAINS = List.of(0L, 1L, 2L, 10L, MariaDbGtidPosition.MAX_ID);
    private static final List<Long> SERVERS = List.of(7L, 9L);
    private static final int MAX_SEQ = 12;
    private static final int TRIES = 300;

    @Provide
    Arbitrary<DomainGtid> gtids() {
        return Combinators.combine(
                        Arbitraries.of(DOMAINS),
                        Arbitraries.of(SERVERS),
                        Arbitraries.longs().between(1, MAX_SEQ))
                .as(DomainGtid::new);
    }

    @Provide
    Arbitrary<MariaDbGtidPosition> positions() {
        return gtids().list()
                .ofMaxSize(DOMAINS.size())
                .map(
                        gtids -> {
                            Map<Long, DomainGtid> oneEach = new LinkedHashMap<>();
                            gtids.forEach(g -> oneEach.putIfAbsent(g.domain(), g));
                            return MariaDbGtidPosition.of(new ArrayList<>(oneEach.values()));
                        });
    }

    @Property(tries = TRIES)
    void theTextRoundTripsInAnyEntryOrder(
            @ForAll("positions") MariaDbGtidPosition p, @ForAll long seed) {
        List<String> entries = new ArrayList<>();
        p.gtids().forEach(g -> entries.add(g.toString()));
        Collections.shuffle(entries, new java.util.Random(seed));

        assertThat(MariaDbGtidPosition.parse(p.toString())).isEqualTo(p);
        assertThat(MariaDbGtidPosition.parse(String.join(" , ", entries))).isEqualTo(p);
        assertThat(MariaDbGtidPosition.parse(String.join(",", entries))).hasToString(p.toString());
    }

    @Property(tries = TRIES)
    void holdsComparesSequenceNumbersWithinTheDomainOnly(
            @ForAll("positions") MariaDbGtidPosition p, @ForAll("gtids") DomainGtid g) {
        boolean expected =
                p.gtidOf(g.domain()).map(mine -> mine.sequence() >= g.sequence()).orElse(false);

        assertThat(p.holds(g)).isEqualTo(expected);
        assertThat(p.holds(new DomainGtid(g.domain(), g.server() + 1, g.sequence())))
                .isEqualTo(expected);
    }

    @Property(tries = TRIES)
    void containsIsHoldingEveryGtidOfTheOther(
            @ForAll("positions") MariaDbGtidPosition p,
            @ForAll("positions") MariaDbGtidPosition q) {
        assertThat(p.contains(q)).isEqualTo(q.gtids().stream().allMatch(p::holds));
        assertThat(p.contains(p)).isTrue();
    }

    @Property(tries = TRIES)
    void theMeetIsTheGreatestPositionBothContain(
            @ForAll("positions") MariaDbGtidPosition p,
            @ForAll("positions") MariaDbGtidPosition q,
            @ForAll("positions") MariaDbGtidPosition r) {
        MariaDbGtidPosition meet = p.meet(q);

        assertThat(p.contains(meet)).isTrue();
        assertThat(q.contains(meet)).isTrue();
        if (p.contains(r) && q.contains(r)) {
            assertThat(meet.contains(r)).isTrue();
        }
        assertThat(q.meet(p).contains(meet) && meet.contains(q.meet(p))).isTrue();
        // the server id of each domain is one the two positions had there
        for (DomainGtid g : meet.gtids()) {
            assertThat(List.of(p.gtidOf(g.domain()).get(), q.gtidOf(g.domain()).get())).contains(g);
        }
    }

    @Property(tries = TRIES)
    void advanceByAFollowingGtidHoldsItAndEverythingBefore(
            @ForAll("positions") MariaDbGtidPosition p, @ForAll("gtids") DomainGtid g) {
        DomainGtid next =
                p.gtidOf(g.domain())
                        .map(
                                mine ->
                                        new DomainGtid(
                                                g.domain(),
                                                g.server(),
                                                mine.sequence() + g.sequence()))
                        .orElse(g);

        MariaDbGtidPosition advanced = p.advance(next);

        assertThat(advanced.holds(next)).isTrue();
        assertThat(advanced.contains(p)).isTrue();
        assertThat(p.contains(advanced)).isFalse();
        assertThat(advanced.gtidOf(next.domain())).contains(next);
    }
}

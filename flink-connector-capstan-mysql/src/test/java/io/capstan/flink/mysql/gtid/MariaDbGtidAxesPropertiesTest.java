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
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The correctness argument of {@link MariaDbGtidAxes} checked against random {@code
 * gtid_strict_mode} histories: transactions in a few domains, written by a few servers that take
 * over a domain at random (failovers), sequence numbers of a domain strictly growing with random
 * skips ({@code gtid_seq_no}). For a prefix of k transactions, S_k is the state after it, the last
 * GTID of each (domain, server id) pair, printed as {@code @@gtid_binlog_state} does (entries in
 * any order). Then the set of S_k holds exactly the prefix, its position is
 * {@code @@gtid_binlog_pos} of the prefix, the sets of two prefixes meet in the shorter one, and
 * folding {@link MariaDbGtidAxes#advance} over the history passes through every S_k.
 */
@Tag(FlinkLines.NEUTRAL)
class MariaDbGtidAxesPropertiesTest {

    private static final int DOMAINS = 4; // 0..3
    private static final int SERVERS = 4; // 1..4
    private static final int MAX_LENGTH = 40;
    private static final int TRIES = 300;

    /** One step of a history: a transaction in a domain, maybe after a failover to a server. */
    private record Step(long domain, long server, long skip, boolean failover) {}

    @Provide
    Arbitrary<List<DomainGtid>> histories() {
        Arbitrary<Long> skips =
                Arbitraries.frequencyOf(
                        Tuple.of(6, Arbitraries.just(0L)),
                        Tuple.of(3, Arbitraries.longs().between(1, 5)),
                        Tuple.of(1, Arbitraries.longs().between(6, 1_000_000)));
        Arbitrary<Step> steps =
                Combinators.combine(
                                Arbitraries.longs().between(0, DOMAINS - 1),
                                Arbitraries.longs().between(1, SERVERS),
                                skips,
                                Arbitraries.integers().between(0, 3).map(i -> i == 0))
                        .as(Step::new);
        return steps.list().ofMaxSize(MAX_LENGTH).map(MariaDbGtidAxesPropertiesTest::history);
    }

    /** The GTIDs the steps write under strict mode, in binlog order. */
    private static List<DomainGtid> history(List<Step> steps) {
        Map<Long, Long> lastSeq = new HashMap<>();
        Map<Long, Long> writer = new HashMap<>();
        List<DomainGtid> h = new ArrayList<>(steps.size());
        for (Step s : steps) {
            if (s.failover() || !writer.containsKey(s.domain())) {
                writer.put(s.domain(), s.server());
            }
            long seq = lastSeq.getOrDefault(s.domain(), 0L) + 1 + s.skip();
            lastSeq.put(s.domain(), seq);
            h.add(new DomainGtid(s.domain(), writer.get(s.domain()), seq));
        }
        return h;
    }

    /** {@code @@gtid_binlog_state} after the first k transactions, its entries shuffled. */
    private static String stateText(List<DomainGtid> h, int k, long seed) {
        Map<List<Long>, DomainGtid> last = new LinkedHashMap<>();
        for (DomainGtid g : h.subList(0, k)) {
            last.put(List.of(g.domain(), g.server()), g);
        }
        List<String> entries = new ArrayList<>();
        last.values().forEach(g -> entries.add(g.toString()));
        Collections.shuffle(entries, new Random(seed));
        return String.join(",", entries);
    }

    /** {@code @@gtid_binlog_pos} after the first k transactions: each domain's last GTID. */
    private static MariaDbGtidPosition binlogPos(List<DomainGtid> h, int k) {
        Map<Long, DomainGtid> last = new TreeMap<>();
        for (DomainGtid g : h.subList(0, k)) {
            last.put(g.domain(), g);
        }
        return MariaDbGtidPosition.of(new ArrayList<>(last.values()));
    }

    private static int prefix(List<DomainGtid> h, int pick) {
        return pick % (h.size() + 1);
    }

    @Property(tries = TRIES)
    void theSetOfAStateHoldsExactlyTheTransactionsBeforeIt(
            @ForAll("histories") List<DomainGtid> h,
            @ForAll @IntRange(min = 0, max = 1000) int pick,
            @ForAll long seed) {
        int k = prefix(h, pick);

        GtidSet s = MariaDbGtidAxes.ofState(stateText(h, k, seed));

        for (int i = 0; i < h.size(); i++) {
            assertThat(s.contains(MariaDbGtidAxes.gtid(h.get(i))))
                    .as("transaction %d (%s) of a state after %d", i, h.get(i), k)
                    .isEqualTo(i < k);
        }
        assertThat(k == 0 ? s.isEmpty() : MariaDbGtidAxes.isMariaDbSet(s)).isTrue();
    }

    @Property(tries = TRIES)
    void thePositionOfAStateIsTheBinlogPosOfThePrefix(
            @ForAll("histories") List<DomainGtid> h,
            @ForAll @IntRange(min = 0, max = 1000) int pick,
            @ForAll long seed) {
        int k = prefix(h, pick);
        MariaDbGtidPosition expected = binlogPos(h, k);

        MariaDbGtidPosition p =
                MariaDbGtidAxes.position(MariaDbGtidAxes.ofState(stateText(h, k, seed)));

        assertThat(p).isEqualTo(expected);
        assertThat(p).hasToString(expected.toString());
        MariaDbGtidPosition parsed = MariaDbGtidPosition.parse(p.toString());
        for (int i = 0; i < h.size(); i++) {
            assertThat(parsed.holds(h.get(i)))
                    .as("transaction %d (%s) of a position after %d", i, h.get(i), k)
                    .isEqualTo(i < k);
        }
        if (k > 0) {
            assertThat(MariaDbGtidAxes.readable(MariaDbGtidAxes.ofState(stateText(h, k, seed))))
                    .isEqualTo("MariaDB GTID position '" + expected + "'");
        }
    }

    @Property(tries = TRIES)
    void theSetsOfTwoStatesMeetInTheEarlierOne(
            @ForAll("histories") List<DomainGtid> h,
            @ForAll @IntRange(min = 0, max = 1000) int pickA,
            @ForAll @IntRange(min = 0, max = 1000) int pickB,
            @ForAll long seed) {
        int a = prefix(h, pickA);
        int b = prefix(h, pickB);
        int k = Math.min(a, b);
        int j = Math.max(a, b);
        GtidSet earlier = MariaDbGtidAxes.ofState(stateText(h, k, seed));
        GtidSet later = MariaDbGtidAxes.ofState(stateText(h, j, seed + 1));

        assertThat(earlier.intersect(later)).isEqualTo(earlier);
        assertThat(later.intersect(earlier)).isEqualTo(earlier);
        assertThat(later.containsAll(earlier)).isTrue();
        assertThat(later.union(earlier)).isEqualTo(later);
        assertThat(MariaDbGtidAxes.position(earlier.intersect(later))).isEqualTo(binlogPos(h, k));
        if (k < j) {
            assertThat(earlier.containsAll(later)).isFalse();
        }
    }

    @Property(tries = TRIES)
    void advancingOverTheHistoryPassesThroughEveryState(
            @ForAll("histories") List<DomainGtid> h, @ForAll long seed) {
        GtidSet processed = GtidSet.empty();
        assertThat(processed).isEqualTo(MariaDbGtidAxes.ofState(stateText(h, 0, seed)));

        for (int i = 0; i < h.size(); i++) {
            processed = MariaDbGtidAxes.advance(processed, MariaDbGtidAxes.gtid(h.get(i)));

            assertThat(processed)
                    .as("after transaction %d (%s)", i, h.get(i))
                    .isEqualTo(MariaDbGtidAxes.ofState(stateText(h, i + 1, seed)));
        }
    }

    @Provide
    Arbitrary<MariaDbGtidPosition> positions() {
        Arbitrary<Long> ids =
                Arbitraries.oneOf(
                        Arbitraries.longs().between(0, 4),
                        Arbitraries.just(MariaDbGtidPosition.MAX_ID),
                        Arbitraries.longs().between(0, MariaDbGtidPosition.MAX_ID));
        Arbitrary<Long> sequences =
                Arbitraries.oneOf(
                        Arbitraries.longs().between(1, 20),
                        Arbitraries.just(MariaDbGtidPosition.MAX_SEQUENCE),
                        Arbitraries.longs().between(1, MariaDbGtidPosition.MAX_SEQUENCE));
        return Combinators.combine(ids, ids, sequences)
                .as(DomainGtid::new)
                .list()
                .ofMaxSize(6)
                .map(
                        gtids -> {
                            Map<Long, DomainGtid> oneEach = new LinkedHashMap<>();
                            gtids.forEach(g -> oneEach.putIfAbsent(g.domain(), g));
                            return MariaDbGtidPosition.of(new ArrayList<>(oneEach.values()));
                        });
    }

    @Property(tries = TRIES)
    void aPositionComesBackFromItsSet(@ForAll("positions") MariaDbGtidPosition p) {
        GtidSet set = MariaDbGtidAxes.of(p);

        assertThat(MariaDbGtidAxes.position(set)).isEqualTo(p);
        assertThat(set.sourceIds()).hasSize(p.gtids().size());
        for (DomainGtid g : p.gtids()) {
            assertThat(set.contains(MariaDbGtidAxes.gtid(g))).isTrue();
            assertThat(MariaDbGtidAxes.domainGtid(MariaDbGtidAxes.gtid(g))).isEqualTo(g);
        }
    }
}

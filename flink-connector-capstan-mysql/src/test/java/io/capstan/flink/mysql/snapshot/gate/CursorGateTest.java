package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.table.data.GenericRowData;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CursorGateTest {
    private static final String U1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String U2 = "8a94f357-aab4-11df-86ab-c80aa9429563";

    /** Random tiling of an integer key space into chunks, each with a random G. */
    private static List<FinishedChunk> randomChunks(Random r, int chunks) {
        TreeSet<Long> bounds = new TreeSet<>();
        while (bounds.size() < chunks - 1) {
            bounds.add((long) r.nextInt(200) - 100);
        }
        List<Long> b = new ArrayList<>(bounds);
        List<FinishedChunk> out = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            KeyTuple low = i == 0 ? null : KeyTuple.of(b.get(i - 1));
            KeyTuple high = i == chunks - 1 ? null : KeyTuple.of(b.get(i));
            GtidSet.Builder g = GtidSet.builder().addRange(U1, "", 1, 1 + r.nextInt(30));
            if (r.nextBoolean()) {
                g.addRange(U2, "", 1 + r.nextInt(5), 5 + r.nextInt(10));
            }
            out.add(new FinishedChunk(ChunkRange.of(low, high), g.build()));
        }
        Collections.shuffle(out, r); // the gate sorts them
        return out;
    }

    @Property(tries = 300)
    void suppressesExactlyWhenTheTransactionIsInTheHoldingChunksG(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int chunkCount) {
        Random r = new Random(seed);
        ChunkKey key = TestKeys.bigint();
        List<FinishedChunk> chunks = randomChunks(r, chunkCount);
        CursorGate gate = CursorGate.of(Map.of(key, chunks));
        KeyComparator order = KeyComparator.of(key);
        for (int i = 0; i < 200; i++) {
            KeyTuple k = KeyTuple.of((long) r.nextInt(240) - 120);
            Gtid g = Gtid.of(r.nextBoolean() ? U1 : U2, 1 + r.nextInt(32));
            FinishedChunk holder =
                    chunks.stream()
                            .filter(c -> c.range().contains(k, order))
                            .reduce(
                                    (a, b) -> {
                                        throw new AssertionError("two chunks hold one key");
                                    })
                            .orElseThrow();
            assertThat(gate.suppress(key.table(), k, g)).isEqualTo(holder.gtidSet().contains(g));
        }
    }

    @Property(tries = 100)
    void survivesItsSerializedForm(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int chunkCount)
            throws IOException {
        Random r = new Random(seed);
        ChunkKey key = TestKeys.bigint();
        CursorGate gate = CursorGate.of(Map.of(key, randomChunks(r, chunkCount)));
        CursorGate back = CursorGateSerializer.fromBytes(CursorGateSerializer.toBytes(gate));
        assertThat(back.chunkCount()).isEqualTo(gate.chunkCount());
        for (int i = 0; i < 200; i++) {
            KeyTuple k = KeyTuple.of((long) r.nextInt(240) - 120);
            Gtid g = Gtid.of(r.nextBoolean() ? U1 : U2, 1 + r.nextInt(32));
            assertThat(back.suppress(key.table(), k, g))
                    .isEqualTo(gate.suppress(key.table(), k, g));
        }
        assertThat(back.startPosition()).isEqualTo(gate.startPosition());
    }

    @Property(tries = 100)
    void finishedChunksSurviveTheirSerializedForm(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int chunkCount)
            throws IOException {
        for (FinishedChunk c : randomChunks(new Random(seed), chunkCount)) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            FinishedChunkSerializer.write(c, new java.io.DataOutputStream(bytes));
            assertThat(
                            FinishedChunkSerializer.read(
                                    new java.io.DataInputStream(
                                            new java.io.ByteArrayInputStream(bytes.toByteArray()))))
                    .isEqualTo(c);
        }
    }

    @Test
    void gatesRowImagesByTheirKeyColumns() {
        ChunkKey key = TestKeys.of(KeyKind.INTEGER, KeyKind.INTEGER); // key fields 0 and 1
        GtidSet g1 = GtidSet.parse(U1 + ":1-10");
        GtidSet g2 = GtidSet.parse(U1 + ":1-20");
        CursorGate gate =
                CursorGate.of(
                        Map.of(
                                key,
                                List.of(
                                        new FinishedChunk(
                                                ChunkRange.of(null, KeyTuple.of(5, 0)), g1),
                                        new FinishedChunk(
                                                ChunkRange.of(KeyTuple.of(5, 0), null), g2))));
        Gtid fifteen = Gtid.of(U1, 15);
        assertThat(gate.suppress(key.table(), GenericRowData.of(4, 99, "x"), fifteen)).isFalse();
        assertThat(gate.suppress(key.table(), GenericRowData.of(5, 0, "x"), fifteen)).isTrue();
        assertThat(gate.suppress(key.table(), KeyTuple.of(4, 99), Gtid.of(U1, 10))).isTrue();
        assertThat(gate.suppress(TableId.of("db", "other"), KeyTuple.of(4, 99), fifteen)).isFalse();
    }

    /**
     * String keys in a PAD SPACE binary collation: a binlog row image's key (as the binlog reads
     * it, without trailing spaces of a VARCHAR stripped) finds the chunk the server's ORDER BY put
     * it in, so trailing spaces do not move a key across a boundary, and 'm' + tab sorts before
     * 'm'.
     */
    @Test
    void gatesStringKeysByTheirPaddedOrder() {
        ChunkKey key = TestKeys.of(KeyKind.STRING_PAD_SPACE);
        GtidSet early = GtidSet.parse(U1 + ":1-10");
        GtidSet late = GtidSet.parse(U1 + ":1-20");
        CursorGate gate =
                CursorGate.of(
                        Map.of(
                                key,
                                List.of(
                                        new FinishedChunk(
                                                ChunkRange.of(null, KeyTuple.of(str("m"))), early),
                                        new FinishedChunk(
                                                ChunkRange.of(KeyTuple.of(str("m")), null),
                                                late))));
        Gtid fifteen = Gtid.of(U1, 15); // in the later chunk's G only
        assertThat(gate.suppress(key.table(), GenericRowData.of(str("m")), fifteen)).isTrue();
        assertThat(gate.suppress(key.table(), GenericRowData.of(str("m  ")), fifteen))
                .as("equal to 'm' under PAD SPACE: the later chunk")
                .isTrue();
        assertThat(gate.suppress(key.table(), GenericRowData.of(str("m\t")), fifteen))
                .as("a tab sorts below the padding space: before 'm' (a plain compare says after)")
                .isFalse();
        assertThat(gate.suppress(key.table(), GenericRowData.of(str("l\uD83D\uDE00")), fifteen))
                .as("below 'm' whatever follows")
                .isFalse();
        assertThat(gate.suppress(key.table(), GenericRowData.of(str("M")), fifteen))
                .as("binary collation: 'M' < 'm'")
                .isFalse();
        assertThat(gate.suppress(key.table(), GenericRowData.of(str("é")), fifteen))
                .as("UTF-8 bytes: 'é' > 'm'")
                .isTrue();
    }

    private static org.apache.flink.table.data.StringData str(String s) {
        return org.apache.flink.table.data.StringData.fromString(s);
    }

    @Test
    void retiresATableOnceTheProcessedSetHoldsEveryG() {
        ChunkKey a = TestKeys.bigint();
        ChunkKey b = new ChunkKey(TableId.of("db", "b"), a.columns(), ChunkKey.Source.PRIMARY_KEY);
        Map<ChunkKey, List<FinishedChunk>> finished = new LinkedHashMap<>();
        finished.put(
                a,
                List.of(
                        new FinishedChunk(
                                ChunkRange.of(null, KeyTuple.of(10L)), GtidSet.parse(U1 + ":1-5")),
                        new FinishedChunk(
                                ChunkRange.of(KeyTuple.of(10L), null),
                                GtidSet.parse(U1 + ":1-7," + U2 + ":3"))));
        finished.put(b, List.of(new FinishedChunk(ChunkRange.all(), GtidSet.parse(U1 + ":1-9"))));
        CursorGate gate = CursorGate.of(finished);
        assertThat(gate.startPosition()).contains(GtidSet.parse(U1 + ":1-5"));
        assertThat(gate.chunkCount()).isEqualTo(3);

        // U2:3 not yet processed: table a stays gated even though U1 is past its G
        CursorGate g1 = gate.retire(GtidSet.parse(U1 + ":1-9"));
        assertThat(g1.gatedTables()).containsExactly(a.table());
        assertThat(g1.isGated(b.table())).isFalse();
        assertThat(g1.suppress(b.table(), KeyTuple.of(1L), Gtid.of(U1, 3))).isFalse();
        assertThat(g1.suppress(a.table(), KeyTuple.of(1L), Gtid.of(U1, 3))).isTrue();

        CursorGate g2 = g1.retire(GtidSet.parse(U1 + ":1-9," + U2 + ":1-3"));
        assertThat(g2.gatedTables()).isEmpty();
        assertThat(g2.chunkCount()).isZero();
        assertThat(CursorGateSerializer.toBytes(g2).length)
                .isLessThan(CursorGateSerializer.toBytes(gate).length);
        assertThat(g1.retire(GtidSet.parse(U1 + ":1-3"))).isSameAs(g1);
    }

    @Test
    void aTableIsInProgressAtATransactionThatSomeButNotAllOfItsChunksSaw() {
        ChunkKey a = TestKeys.bigint();
        ChunkKey b = new ChunkKey(TableId.of("db", "b"), a.columns(), ChunkKey.Source.PRIMARY_KEY);
        Map<ChunkKey, List<FinishedChunk>> finished = new LinkedHashMap<>();
        finished.put(
                a,
                List.of(
                        new FinishedChunk(
                                ChunkRange.of(null, KeyTuple.of(10L)), GtidSet.parse(U1 + ":1-5")),
                        new FinishedChunk(
                                ChunkRange.of(KeyTuple.of(10L), null),
                                GtidSet.parse(U1 + ":1-8"))));
        finished.put(b, List.of(new FinishedChunk(ChunkRange.all(), GtidSet.parse(U1 + ":1-7"))));
        CursorGate gate = CursorGate.of(finished);
        assertThat(gate.tablesInProgressAt(Gtid.of(U1, 3))).isEmpty(); // before every chunk
        assertThat(gate.tablesInProgressAt(Gtid.of(U1, 6))).containsExactly(a.table());
        assertThat(gate.tablesInProgressAt(Gtid.of(U1, 9))).isEmpty(); // after every chunk
        assertThat(gate.tablesInProgressAt(Gtid.of(U2, 1))).isEmpty();
    }

    @Test
    void theStartPositionIsTheIntersectionOfAllG() {
        assertThat(
                        CursorGate.startPosition(
                                List.of(
                                        GtidSet.parse(U1 + ":1-10:12," + U2 + ":1-4"),
                                        GtidSet.parse(U1 + ":1-12"),
                                        GtidSet.parse(U1 + ":2-11," + U2 + ":1"))))
                .contains(GtidSet.parse(U1 + ":2-10"));
        assertThat(CursorGate.startPosition(List.of())).isEqualTo(Optional.empty());
    }

    @Test
    void refusesChunksThatDoNotTileTheKeySpace() {
        ChunkKey key = TestKeys.bigint();
        GtidSet g = GtidSet.parse(U1 + ":1");
        List<List<FinishedChunk>> bad =
                List.of(
                        List.of(
                                new FinishedChunk(
                                        ChunkRange.of(null, KeyTuple.of(1L)), g)), // last missing
                        List.of(
                                new FinishedChunk(
                                        ChunkRange.of(KeyTuple.of(1L), null), g)), // first missing
                        List.of(
                                new FinishedChunk(ChunkRange.of(null, KeyTuple.of(1L)), g),
                                new FinishedChunk(ChunkRange.of(KeyTuple.of(2L), null), g)), // gap
                        List.of(
                                new FinishedChunk(ChunkRange.of(null, KeyTuple.of(3L)), g),
                                new FinishedChunk(
                                        ChunkRange.of(KeyTuple.of(2L), null), g)), // overlap
                        List.of());
        for (List<FinishedChunk> chunks : bad) {
            assertThatThrownBy(() -> CursorGate.of(Map.of(key, chunks)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t");
        }
    }

    @Test
    void sharesEqualGsInItsStateAndPrintsNoValue() {
        ChunkKey key = TestKeys.bigint();
        GtidSet g = GtidSet.parse(U1 + ":1-1000000");
        List<FinishedChunk> chunks = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            chunks.add(
                    new FinishedChunk(
                            ChunkRange.of(
                                    i == 0 ? null : KeyTuple.of(1_000_000_000L + i * 1000L),
                                    i == 999
                                            ? null
                                            : KeyTuple.of(1_000_000_000L + (i + 1) * 1000L)),
                            g));
        }
        CursorGate gate = CursorGate.of(Map.of(key, chunks));
        int bytes = CursorGateSerializer.toBytes(gate).length;
        assertThat(bytes).isLessThan(1000 * 12 + 200); // ~11 bytes per chunk boundary + one G
        assertThat(gate.toString()).isEqualTo("CursorGate{tables=1, chunks=1000}");
        assertThat(chunks.get(5).toString()).doesNotContain("1000005");
    }
}

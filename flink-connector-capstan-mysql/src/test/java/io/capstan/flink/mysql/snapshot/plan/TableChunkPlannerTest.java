package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TableChunkPlannerTest {

    /** Two keys this far apart are 1.5 times the density limit: never split arithmetically. */
    private static final long SPARSE_SPACING = 5;

    private static List<SnapshotChunk> planAll(TableChunkPlanner p) throws IOException {
        List<SnapshotChunk> out = new ArrayList<>();
        for (Optional<SnapshotChunk> c = p.next(); c.isPresent(); c = p.next()) {
            out.add(c.get());
            assertThat(out.size()).as("runaway planner").isLessThan(100_000);
        }
        return out;
    }

    /** Chunks are numbered 0.., tile the key space, and every key lies in exactly one. */
    private static void assertTiles(
            List<SnapshotChunk> chunks, ChunkKey key, Iterable<KeyTuple> keys) {
        KeyComparator order = KeyComparator.of(key);
        assertThat(chunks).isNotEmpty();
        assertThat(chunks.get(0).range().low()).isNull();
        assertThat(chunks.get(chunks.size() - 1).range().high()).isNull();
        for (int i = 0; i < chunks.size(); i++) {
            assertThat(chunks.get(i).index()).isEqualTo(i);
            if (i > 0) {
                assertThat(
                                order.compare(
                                        chunks.get(i - 1).range().high(),
                                        chunks.get(i).range().low()))
                        .isZero();
                assertThat(chunks.get(i).range().low()).isNotNull();
            }
            if (chunks.get(i).range().low() != null && chunks.get(i).range().high() != null) {
                assertThat(order.compare(chunks.get(i).range().low(), chunks.get(i).range().high()))
                        .isNegative();
            }
        }
        for (KeyTuple k : keys) {
            assertThat(chunks.stream().filter(c -> c.range().contains(k, order)).count())
                    .isEqualTo(1);
        }
    }

    private static int rowsIn(SnapshotChunk c, InMemoryBoundaryQueries q, KeyComparator order) {
        return (int) q.keys.stream().filter(k -> c.range().contains(k, order)).count();
    }

    /**
     * Keys are spaced {@link #SPARSE_SPACING} apart, so any two or more span more than {@link
     * TableChunkPlanner#DENSITY_LIMIT} values per row and the planner must use boundary queries (a
     * random set may by chance be dense, and dense keys are split arithmetically, where chunks need
     * not be full).
     */
    @Property(tries = 200)
    void sparseIntegerKeysAreSplitByQueriesIntoChunksOfAtMostChunkSize(
            @ForAll @Size(max = 200) Set<@IntRange(min = -20_000, max = 20_000) Integer> ids,
            @ForAll @IntRange(min = 1, max = 30) int chunkSize)
            throws IOException {
        ChunkKey key = TestKeys.bigint();
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        ids.forEach(i -> q.keys.add(KeyTuple.of((long) i * SPARSE_SPACING)));
        List<SnapshotChunk> chunks = planAll(new TableChunkPlanner(key, chunkSize, q));
        assertTiles(chunks, key, q.keys);
        if (ids.size() >= 2) {
            assertThat(q.boundaryQueries).as("sparse keys are split by queries").isPositive();
        }
        for (SnapshotChunk c : chunks) {
            assertThat(rowsIn(c, q, KeyComparator.of(key))).isLessThanOrEqualTo(chunkSize);
        }
        // query mode fills chunks: only the last may be short
        for (int i = 0; i < chunks.size() - 1; i++) {
            assertThat(rowsIn(chunks.get(i), q, KeyComparator.of(key))).isEqualTo(chunkSize);
        }
    }

    @Property(tries = 200)
    void denseIntegerKeysAreSplitArithmeticallyWithoutBoundaryQueries(
            @ForAll @IntRange(min = -1000, max = 1000) int start,
            @ForAll @IntRange(min = 1, max = 500) int count,
            @ForAll @IntRange(min = 1, max = 40) int chunkSize,
            @ForAll @IntRange(max = 3) int holesEvery)
            throws IOException {
        ChunkKey key = TestKeys.bigint();
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        for (int i = 0; i < count; i++) {
            if (holesEvery == 0 || i % (holesEvery + 1) != 1) {
                q.keys.add(KeyTuple.of((long) start + i));
            }
        }
        List<SnapshotChunk> chunks = planAll(new TableChunkPlanner(key, chunkSize, q));
        assertTiles(chunks, key, q.keys);
        assertThat(q.boundaryQueries).isZero();
        for (SnapshotChunk c : chunks) {
            assertThat(rowsIn(c, q, KeyComparator.of(key))).isLessThanOrEqualTo(chunkSize);
            if (c.range().high() != null) {
                assertThat(c.range().high().get(0)).isInstanceOf(Long.class);
            }
        }
    }

    @Test
    void arithmeticBoundariesKeepTheColumnsBoxedClass() throws IOException {
        ChunkKey key = TestKeys.of(KeyKind.INTEGER);
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        for (int i = 1; i <= 10; i++) {
            q.keys.add(KeyTuple.of(i)); // INT: Integer
        }
        List<SnapshotChunk> chunks = planAll(new TableChunkPlanner(key, 3, q));
        assertThat(chunks).hasSize(4);
        assertThat(chunks.get(1).range().low().get(0)).isEqualTo(4);
    }

    @Test
    void rowsAppendedDuringPlanningExtendArithmeticPlanningInsteadOfTheLastChunk()
            throws IOException {
        ChunkKey key = TestKeys.bigint();
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        for (long i = 1; i <= 10; i++) {
            q.keys.add(KeyTuple.of(i));
        }
        TableChunkPlanner p = new TableChunkPlanner(key, 5, q);
        p.next();
        for (long i = 11; i <= 100; i++) { // an auto-increment burst after MAX was first read
            q.keys.add(KeyTuple.of(i));
        }
        List<SnapshotChunk> rest = planAll(p);
        for (SnapshotChunk c : rest) {
            assertThat(rowsIn(c, q, KeyComparator.of(key))).isLessThanOrEqualTo(5);
        }
    }

    @Test
    void anEmptyTableIsOneChunkOverEverything() throws IOException {
        for (ChunkKey key :
                List.of(TestKeys.bigint(), TestKeys.of(KeyKind.VARBINARY, KeyKind.DATE))) {
            InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
            TableChunkPlanner p = new TableChunkPlanner(key, 10, q);
            assertThat(planAll(p))
                    .containsExactly(new SnapshotChunk(key.table(), 0, ChunkRange.all()));
            assertThat(p.isFinished()).isTrue();
            assertThat(p.state().nextIndex()).isEqualTo(1);
        }
    }

    @Test
    void aOneRowTableIsOneChunkOverEverything() throws IOException {
        ChunkKey key = TestKeys.of(KeyKind.VARBINARY);
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        q.keys.add(KeyTuple.of(new byte[] {7}));
        assertThat(planAll(new TableChunkPlanner(key, 10, q)))
                .containsExactly(new SnapshotChunk(key.table(), 0, ChunkRange.all()));
    }

    @Property(tries = 200)
    void compositeKeysAreSplitByQueries(
            @ForAll @Size(max = 150) Set<@IntRange(max = 30) Integer> as,
            @ForAll @IntRange(min = 1, max = 20) int chunkSize)
            throws IOException {
        ChunkKey key = TestKeys.of(KeyKind.INTEGER, KeyKind.VARBINARY);
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        for (int a : as) {
            for (int b = 0; b < a % 4; b++) {
                q.keys.add(KeyTuple.of(a % 7, new byte[] {(byte) a, (byte) (b * 100)}));
            }
        }
        List<SnapshotChunk> chunks = planAll(new TableChunkPlanner(key, chunkSize, q));
        assertTiles(chunks, key, q.keys);
        for (SnapshotChunk c : chunks) {
            assertThat(rowsIn(c, q, KeyComparator.of(key))).isLessThanOrEqualTo(chunkSize);
        }
    }

    @Property(tries = 100)
    void resumingFromASerializedStatePlansTheSameChunks(
            @ForAll @Size(max = 120) Set<@IntRange(min = 0, max = 400) Integer> ids,
            @ForAll @IntRange(min = 1, max = 10) int chunkSize,
            @ForAll @IntRange(max = 20) int stopAfter)
            throws IOException {
        ChunkKey key = TestKeys.bigint();
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(key);
        ids.forEach(i -> q.keys.add(KeyTuple.of((long) i)));
        List<SnapshotChunk> straight = planAll(new TableChunkPlanner(key, chunkSize, q));

        TableChunkPlanner first = new TableChunkPlanner(key, chunkSize, q);
        List<SnapshotChunk> resumed = new ArrayList<>();
        for (int i = 0; i < stopAfter; i++) {
            first.next().ifPresent(resumed::add);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChunkPlannerStateSerializer.write(first.state(), new DataOutputStream(bytes));
        ChunkPlannerState restored =
                ChunkPlannerStateSerializer.read(
                        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(restored).isEqualTo(first.state());
        resumed.addAll(planAll(new TableChunkPlanner(key, chunkSize, q, restored)));
        assertThat(resumed).isEqualTo(straight);
    }

    @Test
    void chunksSerializeAndPrintNoBoundary() throws IOException {
        SnapshotChunk c =
                new SnapshotChunk(
                        TestKeys.TABLE,
                        3,
                        ChunkRange.of(KeyTuple.of(987654321L), KeyTuple.of(987654999L)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChunkPlannerStateSerializer.writeChunk(c, new DataOutputStream(bytes));
        assertThat(
                        ChunkPlannerStateSerializer.readChunk(
                                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
                .isEqualTo(c);
        assertThat(c.toString()).doesNotContain("987654").contains("db.t#3");
        assertThat(c.range().toString()).isEqualTo("ChunkRange{low=bounded, high=bounded}");
        ChunkPlannerState s =
                new ChunkPlannerState(
                        TestKeys.TABLE,
                        ChunkPlannerState.Mode.QUERY,
                        4,
                        KeyTuple.of(987654321L),
                        null);
        assertThat(s.toString()).doesNotContain("987654");
    }

    @Test
    void aSnapshotPlannerWalksTablesInOrder() throws IOException {
        ChunkKey a = TestKeys.bigint();
        ChunkKey b =
                new ChunkKey(
                        io.capstan.flink.mysql.schema.TableId.of("db", "u"),
                        a.columns(),
                        ChunkKey.Source.PRIMARY_KEY);
        InMemoryBoundaryQueries q = new InMemoryBoundaryQueries(a); // both tables share the keys
        for (long i = 0; i < 7; i++) {
            q.keys.add(KeyTuple.of(i));
        }
        SnapshotPlanner p = new SnapshotPlanner(List.of(a, b), 3, q, java.util.Map.of());
        List<String> ids = new ArrayList<>();
        for (Optional<SnapshotChunk> c = p.next(); c.isPresent(); c = p.next()) {
            ids.add(c.get().id());
        }
        assertThat(ids).containsExactly("db.t#0", "db.t#1", "db.t#2", "db.u#0", "db.u#1", "db.u#2");
        assertThat(p.isFinished()).isTrue();
        assertThat(p.chunkCount(a.table())).contains(3);
    }
}

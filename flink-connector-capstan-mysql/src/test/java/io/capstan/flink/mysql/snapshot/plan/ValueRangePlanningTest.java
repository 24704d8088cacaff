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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chunks of a non-unique column's values: planning always ends, the chunks tile the value space,
 * every row is in exactly one chunk, all rows of a value are in the same chunk, and a chunk holds
 * at least {@code chunkSize} rows (but the last) and more only to keep its last value whole.
 */
class ValueRangePlanningTest {

    private static final ChunkKey KEY =
            new ChunkKey(
                    TestKeys.TABLE,
                    List.of(TestKeys.column("a", 0, KeyKind.INTEGER, 0, "int")),
                    ChunkKey.Source.VALUE_RANGE_COLUMN);

    @Property(tries = 300)
    void chunksHoldWholeValuesAndEveryRowOnce(
            @ForAll @Size(max = 300) List<@IntRange(min = -20, max = 40) Integer> column,
            @ForAll @IntRange(min = 1, max = 25) int chunkSize)
            throws IOException {
        List<Long> rows = column.stream().map(Integer::longValue).sorted().toList();
        SortedRows table = new SortedRows(rows);
        List<SnapshotChunk> chunks = new ArrayList<>();
        TableChunkPlanner planner = new TableChunkPlanner(KEY, chunkSize, table);
        for (Optional<SnapshotChunk> c = planner.next(); c.isPresent(); c = planner.next()) {
            chunks.add(c.get());
            assertThat(chunks.size()).as("planning ends").isLessThanOrEqualTo(rows.size() + 1);
        }
        KeyComparator order = KeyComparator.of(KEY);
        int[] perChunk = new int[chunks.size()];
        for (long v : rows) {
            int holders = 0;
            for (SnapshotChunk c : chunks) {
                if (c.range().contains(KeyTuple.of(v), order)) {
                    holders++;
                    perChunk[c.index()]++;
                }
            }
            assertThat(holders).as("chunks holding a row of value %s", v).isEqualTo(1);
        }
        for (int i = 0; i < chunks.size() - 1; i++) {
            assertThat(perChunk[i]).as("rows of chunk %s", i).isGreaterThanOrEqualTo(chunkSize);
            // Above chunkSize only by rows of the chunk's last value, which must stay whole.
            long last = (Long) chunks.get(i + 1).range().low().get(0);
            long before = rows.stream().filter(v -> v < last).count();
            long lastValue = rows.stream().filter(v -> v < last).reduce((x, y) -> y).orElseThrow();
            long ofLastValue = rows.stream().filter(v -> v == lastValue).count();
            assertThat(perChunk[i]).isLessThan(chunkSize + (int) ofLastValue);
            assertThat(before).isPositive();
        }
    }

    /** A table's column values, sorted, with duplicates: the server's answers. */
    private static final class SortedRows implements BoundaryQueries {
        private final List<Long> rows;

        SortedRows(List<Long> rows) {
            this.rows = rows;
        }

        @Override
        public long estimatedRowCount(ChunkKey key) {
            return rows.size();
        }

        @Override
        public Optional<KeyTuple> min(ChunkKey key) {
            return rows.isEmpty() ? Optional.empty() : Optional.of(KeyTuple.of(rows.get(0)));
        }

        @Override
        public Optional<KeyTuple> max(ChunkKey key) {
            return rows.isEmpty()
                    ? Optional.empty()
                    : Optional.of(KeyTuple.of(rows.get(rows.size() - 1)));
        }

        @Override
        public Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count) {
            List<Long> atLeast =
                    low == null ? rows : rows.stream().filter(v -> v >= (Long) low.get(0)).toList();
            return count < atLeast.size()
                    ? Optional.of(KeyTuple.of(atLeast.get(count)))
                    : Optional.empty();
        }

        @Override
        public Optional<KeyTuple> firstAbove(ChunkKey key, KeyTuple value) {
            return rows.stream().filter(v -> v > (Long) value.get(0)).findFirst().map(KeyTuple::of);
        }
    }
}

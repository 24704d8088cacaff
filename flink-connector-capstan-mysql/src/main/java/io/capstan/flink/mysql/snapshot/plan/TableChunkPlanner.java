package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Plans the chunks of one table lazily, one per {@link #next()} call, so that only the chunks in
 * flight exist in memory and the checkpointed progress is one {@link ChunkPlannerState}.
 *
 * <p>A dense single integer key (range / estimated rows at most {@link #DENSITY_LIMIT}) is split
 * arithmetically into ranges of {@code chunkSize} consecutive integers, which can never hold more
 * than {@code chunkSize} rows. Any other key is split by boundary queries that skip {@code
 * chunkSize} keys; for a key of a column's values ({@link ChunkKey#valueRanges}) each chunk ends at
 * the first value above its {@code chunkSize}-th row's, so all rows of a value are in one chunk (a
 * value with very many rows makes one big chunk). A keyless table is one chunk. The last chunk is
 * open-ended and planned only when reached (re-reading MAX in arithmetic mode), so rows inserted
 * meanwhile land in bounded chunks rather than in one huge tail. Not thread-safe: call it from one
 * thread (the enumerator's planning task).
 */
@Internal
public final class TableChunkPlanner {

    /** Above this many key values per estimated row the key is sparse: use boundary queries. */
    public static final double DENSITY_LIMIT = 2.0;

    private final ChunkKey key;
    private final int chunkSize;
    private final BoundaryQueries queries;
    private ChunkPlannerState state;

    public TableChunkPlanner(
            ChunkKey key, int chunkSize, BoundaryQueries queries, ChunkPlannerState state) {
        this.key = Objects.requireNonNull(key, "key");
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunk size must be >= 1");
        }
        this.chunkSize = chunkSize;
        this.queries = Objects.requireNonNull(queries, "queries");
        this.state = Objects.requireNonNull(state, "state");
        if (!state.table().equals(key.table())) {
            throw new IllegalArgumentException("planner state belongs to another table");
        }
    }

    public TableChunkPlanner(ChunkKey key, int chunkSize, BoundaryQueries queries) {
        this(key, chunkSize, queries, ChunkPlannerState.start(key.table()));
    }

    /** The progress to checkpoint; every chunk returned so far is reflected in it. */
    public ChunkPlannerState state() {
        return state;
    }

    public boolean isFinished() {
        return state.isFinished();
    }

    /** The next chunk in key order, or empty when the table is fully planned. */
    public Optional<SnapshotChunk> next() throws IOException {
        switch (state.mode()) {
            case NOT_STARTED:
                return start();
            case ARITHMETIC:
                return nextArithmetic();
            case QUERY:
                return nextByQuery();
            case FINISHED:
            default:
                return Optional.empty();
        }
    }

    private Optional<SnapshotChunk> start() throws IOException {
        if (key.isKeyless()) {
            // No key to cut by: one chunk over all rows, read in one read view at one G.
            return emitLast(null);
        }
        Optional<KeyTuple> min = queries.min(key);
        if (min.isEmpty()) {
            // An empty table is one chunk over the whole key space; it completes with zero rows.
            return emitLast(null);
        }
        // Arithmetic ranges bound a chunk's rows only where each value is one row.
        if (key.isSingleInteger() && !key.valueRanges() && isIntegral(min.get().get(0))) {
            Optional<KeyTuple> max = queries.max(key);
            if (max.isEmpty()) {
                return emitLast(null);
            }
            long lo = ((Number) min.get().get(0)).longValue();
            long hi = ((Number) max.get().get(0)).longValue();
            long estimate = Math.max(1, queries.estimatedRowCount(key));
            double density = ((double) hi - (double) lo + 1.0) / (double) estimate;
            if (density <= DENSITY_LIMIT) {
                state =
                        new ChunkPlannerState(
                                key.table(),
                                ChunkPlannerState.Mode.ARITHMETIC,
                                0,
                                min.get(),
                                max.get());
                return nextArithmetic();
            }
        }
        state = new ChunkPlannerState(key.table(), ChunkPlannerState.Mode.QUERY, 0, null, null);
        return nextByQuery();
    }

    private Optional<SnapshotChunk> nextArithmetic() throws IOException {
        Object template = state.nextLow().get(0);
        long low = ((Number) template).longValue();
        long max = ((Number) state.knownMax().get(0)).longValue();
        KeyTuple knownMax = state.knownMax();
        long high = low + chunkSize;
        boolean overflow = high < low;
        if (overflow || high > max) {
            // Rows may have been appended since MAX was read: look again before closing the range.
            Optional<KeyTuple> latest = queries.max(key);
            if (latest.isPresent()) {
                long m = ((Number) latest.get().get(0)).longValue();
                if (m > max) {
                    max = m;
                    knownMax = latest.get();
                }
            }
            if (overflow || high > max) {
                return emitLast(rangeLow(state.nextLow()));
            }
        }
        KeyTuple highKey = KeyTuple.of(boxLike(template, high));
        SnapshotChunk chunk =
                new SnapshotChunk(
                        key.table(),
                        state.nextIndex(),
                        ChunkRange.of(rangeLow(state.nextLow()), highKey));
        state =
                new ChunkPlannerState(
                        key.table(),
                        ChunkPlannerState.Mode.ARITHMETIC,
                        state.nextIndex() + 1,
                        highKey,
                        knownMax);
        return Optional.of(chunk);
    }

    private Optional<SnapshotChunk> nextByQuery() throws IOException {
        KeyTuple low = state.nextLow();
        Optional<KeyTuple> high =
                key.valueRanges()
                        ? valueAfterChunk(low)
                        : queries.boundaryAfter(key, low, chunkSize);
        if (high.isEmpty()) {
            return emitLast(low);
        }
        SnapshotChunk chunk =
                new SnapshotChunk(key.table(), state.nextIndex(), ChunkRange.of(low, high.get()));
        state =
                new ChunkPlannerState(
                        key.table(),
                        ChunkPlannerState.Mode.QUERY,
                        state.nextIndex() + 1,
                        high.get(),
                        null);
        return Optional.of(chunk);
    }

    /**
     * The first value above the chunk's {@code chunkSize}-th row's value: strictly above {@code
     * low}, so planning always progresses, and no value's rows are split between two chunks.
     */
    private Optional<KeyTuple> valueAfterChunk(KeyTuple low) throws IOException {
        Optional<KeyTuple> last = queries.boundaryAfter(key, low, chunkSize - 1);
        return last.isEmpty() ? last : queries.firstAbove(key, last.get());
    }

    /** Chunk 0 is open below even in arithmetic mode (its stored low is the MIN it started at). */
    private KeyTuple rangeLow(KeyTuple nextLow) {
        return state.nextIndex() == 0 ? null : nextLow;
    }

    private Optional<SnapshotChunk> emitLast(KeyTuple low) {
        SnapshotChunk chunk =
                new SnapshotChunk(key.table(), state.nextIndex(), ChunkRange.of(low, null));
        state =
                new ChunkPlannerState(
                        key.table(),
                        ChunkPlannerState.Mode.FINISHED,
                        state.nextIndex() + 1,
                        null,
                        null);
        return Optional.of(chunk);
    }

    private static boolean isIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    /** Boxes {@code value} in the class the column's values have (it fits: it is <= MAX). */
    private static Object boxLike(Object template, long value) {
        if (template instanceof Integer) {
            return (int) value;
        }
        if (template instanceof Short) {
            return (short) value;
        }
        if (template instanceof Byte) {
            return (byte) value;
        }
        return value;
    }
}

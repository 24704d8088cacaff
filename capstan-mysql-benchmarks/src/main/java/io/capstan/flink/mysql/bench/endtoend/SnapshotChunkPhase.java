package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.SnapshotPlanner;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The snapshot's chunk reading as the source will run it, without Flink: the lazy {@link
 * SnapshotPlanner} hands out chunks of {@code chunkSize} rows, and {@code threads} {@link
 * ChunkReader}s (one per would-be source subtask, each with its own two connections) read them with
 * the brief lock (LOCK TABLES, consistent snapshot, G, UNLOCK, rows). Timed from the first chunk
 * planned to the last chunk read; the rows of each chunk are held in memory until the chunk is
 * done, as the source's reader does. A {@link SteadyWriter} may run on the same table meanwhile.
 */
final class SnapshotChunkPhase {

    private SnapshotChunkPhase() {}

    static PhaseResult run(
            MySqlConnectionConfig c,
            BenchTable table,
            long expectedRows,
            int chunkSize,
            int threads)
            throws Exception {
        try (HeapWatch heap = HeapWatch.start();
                Connection planning = JdbcConnections.open(c)) {
            long start = System.nanoTime();
            ChunkKey key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(planning, table.id()),
                            Optional.empty());
            TableReadSpec spec =
                    TableReadSpec.forSchema(key, JdbcSchemaReader.read(planning, table.id()));
            SnapshotPlanner planner =
                    new SnapshotPlanner(
                            List.of(key), chunkSize, new JdbcBoundaryQueries(planning), Map.of());
            AtomicLong rows = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(
                            pool.submit(
                                    () -> {
                                        try (ChunkReader reader =
                                                new ChunkReader(
                                                        c, SnapshotReadOptions.defaults())) {
                                            while (true) {
                                                Optional<SnapshotChunk> chunk;
                                                synchronized (
                                                        planner) { // the enumerator plans on one
                                                    // thread
                                                    chunk = planner.next();
                                                }
                                                if (chunk.isEmpty()) {
                                                    return null;
                                                }
                                                ChunkResult result = reader.read(chunk.get(), spec);
                                                rows.addAndGet(result.rowCount());
                                            }
                                        }
                                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            long nanos = System.nanoTime() - start;
            if (rows.get() != expectedRows) {
                throw new IllegalStateException(
                        "the chunks held " + rows.get() + " rows, expected " + expectedRows);
            }
            return new PhaseResult(rows.get(), nanos, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
        }
    }
}

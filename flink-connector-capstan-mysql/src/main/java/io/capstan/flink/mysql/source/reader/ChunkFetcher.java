package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.proxy.ChunkSession;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SchemaDriftCheck;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.SnapshotThrottle;
import io.capstan.flink.mysql.snapshot.read.TableFingerprints;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs on the fetcher thread: reads the assigned chunks one at a time in one {@link ChunkSession}
 * whose connections stay open across chunks. The read spec (columns and converter) of a table is
 * built from its schema the first time one of its chunks comes, and only if the table is the one
 * the enumerator fingerprinted when the snapshot began (schema, collations, the chunk key's index);
 * the chunk session checks with every chunk that the table still has it. So a DDL on a table whose
 * snapshot is in progress halts as {@code snapshot_schema_drifted}, in this attempt and in every
 * later one.
 *
 * <p>One per source reader, shared by the split readers Flink creates one after another (it shuts
 * an idle fetcher down after each finished chunk): the connections and read specs outlive them.
 * Synchronized because a shut-down fetcher's thread and its successor may overlap briefly; only
 * {@link #abort()} is not, so that a closing task never waits behind a fetch.
 */
final class ChunkFetcher implements AutoCloseable {

    /** Reads each table's schema once, on one connection kept across tables (one TLS handshake). */
    private final JdbcProxy mysql;

    private final SnapshotReadOptions options;
    private final CapstanReaderMetrics metrics;
    private final SnapshotThrottle throttle;

    /** The longest single pause of the throttle before the fetcher thread returns. */
    static final long THROTTLE_PAUSE_MILLIS = 50;

    private final Deque<SnapshotChunkSplit> queue = new ArrayDeque<>();
    private final Map<TableId, TableReadSpec> specs = new HashMap<>();
    private volatile ChunkSession session; // volatile: abort() comes from the task thread
    private volatile boolean aborted;

    ChunkFetcher(JdbcProxy mysql, SnapshotReadOptions options, CapstanReaderMetrics metrics) {
        this(mysql, options, SnapshotThrottle.UNLIMITED, metrics);
    }

    ChunkFetcher(
            JdbcProxy mysql,
            SnapshotReadOptions options,
            SnapshotThrottle throttle,
            CapstanReaderMetrics metrics) {
        this.mysql = mysql;
        this.options = options;
        this.throttle = throttle;
        this.metrics = metrics;
    }

    synchronized void add(SnapshotChunkSplit split) {
        queue.addLast(split);
    }

    synchronized boolean hasWork() {
        return !queue.isEmpty();
    }

    /**
     * Reads the next chunk; on failure it stays queued (nothing of it was emitted). While the
     * throttle holds the next chunk back, waits at most {@link #THROTTLE_PAUSE_MILLIS} and returns
     * an empty batch, so the fetcher thread stays responsive to wake-ups and shutdown.
     */
    synchronized ElementBatch fetch() throws IOException {
        failIfAborted();
        long wait = throttle.waitNanos();
        if (wait > 0) {
            long millis = Math.min(TimeUnit.NANOSECONDS.toMillis(wait) + 1, THROTTLE_PAUSE_MILLIS);
            pause(millis);
            metrics.snapshotThrottled(millis);
            return ElementBatch.empty();
        }
        SnapshotChunkSplit split = queue.peekFirst();
        TableReadSpec spec = spec(split);
        if (session == null) {
            session = mysql.openChunkSession(options);
            failIfAborted(); // abort() may have missed the new session
        }
        ChunkResult result = session.read(split.chunk(), spec);
        throttle.charge(result.rowCount());
        queue.pollFirst();
        metrics.chunkRead(result.rowCount());
        return ElementBatch.finishedChunk(
                split.splitId(),
                new ChunkElement(result, spec.schema(), System.currentTimeMillis()));
    }

    private TableReadSpec spec(SnapshotChunkSplit split) throws IOException {
        TableId table = split.chunk().table();
        TableReadSpec spec = specs.get(table);
        if (spec == null) {
            // A failed read leaves the proxy without a connection: the next attempt reconnects.
            TableSchema schema = mysql.tableSchema(table);
            TableKeyMetadata keys = mysql.keyMetadata(table);
            if (!TableFingerprints.matches(split.schemaFingerprint(), schema, keys, split.key())) {
                throw SchemaDriftCheck.drifted(
                        table, "detected before reading chunk " + split.splitId());
            }
            spec =
                    TableReadSpec.forSchema(
                                    split.key(), schema, options.columns(), options.spatialForm())
                            .fingerprinted(TableFingerprints.of(schema, keys, split.key()));
            specs.put(table, spec);
        }
        return spec;
    }

    private static void pause(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the snapshot throttle paused", e);
        }
    }

    private void failIfAborted() throws IOException {
        if (aborted) {
            if (session != null) {
                session.close();
            }
            throw new IOException("the source reader is closing");
        }
    }

    /**
     * Fails a fetch in flight at once and refuses further ones, from any thread and without waiting
     * for the fetch: a LOCK TABLES wait, a lock backoff pause or a read on a dead socket does not
     * hold up a cancelled task (it has a grace period before the TaskManager is killed).
     */
    void abort() {
        aborted = true;
        ChunkSession current = session;
        if (current != null) {
            current.close(); // the server's session fails its read in flight
        }
        mysql.abort(); // and the proxy its schema read in flight, with no retry or reconnect
    }

    /** Releases the connections; a later chunk would open new ones. */
    @Override
    public synchronized void close() {
        mysql.close();
        if (session != null) {
            session.close();
            session = null;
        }
    }
}

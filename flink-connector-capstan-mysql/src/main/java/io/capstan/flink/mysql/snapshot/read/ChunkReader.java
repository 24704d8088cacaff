package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads one chunk at a time at its exact position, with the brief lock of docs/snapshot.md:
 *
 * <ol>
 *   <li>{@link BriefLock}: lock the table on connection A, open B's read view and read G and the
 *       table's definition in one round trip under the lock ({@link ReadViewStatements}), unlock;
 *       retried within the lock wait budget ({@link LockWaitBudget});
 *   <li>{@link SchemaDriftCheck}: the table still has the job's schema;
 *   <li>{@link ChunkRangeQuery}: B reads the chunk's rows from the read view, then {@code COMMIT}.
 * </ol>
 *
 * <p>Five round trips per chunk in all: chunk reading is latency-bound between chunks, so round
 * trips are what it saves.
 *
 * <p>Both connections ({@link ChunkConnections}) stay open across chunks. After an error both are
 * closed (which also drops any lock) and the next {@link #read} reconnects; the failed chunk
 * emitted nothing and may simply be read again. Not thread-safe: one reader per source reader
 * thread; only {@link #close()} may come from another thread, and it does not wait for a read in
 * flight (it fails it).
 */
@Internal
public final class ChunkReader implements AutoCloseable {

    private final SnapshotReadOptions options;
    private final ChunkConnections sessions;
    private final BriefLock briefLock;
    private final SchemaDriftCheck schemaCheck = new SchemaDriftCheck();

    /** Whether a read is in flight, for {@link #close()} from another thread. */
    private volatile boolean reading;

    public ChunkReader(MySqlConnectionConfig config, SnapshotReadOptions options) {
        this(config, options, BriefLockListener.NONE, ChunkServerCheck.NONE);
    }

    /** With {@code serverCheck} looking at each connection as it opens (a replica's reader). */
    public ChunkReader(
            MySqlConnectionConfig config,
            SnapshotReadOptions options,
            ChunkServerCheck serverCheck) {
        this(config, options, BriefLockListener.NONE, serverCheck);
    }

    /** With a listener that sees the brief lock's steps (tests act inside the lock window). */
    ChunkReader(
            MySqlConnectionConfig config, SnapshotReadOptions options, BriefLockListener listener) {
        this(config, options, listener, ChunkServerCheck.NONE);
    }

    private ChunkReader(
            MySqlConnectionConfig config,
            SnapshotReadOptions options,
            BriefLockListener listener,
            ChunkServerCheck serverCheck) {
        this.options = options;
        this.sessions = new ChunkConnections(config, options, JdbcConnections::open, serverCheck);
        this.briefLock = new BriefLock(options, listener);
    }

    /**
     * Reads the chunk's rows and its G.
     *
     * @throws CapstanHaltException {@code lock_wait_budget_exhausted} when the table could not be
     *     locked within the budget; {@code snapshot_schema_drifted} when the table's definition
     *     changed under the read
     * @throws IOException on a connection or query failure (retry the chunk)
     */
    public ChunkResult read(SnapshotChunk chunk, TableReadSpec spec) throws IOException {
        if (!chunk.table().equals(spec.key().table())) {
            throw new IllegalArgumentException(
                    "chunk " + chunk.id() + " read with the spec of table " + spec.key().table());
        }
        boolean ok = false;
        reading = true;
        try {
            sessions.open();
            ReadView view = briefLock.openReadView(sessions, chunk.table());
            schemaCheck.verify(sessions.snapshot(), chunk, spec, view.definition());
            List<RowData> rows =
                    ChunkRangeQuery.read(
                            sessions.snapshot(), chunk.range(), spec, options.fetchSize());
            ChunkConnections.execute(sessions.snapshot(), "COMMIT");
            ok = true;
            return new ChunkResult(chunk, view.gtidSet(), rows);
        } catch (SQLException e) {
            if (SqlErrors.isTableDefinitionChanged(e)
                    || SqlErrors.isUnknownColumn(e)
                    || SqlErrors.isUnknownTable(e)) {
                throw SchemaDriftCheck.drifted(chunk);
            }
            throw SqlErrors.scrub("could not read chunk " + chunk.id(), e);
        } finally {
            reading = false;
            if (!ok) {
                sessions.close();
            }
        }
    }

    /**
     * Ends the reader for good, from any thread, without waiting: a read in flight fails at once
     * (its LOCK TABLES wait, its backoff pause, a socket read) instead of delaying a cancelled
     * task.
     */
    @Override
    public void close() {
        sessions.end(reading);
    }
}

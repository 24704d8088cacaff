package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.jdbc.SqlErrors;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;
import io.capstan.flink.mysql.source.SchemaFingerprint;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs on the fetcher thread: reads the assigned chunks one at a time with one {@link ChunkReader}
 * whose connections stay open across chunks. The read spec (columns and converter) of a table is
 * built from its schema the first time one of its chunks comes, and only if that schema is the
 * one the enumerator fingerprinted when the snapshot began; the chunk reader checks after every
 * chunk that the table still has it. So a DDL on a table whose snapshot is in progress halts as
 * {@code snapshot_schema_drifted}, in this attempt and in every later one.
 *
 * <p>One per source reader, shared by the split readers Flink creates one after another (it shuts
 * an idle fetcher down after each finished chunk): the connections and read specs outlive them.
 * Synchronized because a shut-down fetcher's thread and its successor may overlap briefly.
 */
final class ChunkFetcher implements AutoCloseable {

    private final MySqlConnectionConfig connection;
    private final SnapshotReadOptions options;
    private final CapstanReaderMetrics metrics;
    private final Deque<SnapshotChunkSplit> queue = new ArrayDeque<>();
    private final Map<TableId, TableReadSpec> specs = new HashMap<>();
    private ChunkReader reader;
    /** Reads each table's schema once; kept open across tables (one TLS handshake, not one per table). */
    private Connection schemaConnection;

    ChunkFetcher(MySqlConnectionConfig connection, SnapshotReadOptions options, CapstanReaderMetrics metrics) {
        this.connection = connection;
        this.options = options;
        this.metrics = metrics;
    }

    synchronized void add(SnapshotChunkSplit split) {
        queue.addLast(split);
    }

    synchronized boolean hasWork() {
        return !queue.isEmpty();
    }

    /** Reads the next chunk; on failure it stays queued (nothing of it was emitted). */
    synchronized ElementBatch fetch() throws IOException {
        SnapshotChunkSplit split = queue.peekFirst();
        TableReadSpec spec = spec(split);
        if (reader == null) {
            reader = new ChunkReader(connection, options);
        }
        ChunkResult result = reader.read(split.chunk(), spec);
        queue.pollFirst();
        metrics.chunkRead(result.rowCount());
        return ElementBatch.finishedChunk(
                split.splitId(), new ChunkElement(result, spec.schema(), System.currentTimeMillis()));
    }

    private TableReadSpec spec(SnapshotChunkSplit split) throws IOException {
        TableId table = split.chunk().table();
        TableReadSpec spec = specs.get(table);
        if (spec == null) {
            try {
                TableSchema schema = JdbcSchemaReader.read(schemaConnection(), table);
                if (SchemaFingerprint.of(schema) != split.schemaFingerprint()) {
                    throw new CapstanHaltException(
                            HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                            "the definition of table " + table + " changed since its snapshot began"
                                    + " (detected before reading chunk " + split.splitId() + "), so its"
                                    + " chunks would not fit one schema; restart the job without state"
                                    + " once the schema change is done (avoid DDL on tables being"
                                    + " snapshotted)");
                }
                spec = TableReadSpec.forSchema(split.key(), schema, options.columns());
            } catch (SQLException e) {
                closeSchemaConnection(); // the next attempt reconnects
                throw SqlErrors.scrub("could not read the schema of table " + table, e);
            }
            specs.put(table, spec);
        }
        return spec;
    }

    /** The kept connection if it still answers a ping (it may have idled out meanwhile), else a new one. */
    private Connection schemaConnection() throws SQLException {
        if (schemaConnection != null && !schemaConnection.isValid(5)) {
            closeSchemaConnection();
        }
        if (schemaConnection == null) {
            schemaConnection = JdbcConnections.open(connection);
        }
        return schemaConnection;
    }

    private void closeSchemaConnection() {
        JdbcConnections.closeQuietly(schemaConnection);
        schemaConnection = null;
    }

    @Override
    public synchronized void close() {
        closeSchemaConnection();
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}

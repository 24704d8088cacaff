package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyExtractor;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;

import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link JdbcProxy} over a {@link FakeMySql}, with the server proxy's connection life: connects on
 * the first call, drops the connection when a call fails, and {@link #close} releases it.
 */
public final class FakeJdbcProxy implements JdbcProxy {

    private final FakeMySql server;
    private boolean connected;
    private boolean everClosed;

    FakeJdbcProxy(FakeMySql server) {
        this.server = server;
    }

    /** Whether it holds a connection now. */
    public synchronized boolean connected() {
        return connected;
    }

    /** Whether {@link #close} was called at least once. */
    public synchronized boolean everClosed() {
        return everClosed;
    }

    private void call(String operation) throws IOException {
        synchronized (this) {
            if (!connected) {
                connected = true;
                server.connected();
            }
        }
        try {
            server.call(operation);
        } catch (IOException e) {
            disconnect();
            throw e;
        }
    }

    private synchronized void disconnect() {
        if (connected) {
            connected = false;
            server.openConnections.decrementAndGet();
        }
    }

    @Override
    public String serverAddress() {
        return FakeMySql.ADDRESS;
    }

    @Override
    public List<TableId> baseTables() throws IOException {
        call(FakeMySql.BASE_TABLES);
        return server.tableIds();
    }

    @Override
    public List<TableId> systemVersionedTables() throws IOException {
        call(FakeMySql.BASE_TABLES);
        return server.systemVersionedTableIds();
    }

    @Override
    public List<MariaDbOwnTypes.Column> mariaDbOwnTypeColumns(Collection<String> databases)
            throws IOException {
        call(FakeMySql.BASE_TABLES);
        return server.mariaDbOwnTypeColumns().stream()
                .filter(c -> databases.contains(c.table().database()))
                .toList();
    }

    @Override
    public ServerFacts serverFacts() throws IOException {
        call(FakeMySql.SERVER_FACTS);
        return server.facts();
    }

    @Override
    public ServerGtidState gtidState() throws IOException {
        call(FakeMySql.GTID_STATE);
        return ServerGtidState.of(server.executed(), server.purged());
    }

    @Override
    public GtidSet gtidSetBefore(String binlogFile, long position) throws IOException {
        call(FakeMySql.GTID_SET_BEFORE);
        return server.gtidSetBefore(binlogFile, position);
    }

    @Override
    public GtidSet gtidExecuted() throws IOException {
        call(FakeMySql.GTID_EXECUTED);
        return server.executed();
    }

    @Override
    public List<ForeignKey> foreignKeys() throws IOException {
        call(FakeMySql.FOREIGN_KEYS);
        return server.foreignKeys();
    }

    @Override
    public Set<TableId> tablesWithTriggers() throws IOException {
        call(FakeMySql.FOREIGN_KEYS);
        return server.tablesWithTriggers();
    }

    @Override
    public TableSchema tableSchema(TableId table) throws IOException {
        call(FakeMySql.TABLE_SCHEMA);
        return server.table(table).schema;
    }

    @Override
    public String storageEngine(TableId table) throws IOException {
        call(FakeMySql.STORAGE_ENGINE);
        return server.table(table).engine;
    }

    @Override
    public TableKeyMetadata keyMetadata(TableId table) throws IOException {
        call(FakeMySql.KEY_METADATA);
        return server.table(table).keys;
    }

    /** Weights of a pretend case-insensitive collation: the lower-case text's UTF-8 bytes. */
    @Override
    public List<byte[]> keyWeights(KeyCollation collation, List<String> texts) throws IOException {
        call(FakeMySql.KEY_WEIGHTS);
        List<byte[]> out = new ArrayList<>();
        for (String t : texts) {
            out.add(t.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    @Override
    public long estimatedRowCount(ChunkKey key) throws IOException {
        call(FakeMySql.BOUNDARY);
        return server.rows(key.table()).size();
    }

    @Override
    public Optional<KeyTuple> min(ChunkKey key) throws IOException {
        call(FakeMySql.BOUNDARY);
        TreeSet<KeyTuple> keys = keys(key);
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys.first());
    }

    @Override
    public Optional<KeyTuple> max(ChunkKey key) throws IOException {
        call(FakeMySql.BOUNDARY);
        TreeSet<KeyTuple> keys = keys(key);
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys.last());
    }

    @Override
    public Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count)
            throws IOException {
        call(FakeMySql.BOUNDARY);
        TreeSet<KeyTuple> keys = keys(key);
        Iterator<KeyTuple> it = (low == null ? keys : keys.tailSet(low, true)).iterator();
        for (int i = 0; i < count && it.hasNext(); i++) {
            it.next();
        }
        return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
    }

    @Override
    public Optional<KeyTuple> firstAbove(ChunkKey key, KeyTuple value) throws IOException {
        call(FakeMySql.BOUNDARY);
        return Optional.ofNullable(keys(key).higher(value));
    }

    private TreeSet<KeyTuple> keys(ChunkKey key) {
        TreeSet<KeyTuple> keys = new TreeSet<>(KeyComparator.of(key));
        KeyExtractor extractor = KeyExtractor.of(key);
        for (RowData row : server.rows(key.table())) {
            keys.add(extractor.extract(row));
        }
        return keys;
    }

    @Override
    public FakeChunkSession openChunkSession(SnapshotReadOptions options) {
        return new FakeChunkSession();
    }

    @Override
    public void close() {
        synchronized (this) {
            everClosed = true;
        }
        disconnect();
    }

    /**
     * Reads a chunk's rows from the table as it is now, at G = the server's executed set, and halts
     * as the server's session does when the table's schema is no longer the spec's.
     */
    public final class FakeChunkSession implements ChunkSession {
        private boolean sessionConnected;

        @Override
        public ChunkResult read(SnapshotChunk chunk, TableReadSpec spec) throws IOException {
            if (!sessionConnected) {
                sessionConnected = true;
                server.connected();
            }
            try {
                server.call(FakeMySql.READ_CHUNK);
            } catch (IOException e) {
                close();
                throw e;
            }
            FakeMySql.Table table = server.table(chunk.table());
            if (!table.schema.equals(spec.schema())) {
                throw new CapstanHaltException(
                        HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                        "table " + chunk.table() + " changed (fake)");
            }
            KeyExtractor extractor = KeyExtractor.of(spec.key());
            KeyComparator order = KeyComparator.of(spec.key());
            List<RowData> rows = new ArrayList<>();
            for (RowData row : table.rows) {
                if (chunk.range().contains(extractor.extract(row), order)) {
                    rows.add(row);
                }
            }
            return new ChunkResult(chunk, server.executed(), rows);
        }

        @Override
        public void close() {
            if (sessionConnected) {
                sessionConnected = false;
                server.openConnections.decrementAndGet();
            }
        }
    }
}

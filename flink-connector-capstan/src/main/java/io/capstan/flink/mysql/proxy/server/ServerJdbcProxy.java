package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.preflight.ServerFactsReader;
import io.capstan.flink.mysql.proxy.ChunkSession;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * {@link JdbcProxy} over one JDBC connection to the server, opened on first use and kept. A
 * connection idle for {@link #IDLE_BEFORE_PING_NANOS} is pinged before reuse (the server or a
 * network hop may have dropped it meanwhile); one that failed a call is dropped. Only opening and
 * dropping the connection is synchronized: {@link #close} from another thread aborts a call in
 * flight, as closing a connection does.
 */
public final class ServerJdbcProxy implements JdbcProxy {

    private static final long IDLE_BEFORE_PING_NANOS = 30_000_000_000L;

    private final MySqlConnectionConfig config;
    @Nullable private Connection connection;
    /** The boundary queries over {@link #connection} (they keep per-session state). */
    @Nullable private JdbcBoundaryQueries boundaries;
    private long lastUsedNanos;

    public ServerJdbcProxy(MySqlConnectionConfig config) {
        this.config = config;
    }

    @Override
    public String serverAddress() {
        return config.address();
    }

    @Override
    public List<TableId> baseTables() throws IOException {
        return call("could not list the tables", JdbcTableDiscovery::baseTables);
    }

    @Override
    public ServerFacts serverFacts() throws IOException {
        return call("could not read the server's settings and the account's privileges", ServerFactsReader::read);
    }

    @Override
    public ServerGtidState gtidState() throws IOException {
        return call("could not read gtid_executed/gtid_purged", ServerGtidState::read);
    }

    @Override
    public GtidSet gtidExecuted() throws IOException {
        return call("could not read gtid_executed", ServerGtidState::executed);
    }

    @Override
    public TableSchema tableSchema(TableId table) throws IOException {
        return call("could not read the schema of table " + table, c -> JdbcSchemaReader.read(c, table));
    }

    @Override
    public TableKeyMetadata keyMetadata(TableId table) throws IOException {
        return call("could not read the keys of table " + table,
                c -> JdbcTableKeyMetadataReader.read(c, table));
    }

    @Override
    public long estimatedRowCount(ChunkKey key) throws IOException {
        return call(boundaryFailure(key), c -> boundaries(c).estimatedRowCount(key));
    }

    @Override
    public Optional<KeyTuple> min(ChunkKey key) throws IOException {
        return call(boundaryFailure(key), c -> boundaries(c).min(key));
    }

    @Override
    public Optional<KeyTuple> max(ChunkKey key) throws IOException {
        return call(boundaryFailure(key), c -> boundaries(c).max(key));
    }

    @Override
    public Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count) throws IOException {
        return call(boundaryFailure(key), c -> boundaries(c).boundaryAfter(key, low, count));
    }

    @Override
    public ChunkSession openChunkSession(SnapshotReadOptions options) {
        return new ReaderChunkSession(new ChunkReader(config, options));
    }

    private static String boundaryFailure(ChunkKey key) {
        return "could not query the key range of table " + key.table();
    }

    private JdbcBoundaryQueries boundaries(Connection c) {
        if (boundaries == null) {
            boundaries = new JdbcBoundaryQueries(c);
        }
        return boundaries;
    }

    /** One call on the kept connection; a failure drops it, so the next call reconnects. */
    private <T> T call(String what, JdbcCall<T> call) throws IOException {
        Connection c = connection();
        try {
            T result = call.apply(c);
            lastUsedNanos = System.nanoTime();
            return result;
        } catch (SQLException e) {
            drop(c);
            // Metadata and settings only: the driver's message quotes no row value.
            throw new IOException(what + " on " + config.address()
                    + " (MySQL error " + e.getErrorCode() + ", SQLState " + e.getSQLState() + ")", e);
        } catch (IOException | RuntimeException e) {
            drop(c); // boundary queries: already value-free IOExceptions
            throw e;
        }
    }

    private synchronized Connection connection() throws IOException {
        try {
            if (connection != null
                    && System.nanoTime() - lastUsedNanos > IDLE_BEFORE_PING_NANOS
                    && !connection.isValid(5)) {
                drop(connection);
            }
            if (connection == null || connection.isClosed()) {
                boundaries = null;
                connection = JdbcConnections.open(config);
                lastUsedNanos = System.nanoTime();
            }
            return connection;
        } catch (SQLException e) {
            drop(connection);
            throw new IOException("could not connect to " + config.address()
                    + " (MySQL error " + e.getErrorCode() + ", SQLState " + e.getSQLState() + ")", e);
        }
    }

    private synchronized void drop(@Nullable Connection failed) {
        JdbcConnections.closeQuietly(failed);
        if (failed == connection) {
            connection = null;
            boundaries = null;
        }
    }

    @Override
    public synchronized void close() {
        drop(connection);
    }

    @FunctionalInterface
    private interface JdbcCall<T> {
        T apply(Connection c) throws SQLException, IOException;
    }
}

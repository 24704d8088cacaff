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

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * {@link JdbcProxy} over one JDBC connection to the server, opened on first use and kept. A
 * connection idle for {@link #IDLE_BEFORE_PING_NANOS} is pinged before reuse (the server or a
 * network hop may have dropped it meanwhile); one that failed a call is dropped. Only opening and
 * dropping the connection is synchronized: {@link #close} from another thread aborts a call in
 * flight, as closing a connection does.
 */
@Internal
public final class ServerJdbcProxy implements JdbcProxy {

    private static final long IDLE_BEFORE_PING_NANOS = 30_000_000_000L;

    /** The open connection and the boundary queries over it (they keep per-session state). */
    private record Session(Connection connection, JdbcBoundaryQueries boundaries) {}

    private final MySqlConnectionConfig config;
    @Nullable private Session session;
    private volatile long lastUsedNanos;

    public ServerJdbcProxy(MySqlConnectionConfig config) {
        this.config = config;
    }

    @Override
    public String serverAddress() {
        return config.address();
    }

    @Override
    public List<TableId> baseTables() throws IOException {
        return call(
                "could not list the tables", s -> JdbcTableDiscovery.baseTables(s.connection()));
    }

    @Override
    public ServerFacts serverFacts() throws IOException {
        return call(
                "could not read the server's settings and the account's privileges",
                s -> ServerFactsReader.read(s.connection()));
    }

    @Override
    public ServerGtidState gtidState() throws IOException {
        return call(
                "could not read gtid_executed/gtid_purged",
                s -> ServerGtidState.read(s.connection()));
    }

    @Override
    public GtidSet gtidExecuted() throws IOException {
        return call("could not read gtid_executed", s -> ServerGtidState.executed(s.connection()));
    }

    @Override
    public TableSchema tableSchema(TableId table) throws IOException {
        return call(
                "could not read the schema of table " + table,
                s -> JdbcSchemaReader.read(s.connection(), table));
    }

    @Override
    public String storageEngine(TableId table) throws IOException {
        return call(
                "could not read the storage engine of table " + table,
                s -> JdbcTableDiscovery.storageEngine(s.connection(), table));
    }

    @Override
    public TableKeyMetadata keyMetadata(TableId table) throws IOException {
        return call(
                "could not read the keys of table " + table,
                s -> JdbcTableKeyMetadataReader.read(s.connection(), table));
    }

    @Override
    public long estimatedRowCount(ChunkKey key) throws IOException {
        return call(boundaryFailure(key), s -> s.boundaries().estimatedRowCount(key));
    }

    @Override
    public Optional<KeyTuple> min(ChunkKey key) throws IOException {
        return call(boundaryFailure(key), s -> s.boundaries().min(key));
    }

    @Override
    public Optional<KeyTuple> max(ChunkKey key) throws IOException {
        return call(boundaryFailure(key), s -> s.boundaries().max(key));
    }

    @Override
    public Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count)
            throws IOException {
        return call(boundaryFailure(key), s -> s.boundaries().boundaryAfter(key, low, count));
    }

    private static String boundaryFailure(ChunkKey key) {
        return "could not query the key range of table " + key.table();
    }

    @Override
    public ChunkSession openChunkSession(SnapshotReadOptions options) {
        return new ReaderChunkSession(new ChunkReader(config, options));
    }

    /** One call on the kept connection; a failure drops it, so the next call reconnects. */
    private <T> T call(String what, JdbcCall<T> call) throws IOException {
        Session s = session();
        try {
            T result = call.apply(s);
            lastUsedNanos = System.nanoTime();
            return result;
        } catch (SQLException e) {
            drop(s);
            // Metadata and settings only: the driver's message quotes no row value.
            throw new IOException(
                    what
                            + " on "
                            + config.address()
                            + " (MySQL error "
                            + e.getErrorCode()
                            + ", SQLState "
                            + e.getSQLState()
                            + ")",
                    e);
        } catch (IOException | RuntimeException e) {
            drop(s); // boundary queries: already value-free IOExceptions
            throw e;
        }
    }

    private synchronized Session session() throws IOException {
        try {
            if (session != null
                    && System.nanoTime() - lastUsedNanos > IDLE_BEFORE_PING_NANOS
                    && !session.connection().isValid(5)) {
                drop(session);
            }
            if (session == null || session.connection().isClosed()) {
                Connection c = JdbcConnections.open(config);
                session = new Session(c, new JdbcBoundaryQueries(c));
                lastUsedNanos = System.nanoTime();
            }
            return session;
        } catch (SQLException e) {
            drop(session);
            throw new IOException(
                    "could not connect to "
                            + config.address()
                            + " (MySQL error "
                            + e.getErrorCode()
                            + ", SQLState "
                            + e.getSQLState()
                            + ")",
                    e);
        }
    }

    private synchronized void drop(@Nullable Session failed) {
        if (failed != null) {
            JdbcConnections.closeQuietly(failed.connection());
        }
        if (failed == session) {
            session = null;
        }
    }

    @Override
    public synchronized void close() {
        drop(session);
    }

    @FunctionalInterface
    private interface JdbcCall<T> {
        T apply(Session s) throws SQLException, IOException;
    }
}

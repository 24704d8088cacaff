package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.preflight.ServerFactsReader;
import io.capstan.flink.mysql.proxy.ChunkSession;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcKeyWeights;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link JdbcProxy} over one JDBC connection to the server, opened on first use and kept. A
 * connection idle for {@link #IDLE_BEFORE_PING_NANOS} is pinged before reuse (the server or a
 * network hop may have dropped it meanwhile); one that failed a call is dropped, and a call that
 * failed for its connection (SQLState class 08) is retried once on a new one; a connection that
 * goes silent fails after {@code connect.socket-timeout}. Only opening and dropping the connection
 * is synchronized: {@link #close} from another thread aborts a call in flight (closes its socket)
 * rather than waiting for it.
 */
@Internal
public final class ServerJdbcProxy implements JdbcProxy {

    private static final long IDLE_BEFORE_PING_NANOS = 30_000_000_000L;

    /** The open connection and the boundary queries over it (they keep per-session state). */
    private record Session(Connection connection, JdbcBoundaryQueries boundaries) {}

    private final MySqlConnectionConfig config;

    /** The primary when {@link #config} is the snapshot's replica; null otherwise. */
    @Nullable private final MySqlConnectionConfig primary;

    @Nullable private volatile Session session;
    private volatile long lastUsedNanos;

    /** Calls running on the connection, so that {@link #close} knows whether to abort it. */
    private final AtomicInteger callsInFlight = new AtomicInteger();

    /** Set by {@link #abort}: no call retries or reconnects any more. */
    private volatile boolean aborted;

    public ServerJdbcProxy(MySqlConnectionConfig config) {
        this(config, null);
    }

    /**
     * On the snapshot's replica at {@code replica}: its chunk sessions check each chunk's G against
     * {@code primary} ({@link ReplicaChunkSession}).
     */
    public ServerJdbcProxy(MySqlConnectionConfig replica, @Nullable MySqlConnectionConfig primary) {
        this.config = replica;
        this.primary = primary;
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
    public List<TableId> systemVersionedTables() throws IOException {
        return call(
                "could not list the system-versioned tables",
                s -> JdbcTableDiscovery.systemVersionedTables(s.connection()));
    }

    @Override
    public List<MariaDbOwnTypes.Column> mariaDbOwnTypeColumns(Collection<String> databases)
            throws IOException {
        return call(
                "could not list the columns of MariaDB's own types",
                s -> JdbcTableDiscovery.mariaDbOwnTypeColumns(s.connection(), databases));
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
    public GtidSet gtidSetBefore(String binlogFile, long position) throws IOException {
        return call(
                "could not read the binlog index and events",
                s -> BinlogPositionTranslation.gtidSetBefore(s.connection(), binlogFile, position));
    }

    @Override
    public GtidSet gtidExecuted() throws IOException {
        return call("could not read gtid_executed", s -> ServerGtidState.executed(s.connection()));
    }

    @Override
    public List<ForeignKey> foreignKeys() throws IOException {
        return call(
                "could not read the foreign keys",
                s -> JdbcReferentialQueries.foreignKeys(s.connection()));
    }

    @Override
    public Set<TableId> tablesWithTriggers() throws IOException {
        return call(
                "could not read the triggers",
                s -> JdbcReferentialQueries.tablesWithTriggers(s.connection()));
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
    public List<byte[]> keyWeights(KeyCollation collation, List<String> texts) throws IOException {
        return call(
                "could not read sort weights in collation " + collation.name(),
                s -> JdbcKeyWeights.weigh(s.connection(), collation, texts));
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

    @Override
    public Optional<KeyTuple> firstAbove(ChunkKey key, KeyTuple value) throws IOException {
        return call(boundaryFailure(key), s -> s.boundaries().firstAbove(key, value));
    }

    private static String boundaryFailure(ChunkKey key) {
        return "could not query the key range of table " + key.table();
    }

    @Override
    public ChunkSession openChunkSession(SnapshotReadOptions options) {
        if (primary == null) {
            return new ReaderChunkSession(new ChunkReader(config, options));
        }
        return new ReplicaChunkSession(
                new ChunkReader(config, options, new ReplicaConnectionCheck(config.address())),
                config.address(),
                new ServerJdbcProxy(primary));
    }

    /**
     * One call on the kept connection; a failure drops it, so the next call reconnects. Every call
     * is an idempotent read, so one that fails for the connection (SQLState class 08: the server or
     * a network hop dropped the kept connection since its last use, a KILL, a restart) is retried
     * once on a fresh connection. A connection that cannot be opened is not retried at once (the
     * caller's own retry waits). Failures are scrubbed by {@link SqlErrors#scrub} (the no-values
     * rule).
     */
    private <T> T call(String what, JdbcCall<T> call) throws IOException {
        Session kept = session(what);
        try {
            return use(kept, call);
        } catch (SQLException | IOException e) {
            if (aborted || !isConnectionFailure(e)) {
                throw failure(what, e);
            }
        }
        Session fresh = session(what);
        try {
            return use(fresh, call);
        } catch (SQLException | IOException e) {
            throw failure(what, e);
        }
    }

    /** The call on {@code s}; drops the connection when the call fails. */
    private <T> T use(Session s, JdbcCall<T> call) throws SQLException, IOException {
        callsInFlight.incrementAndGet();
        try {
            T result = call.apply(s);
            lastUsedNanos = System.nanoTime();
            return result;
        } catch (SQLException | IOException | RuntimeException e) {
            drop(s);
            throw e;
        } finally {
            callsInFlight.decrementAndGet();
        }
    }

    /**
     * A failure of the connection rather than of the statement: SQLState class 08, from the driver
     * or kept as the cause of an IOException the boundary queries scrubbed.
     */
    private static boolean isConnectionFailure(Exception e) {
        Throwable t = e instanceof SQLException ? e : e.getCause();
        return t instanceof SQLException
                && String.valueOf(((SQLException) t).getSQLState()).startsWith("08");
    }

    /** The boundary queries' IOExceptions are scrubbed already; a driver error is scrubbed here. */
    private IOException failure(String what, Exception e) {
        return e instanceof SQLException
                ? SqlErrors.scrub(what + " on " + config.address(), (SQLException) e)
                : (IOException) e;
    }

    /** The kept connection, or a new one; a connection idle for long is pinged first. */
    private synchronized Session session(String what) throws IOException {
        if (aborted) {
            throw new IOException(what + " on " + config.address() + ": the reader is closing");
        }
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
                if (aborted) { // abort() came while the connection was being opened
                    JdbcConnections.abortQuietly(c);
                    throw new IOException(
                            what + " on " + config.address() + ": the reader is closing");
                }
            }
            return session;
        } catch (SQLException e) {
            drop(session);
            throw SqlErrors.scrub(what + ": could not connect to " + config.address(), e);
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

    /**
     * Drops the connection; a call in flight on it (another thread) fails at once, its socket
     * closed, instead of being waited for. A later call reconnects.
     */
    @Override
    public void close() {
        Session current = session;
        if (current != null && callsInFlight.get() > 0) {
            JdbcConnections.abortQuietly(current.connection());
        }
        drop(current);
    }

    /**
     * Aborts the kept connection without taking the lock {@link #session} may hold while it
     * reconnects, and refuses every later call: the call in flight fails at once, with no retry.
     */
    @Override
    public void abort() {
        aborted = true;
        Session current = session;
        if (current != null) {
            JdbcConnections.abortQuietly(current.connection());
        }
    }

    @FunctionalInterface
    private interface JdbcCall<T> {
        T apply(Session s) throws SQLException, IOException;
    }
}

package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The chunk reader's two sessions (docs/snapshot.md): A takes the brief table lock, B opens the
 * read view and reads the rows. Opened when needed and kept across chunks; after an error both are
 * closed, which also drops any lock, and the next {@link #open()} reconnects. {@link #end}, from
 * any thread, ends them for good, failing a statement in flight.
 */
final class ChunkConnections implements AutoCloseable {

    private static final String SERVER_PREPARED_STATEMENTS = "useServerPrepStmts";

    /**
     * A's session wait_timeout from LOCK TABLES to UNLOCK TABLES: if this process dies while A
     * holds the table lock and no reset reaches the server (host down, network cut), the server
     * drops the silent session, and so the lock, after this long instead of after the default eight
     * hours. Far longer than A is silent under the lock (B's one round trip).
     */
    static final Duration LOCK_HOLDER_WAIT_TIMEOUT = Duration.ofSeconds(10);

    /** Where A keeps its own wait_timeout while it holds a lock, to restore it after. */
    static final String SAVED_WAIT_TIMEOUT = "@capstan_saved_wait_timeout";

    /** A's socket waits this much longer than one LOCK TABLES attempt may. */
    private static final Duration LOCK_REPLY_MARGIN = Duration.ofSeconds(10);

    /**
     * Opens a session; the reader uses {@link JdbcConnections#open}, unit tests a scripted fake.
     */
    interface Opener {
        Connection open(MySqlConnectionConfig config) throws SQLException;
    }

    private final MySqlConnectionConfig config;
    private final SnapshotReadOptions options;
    private final Opener opener;
    private final ChunkServerCheck serverCheck;
    private final CountDownLatch aborted = new CountDownLatch(1);
    // volatile: end() comes from another thread
    private volatile Connection lock; // A
    private volatile Connection snapshot; // B

    ChunkConnections(MySqlConnectionConfig config, SnapshotReadOptions options) {
        this(config, options, JdbcConnections::open);
    }

    ChunkConnections(MySqlConnectionConfig config, SnapshotReadOptions options, Opener opener) {
        this(config, options, opener, ChunkServerCheck.NONE);
    }

    ChunkConnections(
            MySqlConnectionConfig config,
            SnapshotReadOptions options,
            Opener opener,
            ChunkServerCheck serverCheck) {
        this.config = config;
        this.options = options;
        this.opener = opener;
        this.serverCheck = serverCheck;
    }

    /** (Re)opens whichever session is not open. */
    void open() throws SQLException {
        if (lock == null || lock.isClosed()) {
            lock = checkedOpen(lockConfig());
            serverCheck.opened(lock);
            // A short wait per LOCK TABLES attempt: the lock wait budget retries, with backoff.
            execute(
                    lock,
                    "SET SESSION lock_wait_timeout = "
                            + options.lockWaitTimeoutSeconds()
                            + ", "
                            + SAVED_WAIT_TIMEOUT
                            + " = @@SESSION.wait_timeout");
        }
        if (snapshot == null || snapshot.isClosed()) {
            snapshot = checkedOpen(snapshotConfig());
            serverCheck.opened(snapshot);
            execute(snapshot, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        }
    }

    /** Opens a session unless ended; one opened while end() ran is aborted. */
    private Connection checkedOpen(MySqlConnectionConfig c) throws SQLException {
        failIfAborted();
        Connection opened = opener.open(c);
        if (isAborted()) {
            JdbcConnections.abortQuietly(opened);
            failIfAborted();
        }
        return opened;
    }

    private void failIfAborted() throws SQLException {
        if (isAborted()) {
            throw new SQLNonTransientConnectionException("the chunk reader was closed", "08003");
        }
    }

    boolean isAborted() {
        return aborted.getCount() == 0;
    }

    /**
     * Waits {@code delay}, or less if {@link #end} comes first.
     *
     * @return whether the sessions were ended
     */
    boolean awaitAbort(Duration delay) throws InterruptedException {
        return aborted.await(delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** A: holds the table lock. */
    Connection lock() {
        return lock;
    }

    /** B: the read view and the rows. */
    Connection snapshot() {
        return snapshot;
    }

    /** Closes A: the other way to release its table lock, when UNLOCK TABLES failed. */
    void closeLock() {
        JdbcConnections.closeQuietly(lock);
        lock = null;
    }

    /** Closes both sessions (the reader's thread, after a failure); {@link #open()} reopens. */
    @Override
    public void close() {
        JdbcConnections.closeQuietly(lock);
        JdbcConnections.closeQuietly(snapshot);
        lock = null;
        snapshot = null;
    }

    /**
     * Ends both sessions for good, from any thread: nothing reopens them and a backoff pause ends.
     * With {@code failInFlight} the sockets are closed at once, so that a statement in flight (a
     * LOCK TABLES waiting, a read on a dead socket) fails now instead of being waited for; the
     * server then ends the sessions, releasing A's lock and B's read view. Otherwise they are
     * closed politely.
     */
    void end(boolean failInFlight) {
        aborted.countDown();
        if (failInFlight) {
            JdbcConnections.abortQuietly(lock);
            JdbcConnections.abortQuietly(snapshot);
        } else {
            JdbcConnections.closeQuietly(lock);
            JdbcConnections.closeQuietly(snapshot);
        }
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /**
     * A sends {@code SET ...; LOCK TABLES} and {@code UNLOCK TABLES; SET ...} as one
     * multi-statement each (no extra round trip per chunk), and its socket outlasts one LOCK TABLES
     * wait.
     */
    private MySqlConnectionConfig lockConfig() {
        Duration lockReply = options.lockWaitTimeout().plus(LOCK_REPLY_MARGIN);
        return config.toBuilder()
                .jdbcProperty("allowMultiQueries", "true")
                .socketTimeout(
                        lockReply.compareTo(config.socketTimeout()) > 0
                                ? lockReply
                                : config.socketTimeout())
                .build();
    }

    private MySqlConnectionConfig snapshotConfig() {
        MySqlConnectionConfig c = config;
        if (options.fetchSize() > 0) {
            c = c.toBuilder().jdbcProperty("useCursorFetch", "true").build();
        }
        // B sends the read view's statements as one multi-statement (one round trip under the
        // lock).
        c = c.toBuilder().jdbcProperty("allowMultiQueries", "true").build();
        if (!config.jdbcProperties().containsKey(SERVER_PREPARED_STATEMENTS)) {
            c = binaryProtocol(c);
        }
        return c;
    }

    /**
     * Rows over the binary protocol (server-side prepared statements, kept open per connection so
     * each chunk is one execute): numbers and temporals arrive as fixed-width values instead of
     * text to parse, which makes reading a chunk cheaper than a plain text-protocol scan (see
     * docs/performance.md, ADR 0003). The converters read both protocols alike (TypeMatrixIT). A
     * user's own {@code jdbc.properties.useServerPrepStmts} is left as it is.
     */
    private static MySqlConnectionConfig binaryProtocol(MySqlConnectionConfig c) {
        return c.toBuilder()
                .jdbcProperty(SERVER_PREPARED_STATEMENTS, "true")
                .jdbcProperty("cachePrepStmts", "true")
                .build();
    }
}

package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The chunk reader's two sessions (docs/snapshot.md): A takes the brief table lock, B opens the
 * read view and reads the rows. Opened when needed and kept across chunks; after an error both are
 * closed, which also drops any lock, and the next {@link #open()} reconnects.
 */
final class ChunkConnections implements AutoCloseable {

    private static final String SERVER_PREPARED_STATEMENTS = "useServerPrepStmts";

    /**
     * Opens a session; the reader uses {@link JdbcConnections#open}, unit tests a scripted fake.
     */
    interface Opener {
        Connection open(MySqlConnectionConfig config) throws SQLException;
    }

    private final MySqlConnectionConfig config;
    private final SnapshotReadOptions options;
    private final Opener opener;
    private Connection lock; // A
    private Connection snapshot; // B

    ChunkConnections(MySqlConnectionConfig config, SnapshotReadOptions options) {
        this(config, options, JdbcConnections::open);
    }

    ChunkConnections(MySqlConnectionConfig config, SnapshotReadOptions options, Opener opener) {
        this.config = config;
        this.options = options;
        this.opener = opener;
    }

    /** (Re)opens whichever session is not open. */
    void open() throws SQLException {
        if (lock == null || lock.isClosed()) {
            lock = opener.open(config);
            // A short wait per LOCK TABLES attempt: the lock wait budget retries, with backoff.
            execute(lock, "SET SESSION lock_wait_timeout = " + options.lockWaitTimeoutSeconds());
        }
        if (snapshot == null || snapshot.isClosed()) {
            snapshot = opener.open(snapshotConfig());
            execute(snapshot, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        }
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

    @Override
    public void close() {
        JdbcConnections.closeQuietly(lock);
        JdbcConnections.closeQuietly(snapshot);
        lock = null;
        snapshot = null;
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
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

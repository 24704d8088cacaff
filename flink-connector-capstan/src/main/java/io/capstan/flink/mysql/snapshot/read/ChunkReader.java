package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcKeyValues;
import io.capstan.flink.mysql.snapshot.jdbc.SqlErrors;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyPredicates;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one chunk at a time at its exact position, with the brief lock of docs/snapshot.md:
 *
 * <ol>
 *   <li>connection A: {@code LOCK TABLES db.t READ} (short lock_wait_timeout, retried with backoff
 *       and jitter within the lock wait budget): no transaction is writing {@code t} any more;
 *   <li>connection B, in one round trip (a multi-statement): {@code START TRANSACTION WITH
 *       CONSISTENT SNAPSHOT}, {@code SELECT @@global.gtid_executed} = G (the read view holds
 *       exactly the effects on {@code t} of the transactions in G), {@code SELECT 1 FROM t LIMIT
 *       0} (takes B's metadata lock on {@code t}, held until COMMIT, so no DDL can run from here
 *       to the end of the read; it gives up after {@link #METADATA_LOCK_PATIENCE} if a DDL queued
 *       in between, and the chunk starts over from step 1) and {@code SHOW CREATE TABLE t} (the
 *       schema check);
 *   <li>connection A: {@code UNLOCK TABLES} (always): writers waited two round trips (three
 *       before the read view's statements were sent as one);
 *   <li>connection B: reads the chunk's rows from the read view, then {@code COMMIT}.
 * </ol>
 *
 * <p>Five round trips per chunk in all (the schema check used to take its own after the rows):
 * chunk reading is latency-bound between chunks, so round trips are what it saves.
 *
 * <p>Both connections stay open across chunks. After an error both are closed (which also drops
 * any lock) and the next {@link #read} reconnects; the failed chunk emitted nothing and may simply
 * be read again. Not thread-safe: one reader per source reader thread.
 */
public final class ChunkReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChunkReader.class);

    /**
     * When G is read. Only {@link #UNDER_LOCK} is correct; the others exist only so that the
     * exactness test can prove it would notice a misplaced capture.
     */
    enum CapturePoint {
        UNDER_LOCK,
        /** Wrong: transactions committing before the lock are in the view but not in G. */
        BEFORE_LOCK,
        /**
         * Wrong: transactions committing after the unlock are in G but not in the view. The race
         * window is one round trip, so it is widened by a 20 ms pause (what a slow network or a
         * descheduled thread would do) to make the loss observable in a test.
         */
        AFTER_UNLOCK
    }

    private final MySqlConnectionConfig config;
    private final SnapshotReadOptions options;
    private final CapturePoint capturePoint;
    private final Runnable whileLocked;
    private static final String SERVER_PREPARED_STATEMENTS = "useServerPrepStmts";
    /** How long B may wait for its metadata lock on the table while A holds the table lock. */
    static final Duration METADATA_LOCK_PATIENCE = Duration.ofMillis(100);
    private static final java.util.regex.Pattern AUTO_INCREMENT =
            java.util.regex.Pattern.compile(" AUTO_INCREMENT=\\d+");

    /** Per table, the definition text last verified against the job's schema. */
    private final java.util.Map<TableId, String> verifiedDefinitions = new java.util.HashMap<>();
    private Connection lockConnection; // A
    private Connection snapshotConnection; // B

    public ChunkReader(MySqlConnectionConfig config, SnapshotReadOptions options) {
        this(config, options, CapturePoint.UNDER_LOCK);
    }

    ChunkReader(MySqlConnectionConfig config, SnapshotReadOptions options, CapturePoint capture) {
        this(config, options, capture, () -> {});
    }

    /** For tests: {@code whileLocked} runs each time A holds the lock, before B's statements. */
    ChunkReader(
            MySqlConnectionConfig config,
            SnapshotReadOptions options,
            CapturePoint capture,
            Runnable whileLocked) {
        this.config = config;
        this.options = options;
        this.capturePoint = capture;
        this.whileLocked = whileLocked;
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
        try {
            openConnections();
            ReadView view = openReadViewAtExactPosition(chunk.table());
            checkSchemaUnchanged(chunk, spec, view.definition);
            List<RowData> rows = readRows(chunk.range(), spec);
            execute(snapshotConnection, "COMMIT");
            GtidSet g = view.gtidSet;
            ok = true;
            return new ChunkResult(chunk, g, rows);
        } catch (SQLException e) {
            if (SqlErrors.isTableDefinitionChanged(e)
                    || SqlErrors.isUnknownColumn(e)
                    || SqlErrors.isUnknownTable(e)) {
                throw drifted(chunk);
            }
            throw SqlErrors.scrub("could not read chunk " + chunk.id(), e);
        } finally {
            if (!ok) {
                closeQuietly();
            }
        }
    }

    /**
     * B took its metadata lock on the table under A's lock (no DDL could run since) and holds it
     * until COMMIT, so no DDL can run between this check and the read: the rows are read under the
     * expected schema. A DDL that changed it at any time since the job took the schema, instant
     * ones included, is caught. The first chunk of a table compares the full schema
     * (information_schema, two queries); later chunks compare the server's table definition text,
     * read with the read view, with the one seen then (no extra query).
     */
    private void checkSchemaUnchanged(SnapshotChunk chunk, TableReadSpec spec, String definition)
            throws SQLException {
        TableSchema expected = spec.schema();
        String known = verifiedDefinitions.get(chunk.table());
        if (known != null && known.equals(definition)) {
            return;
        }
        if (!JdbcSchemaReader.read(snapshotConnection, chunk.table()).equals(expected)) {
            throw drifted(chunk);
        }
        verifiedDefinitions.put(chunk.table(), definition);
    }

    /** SHOW CREATE TABLE's text without its AUTO_INCREMENT counter, which moves with every insert. */
    private static String tableDefinition(ResultSet showCreateTable) throws SQLException {
        if (!showCreateTable.next()) {
            throw new SQLException("SHOW CREATE TABLE returned no row");
        }
        return AUTO_INCREMENT.matcher(showCreateTable.getString(2)).replaceAll("");
    }

    private static CapstanHaltException drifted(SnapshotChunk chunk) {
        return new CapstanHaltException(
                HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                "the definition of table " + chunk.table() + " changed while its snapshot was in"
                        + " progress (detected reading chunk " + chunk.id() + "), so its chunks"
                        + " would not fit one schema; restart the job without state once the"
                        + " schema change is done (avoid DDL on tables being snapshotted)");
    }

    private void openConnections() throws SQLException {
        if (lockConnection == null || lockConnection.isClosed()) {
            lockConnection = JdbcConnections.open(config);
            execute(lockConnection,
                    "SET SESSION lock_wait_timeout = " + options.lockWaitTimeoutSeconds());
        }
        if (snapshotConnection == null || snapshotConnection.isClosed()) {
            MySqlConnectionConfig c = config;
            if (options.fetchSize() > 0) {
                c = config.toBuilder().jdbcProperty("useCursorFetch", "true").build();
            }
            // B sends the read view's statements as one multi-statement (one round trip under the lock).
            c = c.toBuilder().jdbcProperty("allowMultiQueries", "true").build();
            if (!config.jdbcProperties().containsKey(SERVER_PREPARED_STATEMENTS)) {
                c = binaryProtocol(c);
            }
            snapshotConnection = JdbcConnections.open(c);
            execute(snapshotConnection,
                    "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        }
    }

    /**
     * Rows over the binary protocol (server-side prepared statements, kept open per connection so
     * each chunk is one execute): numbers and temporals arrive as fixed-width values instead of
     * text to parse, which makes reading a chunk cheaper than a plain text-protocol scan (see
     * docs/performance.md). The converters read both protocols alike (TypeMatrixIT). A user's own
     * {@code jdbc.properties.useServerPrepStmts} is left as it is.
     */
    private static MySqlConnectionConfig binaryProtocol(MySqlConnectionConfig c) {
        return c.toBuilder()
                .jdbcProperty(SERVER_PREPARED_STATEMENTS, "true")
                .jdbcProperty("cachePrepStmts", "true")
                .build();
    }

    /** A read view opened at its exact position: G and, if asked for, the table's definition. */
    private static final class ReadView {
        GtidSet gtidSet;
        String definition;
    }

    /**
     * Steps 1-3: lock; open the read view, read G, take B's metadata lock and the definition, all
     * in one round trip under the lock; unlock. Repeated (within the lock wait budget) when A cannot
     * lock in time or B gives up its metadata lock wait.
     */
    private ReadView openReadViewAtExactPosition(TableId table)
            throws SQLException, IOException {
        LockWaits waits = new LockWaits(table);
        while (true) {
            ReadView view = new ReadView();
            if (capturePoint == CapturePoint.BEFORE_LOCK) {
                view.gtidSet = readGtidExecuted();
            }
            lockTable(table, waits);
            boolean ddlQueued = false;
            try {
                whileLocked.run();
                readViewUnderLock(table, view);
            } catch (SQLException e) {
                if (!SqlErrors.isStatementTimeout(e) && !SqlErrors.isLockWaitTimeout(e)) {
                    throw e;
                }
                // A DDL queued for t between our LOCK TABLES and B's metadata lock: it waits for A,
                // and B waits behind it. Let go of both so that the DDL runs, then start over.
                execute(snapshotConnection, "ROLLBACK");
                ddlQueued = true;
            } finally {
                unlock();
            }
            if (ddlQueued) {
                LOG.info("A DDL queued on table {} while it was locked; opening the read view again", table);
                waits.failed();
                continue;
            }
            if (capturePoint == CapturePoint.AFTER_UNLOCK) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted");
                }
                view.gtidSet = readGtidExecuted();
            }
            return view;
        }
    }

    /**
     * B's statements, sent while A holds the lock. B's metadata lock request must not wait: a
     * request only waits here if a DDL asked for an exclusive lock on t after A locked it (pending
     * exclusive requests go first), and that DDL waits for A's lock, which waits for B: nothing
     * would move until a lock_wait_timeout of a year. So it may wait {@link
     * #METADATA_LOCK_PATIENCE} at most (MAX_EXECUTION_TIME), then the statement fails.
     */
    private void readViewUnderLock(TableId table, ReadView view) throws SQLException {
        boolean gtidUnderLock = capturePoint == CapturePoint.UNDER_LOCK;
        try (Statement st = snapshotConnection.createStatement()) {
            st.setEscapeProcessing(false);
            st.execute(readViewStatements(table, gtidUnderLock)); // START: an update count
            if (gtidUnderLock) {
                view.gtidSet = parseGtidSet(nextResultSet(st));
            }
            nextResultSet(st).close(); // SELECT 1 ... LIMIT 0: only its metadata lock matters
            view.definition = tableDefinition(nextResultSet(st));
        }
    }

    /**
     * B's multi-statement under the lock: start the read view, read G, take the metadata lock on
     * the table without waiting for it long, read its definition. Public for the benchmark's
     * lock-window probe, which times this exact text.
     */
    public static String readViewStatements(TableId table, boolean withGtid) {
        return "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"
                + (withGtid ? "; SELECT @@global.gtid_executed" : "")
                + "; SELECT /*+ MAX_EXECUTION_TIME(" + METADATA_LOCK_PATIENCE.toMillis() + ") */ 1 FROM "
                + table.quoted() + " LIMIT 0; SHOW CREATE TABLE " + table.quoted();
    }

    private static ResultSet nextResultSet(Statement st) throws SQLException {
        if (!st.getMoreResults()) {
            throw new SQLException("a statement of the read view's multi-statement returned no result set");
        }
        return st.getResultSet();
    }

    private GtidSet readGtidExecuted() throws SQLException {
        return ServerGtidState.executed(snapshotConnection);
    }

    private static GtidSet parseGtidSet(ResultSet rs) throws SQLException {
        try (rs) {
            rs.next();
            return ServerGtidState.parse(rs.getString(1));
        }
    }

    private void lockTable(TableId table, LockWaits waits) throws SQLException, IOException {
        while (true) {
            try {
                execute(lockConnection, "LOCK TABLES " + table.quoted() + " READ");
                if (waits.failures > 0) {
                    LOG.info("Locked table {} after {} lock wait timeouts", table, waits.failures);
                }
                return;
            } catch (SQLException e) {
                if (!SqlErrors.isLockWaitTimeout(e)) {
                    throw e;
                }
            }
            waits.failed();
        }
    }

    /**
     * One chunk's attempts to lock its table and open the read view: each failed one counts
     * against {@code scan.snapshot.lock-wait.budget} and is followed by a backoff pause.
     */
    private final class LockWaits {
        private final TableId table;
        private final LockRetryPolicy policy =
                new LockRetryPolicy(options.lockWaitBudget(), () -> ThreadLocalRandom.current().nextDouble());
        private final long start = System.nanoTime();
        private int failures;

        LockWaits(TableId table) {
            this.table = table;
        }

        /** Pauses before the next attempt, or halts when the budget has no room for one. */
        void failed() throws IOException {
            failures++;
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            Duration delay = policy.nextDelay(failures, elapsed, options.lockWaitTimeout());
            if (delay == null) {
                throw new RetryBudgetExhaustedException(
                        HaltReason.LOCK_WAIT_BUDGET_EXHAUSTED,
                        "could not lock table " + table + " for reading within"
                                + " scan.snapshot.lock-wait.budget (" + options.lockWaitBudget()
                                .toSeconds() + " s, " + failures + " attempts): another session"
                                + " holds a conflicting lock (a long transaction, a LOCK TABLES"
                                + " ... WRITE or a DDL); let it finish, or raise"
                                + " scan.snapshot.lock-wait.budget; Flink's restart strategy (if"
                                + " any) restarts from the last checkpoint and tries again");
            }
            LOG.debug("Lock wait timeout on table {}, retrying in {} ms", table, delay.toMillis());
            try {
                Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting to lock " + table);
            }
        }
    }

    private void unlock() throws SQLException {
        try {
            execute(lockConnection, "UNLOCK TABLES");
        } catch (SQLException e) {
            // Closing the session is the other way to release the lock; never leave it held.
            JdbcConnections.closeQuietly(lockConnection);
            lockConnection = null;
            throw e;
        }
    }

    private List<RowData> readRows(ChunkRange range, TableReadSpec spec) throws SQLException {
        ChunkKey key = spec.key();
        StringBuilder sql = new StringBuilder(spec.selectPrefix());
        KeyPredicates.Predicate lower = range.low() == null ? null : KeyPredicates.atLeast(key);
        KeyPredicates.Predicate upper = range.high() == null ? null : KeyPredicates.below(key);
        if (lower != null || upper != null) {
            sql.append(" WHERE ");
        }
        if (lower != null) {
            sql.append('(').append(lower.sql()).append(')');
        }
        if (upper != null) {
            if (lower != null) {
                sql.append(" AND ");
            }
            sql.append('(').append(upper.sql()).append(')');
        }
        try (PreparedStatement ps =
                snapshotConnection.prepareStatement(
                        sql.toString(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            ps.setFetchSize(options.fetchSize() > 0 ? options.fetchSize() : Integer.MIN_VALUE);
            int next = 1;
            if (lower != null) {
                next = bind(ps, key, lower, range, true, next);
            }
            if (upper != null) {
                bind(ps, key, upper, range, false, next);
            }
            List<RowData> rows = new ArrayList<>();
            JdbcRowDecoder decoder = spec.decoder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(decoder.decode(rs));
                }
            }
            return rows;
        }
    }

    private static int bind(
            PreparedStatement ps,
            ChunkKey key,
            KeyPredicates.Predicate p,
            ChunkRange range,
            boolean low,
            int first)
            throws SQLException {
        int index = first;
        for (int column : p.parameterColumns()) {
            Object v = (low ? range.low() : range.high()).get(column);
            JdbcKeyValues.bindValue(key.column(column), v, ps, index++);
        }
        return index;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private void closeQuietly() {
        JdbcConnections.closeQuietly(lockConnection);
        JdbcConnections.closeQuietly(snapshotConnection);
        lockConnection = null;
        snapshotConnection = null;
    }

    @Override
    public void close() {
        closeQuietly();
    }
}

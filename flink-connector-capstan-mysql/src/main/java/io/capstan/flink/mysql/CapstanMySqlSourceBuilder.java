package io.capstan.flink.mysql;

import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.route.RoutedRowDeserializer;
import io.capstan.flink.mysql.route.TableRoutes;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SourceDefinition;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.capstan.flink.mysql.CapstanMySqlOptions.*;

/**
 * Builds a {@link CapstanMySqlSource}. Each method sets one of the {@link CapstanMySqlOptions} (its
 * javadoc names which); {@link #build()} checks them all through {@link
 * CapstanSourceConfig#validate}, the same validation the SQL connector uses, and fails with a
 * message naming the option by that name and the remedy. Defaults are the options' defaults, listed
 * in docs/datastream.md.
 */
@PublicEvolving
public final class CapstanMySqlSourceBuilder<T> {

    private final BuilderOptions options = new BuilderOptions();

    private final List<String> databaseList = new ArrayList<>();
    private final List<String> tableList = new ArrayList<>();
    private final Map<String, String> chunkKeyColumnByTable = new TreeMap<>();
    private final Map<String, String> jdbcProperties = new TreeMap<>();
    private List<String> snapshotColumns; // null: all columns
    private StartupOptions startupOptions = StartupOptions.initial();
    private CapstanDeserializer<T> deserializer;
    private boolean includeSchemaChanges;

    CapstanMySqlSourceBuilder() {}

    private <V> CapstanMySqlSourceBuilder<T> set(ConfigOption<V> option, V value) {
        options.set(option, value);
        return this;
    }

    /**
     * Reads only these columns in the snapshot (default: all), plus each table's chunk key columns;
     * in snapshot records the other columns are null (binlog records always carry every column).
     * Names compare case-insensitively. For consumers that use a column subset, such as the SQL
     * connector's projection push-down.
     */
    public CapstanMySqlSourceBuilder<T> snapshotColumns(List<String> columns) {
        this.snapshotColumns = new ArrayList<>(columns);
        return this;
    }

    /**
     * Option {@code scan.incremental.snapshot.chunk.size}: rows per snapshot chunk (default 8096,
     * at least 1); a chunk is read, emitted and checkpointed whole.
     */
    public CapstanMySqlSourceBuilder<T> chunkSize(int rows) {
        return set(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE, rows);
    }

    /**
     * Option {@code scan.snapshot.max-rows-per-second}: the most rows per second the whole job's
     * snapshot reads (default 0: no limit); each reader reading chunks takes an equal share.
     */
    public CapstanMySqlSourceBuilder<T> snapshotMaxRowsPerSecond(long rows) {
        return set(SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND, rows);
    }

    /**
     * Option {@code scan.snapshot.max-concurrent-chunk-reads}: the most chunks read from the server
     * at the same time (default 0: one per reader).
     */
    public CapstanMySqlSourceBuilder<T> snapshotMaxConcurrentChunkReads(int reads) {
        return set(SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS, reads);
    }

    /**
     * Option {@code scan.snapshot.keyless-table.max-rows}: a table without a primary key (and
     * without a chunk key column) is read as one unsplit chunk by one reader; a table whose
     * estimated row count is above this (default 100000) is refused before anything is read.
     */
    public CapstanMySqlSourceBuilder<T> keylessTableMaxRows(long rows) {
        return set(SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS, rows);
    }

    /**
     * Option {@code scan.snapshot.fetch.size}: rows fetched per round trip while reading a chunk
     * (default 0: the server streams the rows, the fastest); a positive value reads through a
     * server-side cursor.
     */
    public CapstanMySqlSourceBuilder<T> fetchSize(int rows) {
        return set(SCAN_SNAPSHOT_FETCH_SIZE, rows);
    }

    /**
     * Option {@code scan.incremental.snapshot.chunk.key-column}: the chunk key column of every
     * captured table (default: each table's primary key): a UNIQUE NOT NULL column of an integer,
     * DECIMAL, date/time or BINARY type. Cuts a table without a primary key into chunks (without
     * it, such a table is one chunk: {@link #keylessTableMaxRows}); used instead of the primary key
     * when set.
     */
    public CapstanMySqlSourceBuilder<T> chunkKeyColumn(String column) {
        return set(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN, column);
    }

    /**
     * Option {@code scan.incremental.snapshot.chunk.key-column} for one table ({@code
     * database.table}); wins over {@link #chunkKeyColumn(String)}.
     */
    public CapstanMySqlSourceBuilder<T> chunkKeyColumn(String table, String column) {
        this.chunkKeyColumnByTable.put(table, column);
        return this;
    }

    /**
     * Option {@code scan.snapshot.lock-wait.timeout}: how long one LOCK TABLES ... READ attempt may
     * wait (default 1 s, whole seconds): writers queue behind a waiting lock, so keep it short.
     */
    public CapstanMySqlSourceBuilder<T> lockWaitTimeout(Duration timeout) {
        return set(SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT, timeout);
    }

    /**
     * Option {@code scan.snapshot.lock-wait.budget}: total time spent retrying the lock of one
     * chunk before the job halts with {@code lock_wait_budget_exhausted} (default 60 s).
     */
    public CapstanMySqlSourceBuilder<T> lockWaitBudget(Duration budget) {
        return set(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET, budget);
    }

    /** Option {@code hostname}: the server's host name or address (required). */
    public CapstanMySqlSourceBuilder<T> hostname(String hostname) {
        return set(HOSTNAME, hostname);
    }

    /** Option {@code port}: the server's port (default 3306). */
    public CapstanMySqlSourceBuilder<T> port(int port) {
        return set(PORT, port);
    }

    /**
     * Options {@code scan.snapshot.hostname} and {@code scan.snapshot.port}: plan and read the
     * snapshot's chunks on this GTID replica of the server (its brief lock blocks only the
     * replica's applier); the binlog and the handoff stay on {@link #hostname}/{@link #port}. Same
     * account, TLS mode and driver properties. Default: unset, the snapshot reads the server.
     */
    public CapstanMySqlSourceBuilder<T> snapshotServer(String hostname, int port) {
        set(SCAN_SNAPSHOT_HOSTNAME, hostname);
        return set(SCAN_SNAPSHOT_PORT, port);
    }

    /** Option {@code username}: the connector user (required); see docs for its privileges. */
    public CapstanMySqlSourceBuilder<T> username(String username) {
        return set(USERNAME, username);
    }

    /** Option {@code password}: the user's password (default empty). Never logged or printed. */
    public CapstanMySqlSourceBuilder<T> password(String password) {
        return set(PASSWORD, password);
    }

    /**
     * Databases to capture: exact names or regular expressions matching whole names (SQL: {@code
     * database-name}).
     */
    public CapstanMySqlSourceBuilder<T> databaseList(String... databases) {
        this.databaseList.addAll(Arrays.asList(databases));
        return this;
    }

    /** Tables to capture as {@code database.table}; either part an exact name or a regex. */
    public CapstanMySqlSourceBuilder<T> tableList(String... tables) {
        this.tableList.addAll(Arrays.asList(tables));
        return this;
    }

    /**
     * Option {@code server-id}: the replica server id of the binlog connection, 1..4294967295 and
     * unique among all replicas of the server (default: random in 5400..6399 drawn at build time).
     */
    public CapstanMySqlSourceBuilder<T> serverId(long serverId) {
        return set(SERVER_ID, Long.toString(serverId));
    }

    /**
     * Options {@code scan.startup.mode} and its argument ({@code
     * scan.startup.specific-offset.gtid-set}, {@code scan.startup.timestamp-millis}): where a new
     * job starts (default {@link StartupOptions#initial()}).
     */
    public CapstanMySqlSourceBuilder<T> startupOptions(StartupOptions startupOptions) {
        this.startupOptions = startupOptions;
        return this;
    }

    /** Turns change events into records (required). */
    public CapstanMySqlSourceBuilder<T> deserializer(CapstanDeserializer<T> deserializer) {
        this.deserializer = deserializer;
        return this;
    }

    /**
     * Option {@code scan.snapshot.binlog-retention-check.interval}: how often an {@code initial}
     * snapshot checks that the binlog its handoff starts from is still on the server (default 3
     * min); once purged, the job halts ({@code data_gap}) without reading the rest.
     */
    public CapstanMySqlSourceBuilder<T> binlogRetentionCheckInterval(Duration interval) {
        return set(SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL, interval);
    }

    /** Option {@code connect.timeout}: timeout of one connection attempt (default 30 s). */
    public CapstanMySqlSourceBuilder<T> connectTimeout(Duration connectTimeout) {
        return set(CONNECT_TIMEOUT, connectTimeout);
    }

    /**
     * Option {@code connect.socket-timeout}: longest silence on a JDBC connection while a reply is
     * awaited (default 60 s); a dead network fails and recovers instead of hanging.
     */
    public CapstanMySqlSourceBuilder<T> socketTimeout(Duration socketTimeout) {
        return set(CONNECT_SOCKET_TIMEOUT, socketTimeout);
    }

    /** Option {@code connect.max-retries}: retries of a failed JDBC connection (default 3). */
    public CapstanMySqlSourceBuilder<T> connectMaxRetries(int connectMaxRetries) {
        return set(CONNECT_MAX_RETRIES, connectMaxRetries);
    }

    /** Option {@code ssl.mode}: TLS for JDBC and binlog connections (default PREFERRED). */
    public CapstanMySqlSourceBuilder<T> sslMode(SslMode sslMode) {
        return set(SSL_MODE, sslMode == null ? null : OptionRules.sslModeValue(sslMode));
    }

    /** Option {@code jdbc.properties.<key>}: a JDBC driver property, passed through unchanged. */
    public CapstanMySqlSourceBuilder<T> jdbcProperty(String key, String value) {
        this.jdbcProperties.put(key, value);
        return this;
    }

    /** Options {@code jdbc.properties.*}: JDBC driver properties, passed through unchanged. */
    public CapstanMySqlSourceBuilder<T> jdbcProperties(Map<String, String> properties) {
        this.jdbcProperties.putAll(properties);
        return this;
    }

    /**
     * Option {@code heartbeat.interval}: how often the server sends a heartbeat on a quiet binlog
     * connection (default 30 s).
     */
    public CapstanMySqlSourceBuilder<T> heartbeatInterval(Duration heartbeatInterval) {
        return set(HEARTBEAT_INTERVAL, heartbeatInterval);
    }

    /**
     * Option {@code scan.newly-added-table.enabled} ({@code initial} mode only): a job restored
     * from a checkpoint or savepoint whose table list now selects tables its state does not capture
     * snapshots exactly those tables, then streams them, while the tables it captured keep their
     * place in the binlog (docs/operations.md). Off, such a restore halts {@code
     * table_list_changed}. Tables left out of the list on restore stop being captured either way.
     */
    public CapstanMySqlSourceBuilder<T> scanNewlyAddedTableEnabled(boolean enabled) {
        return set(SCAN_NEWLY_ADDED_TABLE_ENABLED, enabled);
    }

    /**
     * Option {@code binlog.xa.max-pending-rows}: captured row changes of prepared XA transactions
     * held in memory until their XA COMMIT or XA ROLLBACK (default 100000, at least 1); more halts
     * with {@code xa_pending_rows_exceeded}.
     */
    public CapstanMySqlSourceBuilder<T> xaMaxPendingRows(int rows) {
        return set(BINLOG_XA_MAX_PENDING_ROWS, rows);
    }

    /**
     * Option {@code binlog.queue.capacity} (DataStream only): decoded binlog records buffered ahead
     * of the emitter (default 8192, at least 16).
     */
    public CapstanMySqlSourceBuilder<T> binlogQueueCapacity(int capacity) {
        return set(BINLOG_QUEUE_CAPACITY, capacity);
    }

    /**
     * Option {@code binlog.reconnect.backoff}: first delay before reconnecting a dropped binlog
     * connection, doubled up to 30 s (default 500 ms).
     */
    public CapstanMySqlSourceBuilder<T> reconnectBackoff(Duration backoff) {
        return set(BINLOG_RECONNECT_BACKOFF, backoff);
    }

    /**
     * Option {@code binlog.reconnect.budget}: how long reconnecting may take before the job fails
     * (default 10 min).
     */
    public CapstanMySqlSourceBuilder<T> reconnectBudget(Duration budget) {
        return set(BINLOG_RECONNECT_BUDGET, budget);
    }

    /**
     * Option {@code binlog.truncate.handling}: what a TRUNCATE of a captured table after its
     * snapshot does (default {@link TruncateHandling#HALT}): halt, emit it as a change event of
     * operation TRUNCATE ({@code JsonDebeziumDeserializer} writes {@code "op":"t"}; {@code
     * RowDataDeserializer} cannot express it and halts), or skip it with a WARN.
     */
    public CapstanMySqlSourceBuilder<T> truncateHandling(TruncateHandling handling) {
        return set(BINLOG_TRUNCATE_HANDLING, handling == null ? null : handling.optionValue());
    }

    /**
     * Option {@code scan.parse.online.schema.changes.enabled} (default false): follow the table
     * swap that ends a gh-ost or pt-online-schema-change run on a captured table as a schema change
     * (the stream continues under the same name, with the new columns), instead of halting with
     * {@code captured_table_removed}. mysql-cdc's builder method of the same name.
     */
    public CapstanMySqlSourceBuilder<T> parseOnLineSchemaChanges(boolean enabled) {
        return set(SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED, enabled);
    }

    /**
     * mysql-cdc's {@code includeSchemaChanges} (default false; DataStream only, as in mysql-cdc,
     * which has no SQL option for it): each DDL of a captured table ({@code ALTER TABLE}, {@code
     * CREATE TABLE}, {@code CREATE}/{@code DROP INDEX}, a followed online schema change's swap) is
     * handed to the deserializer as a change of operation {@code SCHEMA_CHANGE} at its position in
     * the stream, exactly once, with the table's new columns and the statement's kind (never its
     * text). {@code JsonDebeziumDeserializer} writes it in Debezium's schema-change shape; {@code
     * RowDataDeserializer} emits nothing for it.
     */
    public CapstanMySqlSourceBuilder<T> includeSchemaChanges(boolean include) {
        this.includeSchemaChanges = include;
        return this;
    }

    /**
     * Validates the options and builds the source.
     *
     * @throws IllegalArgumentException naming the first invalid option and how to fix it
     */
    public CapstanMySqlSource<T> build() {
        if (deserializer == null) {
            throw new IllegalArgumentException(
                    "deserializer is required, e.g. new JsonDebeziumDeserializer()");
        }
        if (deserializer.getProducedType() == null) {
            throw new IllegalArgumentException("deserializer must return a produced type");
        }
        CapstanSourceConfig config = validatedConfig();
        if (config.truncateHandling() == TruncateHandling.EMIT
                && (deserializer instanceof RowDataDeserializer
                        || deserializer instanceof RoutedRowDeserializer)) {
            throw OptionRules.invalid(
                    BINLOG_TRUNCATE_HANDLING,
                    "'emit' needs a deserializer that can express a TRUNCATE"
                            + " (JsonDebeziumDeserializer, or your own handling"
                            + " Operation.TRUNCATE); RowDataDeserializer and TableRoutes cannot. Use 'halt' or"
                            + " 'skip'.");
        }
        return new CapstanMySqlSource<>(config, deserializer);
    }

    /**
     * Validates the options as {@link #build()} does, without a deserializer: what {@link
     * TableRoutes#discover} connects with before the deserializer exists.
     *
     * @throws IllegalArgumentException naming the first invalid option and how to fix it
     */
    @Internal
    public CapstanSourceConfig validatedConfig() {
        Configuration values = options.values();
        if (startupOptions == null) {
            throw OptionRules.invalid(SCAN_STARTUP_MODE, "startupOptions must not be null.");
        }
        SourceDefinition definition =
                new SourceDefinition(
                        databaseList,
                        tableList,
                        chunkKeyColumnByTable,
                        snapshotColumns,
                        jdbcProperties);
        CapstanSourceConfig config =
                CapstanSourceConfig.validate(values, definition, startupOptions);
        return includeSchemaChanges ? config.withSchemaChangeEvents() : config;
    }
}

package io.capstan.flink.mysql;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.ReservedJdbcProperties;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SnapshotOptions;
import io.capstan.flink.mysql.source.TableSelection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Builds a {@link CapstanMySqlSource}. {@link #build()} validates every option and fails with a
 * message naming the option and the remedy; defaults are listed in docs/datastream.md.
 */
public final class CapstanMySqlSourceBuilder<T> {

    /** Server ids drawn when none is set, as Flink CDC does; set one explicitly in production. */
    static final long RANDOM_SERVER_ID_MIN = 5400;
    static final long RANDOM_SERVER_ID_MAX = 6400;

    private String hostname;
    private int port = 3306;
    private String username;
    private String password;
    private final List<String> databaseList = new ArrayList<>();
    private final List<String> tableList = new ArrayList<>();
    private Long serverId;
    private StartupOptions startupOptions = StartupOptions.initial();
    private CapstanDeserializer<T> deserializer;
    private Duration connectTimeout = Duration.ofSeconds(30);
    private int connectMaxRetries = 3;
    private SslMode sslMode = SslMode.PREFERRED;
    private final Map<String, String> jdbcProperties = new TreeMap<>();
    private Duration heartbeatInterval = Duration.ofSeconds(30);
    private int binlogQueueCapacity = 8192;
    private Duration reconnectBackoff = Duration.ofMillis(500);
    private Duration reconnectBudget = Duration.ofMinutes(10);
    private int chunkSize = SnapshotOptions.DEFAULT_CHUNK_SIZE;
    private int fetchSize = SnapshotReadOptions.DEFAULT_FETCH_SIZE;
    private Duration lockWaitTimeout = SnapshotReadOptions.DEFAULT_LOCK_WAIT_TIMEOUT;
    private Duration lockWaitBudget = SnapshotReadOptions.DEFAULT_LOCK_WAIT_BUDGET;
    private String chunkKeyColumn;
    private final Map<String, String> chunkKeyColumnByTable = new TreeMap<>();
    private List<String> snapshotColumns; // null: all columns

    CapstanMySqlSourceBuilder() {}

    /**
     * Reads only these columns in the snapshot (default: all), plus each table's chunk key
     * columns; in snapshot records the other columns are null (binlog records always carry every
     * column). Names compare case-insensitively. For consumers that use a column subset, such as
     * the SQL connector's projection push-down.
     */
    public CapstanMySqlSourceBuilder<T> snapshotColumns(List<String> columns) {
        this.snapshotColumns = new ArrayList<>(columns);
        return this;
    }

    /** Rows per snapshot chunk (default 8096); a chunk is read, emitted and checkpointed whole. */
    public CapstanMySqlSourceBuilder<T> chunkSize(int rows) {
        this.chunkSize = rows;
        return this;
    }

    /**
     * Rows fetched per round trip while reading a chunk (default 0: the server streams the rows,
     * the fastest); a positive value reads through a server-side cursor.
     */
    public CapstanMySqlSourceBuilder<T> fetchSize(int rows) {
        this.fetchSize = rows;
        return this;
    }

    /**
     * The chunk key column of every captured table (default: each table's primary key): a UNIQUE
     * NOT NULL column of an integer, DECIMAL, date/time or BINARY type. Needed for tables without
     * a primary key; used instead of the primary key when set.
     */
    public CapstanMySqlSourceBuilder<T> chunkKeyColumn(String column) {
        this.chunkKeyColumn = column;
        return this;
    }

    /** The chunk key column of one table ({@code database.table}); wins over {@link #chunkKeyColumn(String)}. */
    public CapstanMySqlSourceBuilder<T> chunkKeyColumn(String table, String column) {
        this.chunkKeyColumnByTable.put(table, column);
        return this;
    }

    /**
     * How long one LOCK TABLES ... READ attempt may wait (default 1 s, whole seconds): writers
     * queue behind a waiting lock, so keep it short.
     */
    public CapstanMySqlSourceBuilder<T> lockWaitTimeout(Duration timeout) {
        this.lockWaitTimeout = timeout;
        return this;
    }

    /**
     * Total time spent retrying the lock of one chunk before the job halts with
     * {@code lock_wait_budget_exhausted} (default 60 s).
     */
    public CapstanMySqlSourceBuilder<T> lockWaitBudget(Duration budget) {
        this.lockWaitBudget = budget;
        return this;
    }

    /** The server's host name or address (required). */
    public CapstanMySqlSourceBuilder<T> hostname(String hostname) {
        this.hostname = hostname;
        return this;
    }

    /** The server's port (default 3306). */
    public CapstanMySqlSourceBuilder<T> port(int port) {
        this.port = port;
        return this;
    }

    /** The connector user (required); see docs for the privileges it needs. */
    public CapstanMySqlSourceBuilder<T> username(String username) {
        this.username = username;
        return this;
    }

    /** The connector user's password (default empty). Never logged or printed. */
    public CapstanMySqlSourceBuilder<T> password(String password) {
        this.password = password;
        return this;
    }

    /** Databases to capture: exact names or regular expressions matching whole names. */
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
     * The replica server id of the binlog connection: unique among all replicas of the server
     * (default: random in 5400..6399 drawn at build time).
     */
    public CapstanMySqlSourceBuilder<T> serverId(long serverId) {
        this.serverId = serverId;
        return this;
    }

    /** Where a new job starts (default {@link StartupOptions#initial()}). */
    public CapstanMySqlSourceBuilder<T> startupOptions(StartupOptions startupOptions) {
        this.startupOptions = startupOptions;
        return this;
    }

    /** Turns change events into records (required). */
    public CapstanMySqlSourceBuilder<T> deserializer(CapstanDeserializer<T> deserializer) {
        this.deserializer = deserializer;
        return this;
    }

    /** Timeout of one connection attempt (default 30 s). */
    public CapstanMySqlSourceBuilder<T> connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /** Retries of a failed JDBC connection attempt, with capped backoff (default 3). */
    public CapstanMySqlSourceBuilder<T> connectMaxRetries(int connectMaxRetries) {
        this.connectMaxRetries = connectMaxRetries;
        return this;
    }

    /** TLS for JDBC and binlog connections (default PREFERRED). */
    public CapstanMySqlSourceBuilder<T> sslMode(SslMode sslMode) {
        this.sslMode = sslMode;
        return this;
    }

    /** An extra JDBC driver property, passed through unchanged. */
    public CapstanMySqlSourceBuilder<T> jdbcProperty(String key, String value) {
        this.jdbcProperties.put(key, value);
        return this;
    }

    /** Extra JDBC driver properties, passed through unchanged. */
    public CapstanMySqlSourceBuilder<T> jdbcProperties(Map<String, String> properties) {
        this.jdbcProperties.putAll(properties);
        return this;
    }

    /** How often the server sends a heartbeat on a quiet binlog connection (default 30 s). */
    public CapstanMySqlSourceBuilder<T> heartbeatInterval(Duration heartbeatInterval) {
        this.heartbeatInterval = heartbeatInterval;
        return this;
    }

    /** Decoded binlog records buffered ahead of the emitter (default 8192). */
    public CapstanMySqlSourceBuilder<T> binlogQueueCapacity(int capacity) {
        this.binlogQueueCapacity = capacity;
        return this;
    }

    /** First delay before reconnecting a dropped binlog connection, doubled up to 30 s (default 500 ms). */
    public CapstanMySqlSourceBuilder<T> reconnectBackoff(Duration backoff) {
        this.reconnectBackoff = backoff;
        return this;
    }

    /** How long reconnecting may take before the job fails (default 10 min). */
    public CapstanMySqlSourceBuilder<T> reconnectBudget(Duration budget) {
        this.reconnectBudget = budget;
        return this;
    }

    /**
     * Validates the options and builds the source.
     *
     * @throws IllegalArgumentException naming the first invalid option and how to fix it
     */
    public CapstanMySqlSource<T> build() {
        require(hostname != null && !hostname.isBlank(), "hostname is required");
        require(port >= 1 && port <= 65535, "port must be in 1..65535, was " + port);
        require(username != null && !username.isBlank(), "username is required");
        require(deserializer != null, "deserializer is required, e.g. new JsonDebeziumDeserializer()");
        require(deserializer.getProducedType() != null, "deserializer must return a produced type");
        require(startupOptions != null, "startupOptions must not be null");
        long id = serverId != null
                ? serverId
                : ThreadLocalRandom.current().nextLong(RANDOM_SERVER_ID_MIN, RANDOM_SERVER_ID_MAX);
        require(id >= 1 && id <= 4294967295L, "serverId must be in 1..4294967295, was " + id);
        requirePositive(connectTimeout, "connectTimeout");
        require(connectMaxRetries >= 0, "connectMaxRetries must be >= 0, was " + connectMaxRetries);
        require(sslMode != null, "sslMode must not be null");
        requirePositive(heartbeatInterval, "heartbeatInterval");
        require(binlogQueueCapacity >= 16, "binlogQueueCapacity must be >= 16, was " + binlogQueueCapacity);
        requirePositive(reconnectBackoff, "reconnectBackoff");
        requirePositive(reconnectBudget, "reconnectBudget");
        for (String key : jdbcProperties.keySet()) {
            Optional<String> remedy = ReservedJdbcProperties.remedy(key);
            require(remedy.isEmpty(), "jdbcProperties must not set '" + key + "': " + remedy.orElse(""));
        }
        TableSelection tables = TableSelection.of(databaseList, tableList);
        require(chunkSize >= 1, "chunkSize must be >= 1, was " + chunkSize);
        require(fetchSize >= 0, "fetchSize must be >= 0 (0 streams the rows), was " + fetchSize);
        requirePositive(lockWaitTimeout, "lockWaitTimeout");
        requirePositive(lockWaitBudget, "lockWaitBudget");
        require(chunkKeyColumn == null || !chunkKeyColumn.isBlank(), "chunkKeyColumn must not be blank");
        for (Map.Entry<String, String> e : chunkKeyColumnByTable.entrySet()) {
            require(e.getKey() != null && e.getKey().split("\\.", -1).length == 2,
                    "chunkKeyColumn(table, column): the table must be 'database.table', was '"
                            + e.getKey() + "'");
            require(e.getValue() != null && !e.getValue().isBlank(),
                    "chunkKeyColumn of table " + e.getKey() + " must not be blank");
        }
        if (snapshotColumns != null) {
            for (String c : snapshotColumns) {
                require(c != null && !c.isBlank(), "snapshotColumns must not contain a blank name");
            }
        }
        SnapshotReadOptions readOptions;
        try {
            readOptions = new SnapshotReadOptions(fetchSize, lockWaitTimeout, lockWaitBudget, snapshotColumns);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage()
                    .replace("scan.snapshot.lock-wait.timeout", "lockWaitTimeout")
                    .replace("scan.snapshot.lock-wait.budget", "lockWaitBudget")
                    .replace("scan.snapshot.fetch.size", "fetchSize"), e);
        }
        SnapshotOptions snapshot =
                new SnapshotOptions(chunkSize, readOptions, chunkKeyColumn, chunkKeyColumnByTable);

        MySqlConnectionConfig connection =
                MySqlConnectionConfig.builder()
                        .hostname(hostname)
                        .port(port)
                        .username(username)
                        .password(password)
                        .connectTimeout(connectTimeout)
                        .maxRetries(connectMaxRetries)
                        .sslMode(sslMode)
                        .heartbeatInterval(heartbeatInterval)
                        .jdbcProperties(jdbcProperties)
                        .build();
        CapstanSourceConfig config =
                new CapstanSourceConfig(
                        connection,
                        tables,
                        id,
                        startupOptions,
                        binlogQueueCapacity,
                        reconnectBackoff,
                        reconnectBudget,
                        snapshot);
        return new CapstanMySqlSource<>(config, deserializer);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private static void requirePositive(Duration d, String option) {
        require(d != null && !d.isZero() && !d.isNegative(), option + " must be a positive duration");
    }
}

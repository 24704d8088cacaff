package io.capstan.flink.mysql;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;

/**
 * The options of a capstan source, one model for both entry points: the SQL connector reads them
 * from a table's {@code WITH} clause under these names, and {@link CapstanMySqlSourceBuilder} sets
 * them through its methods (each method's javadoc names its option). Names follow Flink CDC's
 * {@code mysql-cdc} where the meaning is the same. {@link
 * io.capstan.flink.mysql.source.CapstanSourceConfig#validate} checks every value; error messages
 * name the option by the key below. docs/sql.md and docs/datastream.md list them all.
 */
@PublicEvolving
public final class CapstanMySqlOptions {

    private CapstanMySqlOptions() {}

    /**
     * Prefix of JDBC driver properties passed through unchanged ({@code jdbc.properties.<name>};
     * the builder's {@code jdbcProperty(name, value)}).
     */
    public static final String JDBC_PROPERTIES_PREFIX = "jdbc.properties.";

    public static final ConfigOption<String> HOSTNAME =
            ConfigOptions.key("hostname")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Host name or IP address of the MySQL server (required).");

    public static final ConfigOption<Integer> PORT =
            ConfigOptions.key("port")
                    .intType()
                    .defaultValue(3306)
                    .withDescription("TCP port of the MySQL server, 1..65535.");

    public static final ConfigOption<String> USERNAME =
            ConfigOptions.key("username")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("MySQL user to connect as (required).");

    public static final ConfigOption<String> PASSWORD =
            ConfigOptions.key("password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Password of the MySQL user (empty when unset). Never printed.");

    public static final ConfigOption<String> SERVER_ID =
            ConfigOptions.key("server-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Replica server id of the binlog connection, unique among the server's"
                                    + " replicas: a number in 1..4294967295, or a range such as"
                                    + " '5400-5408' (the single binlog reader uses the first). Default:"
                                    + " random in 5400..6399.");

    public static final ConfigOption<String> SCAN_STARTUP_MODE =
            ConfigOptions.key("scan.startup.mode")
                    .stringType()
                    .defaultValue("initial")
                    .withDescription(
                            "Where a new job starts: initial, snapshot, latest-offset,"
                                    + " earliest-offset, specific-offset or timestamp.");

    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET =
            ConfigOptions.key("scan.startup.specific-offset.gtid-set")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "GTID set of transactions already processed; required by"
                                    + " scan.startup.mode 'specific-offset'.");

    public static final ConfigOption<Long> SCAN_STARTUP_TIMESTAMP_MILLIS =
            ConfigOptions.key("scan.startup.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "Start at the first transaction committed at or after this epoch"
                                    + " millisecond (>= 0); required by scan.startup.mode 'timestamp'.");

    public static final ConfigOption<Integer> SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE =
            ConfigOptions.key("scan.incremental.snapshot.chunk.size")
                    .intType()
                    .defaultValue(8096)
                    .withDescription(
                            "Rows per snapshot chunk when it is planned (>= 1); a chunk is read,"
                                    + " emitted and checkpointed whole.");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND =
            ConfigOptions.key("scan.snapshot.max-rows-per-second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "The most rows per second the whole job's snapshot reads (>= 0; 0: no"
                                    + " limit). Each reader that reads chunks takes an equal share;"
                                    + " a chunk is read whole, then its reader waits until its rows"
                                    + " are paid for at that share.");

    public static final ConfigOption<Integer> SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS =
            ConfigOptions.key("scan.snapshot.max-concurrent-chunk-reads")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "The most chunks read from the server at the same time (>= 0; 0: one"
                                    + " per reader, the source's parallelism). Readers beyond it"
                                    + " read no chunk; one of them may stream the binlog.");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS =
            ConfigOptions.key("scan.snapshot.keyless-table.max-rows")
                    .longType()
                    .defaultValue(100_000L)
                    .withDescription(
                            "A table without a primary key or UNIQUE NOT NULL chunk key column is"
                                    + " read as one unsplit chunk, by one reader, held in memory"
                                    + " whole; a table whose estimated row count (information_schema"
                                    + " TABLE_ROWS) is above this many rows is refused before"
                                    + " anything is read (>= 0). Add a key, or raise the limit.");

    public static final ConfigOption<Boolean> SCAN_NEWLY_ADDED_TABLE_ENABLED =
            ConfigOptions.key("scan.newly-added-table.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Scan mode 'initial' only: when a job restored from a checkpoint or"
                                    + " savepoint finds tables its table list selects now but its"
                                    + " state does not capture, snapshot exactly those tables while"
                                    + " the binlog split pauses at a transaction boundary, then"
                                    + " stream them too. When false such a restore halts"
                                    + " (table_list_changed).");

    public static final ConfigOption<Boolean> SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED =
            ConfigOptions.key("scan.parse.online.schema.changes.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Follow the table swap that ends a gh-ost or pt-online-schema-change"
                                    + " run (RENAME TABLE t TO _t_del, _t_gho TO t; RENAME TABLE t"
                                    + " TO _t_old, _t_new TO t) as a schema change of the captured"
                                    + " table: the stream continues with the new table's rows under"
                                    + " the same name, with no snapshot. When false such a swap"
                                    + " halts (captured_table_removed).");

    public static final ConfigOption<Integer> SCAN_SNAPSHOT_FETCH_SIZE =
            ConfigOptions.key("scan.snapshot.fetch.size")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "How a chunk's rows are fetched: 0 streams them one by one from the"
                                    + " server (fastest); a positive value fetches that many rows per"
                                    + " round trip through a server-side cursor.");

    public static final ConfigOption<String> SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN =
            ConfigOptions.key("scan.incremental.snapshot.chunk.key-column")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The UNIQUE NOT NULL column that cuts a table into chunks, instead of"
                                    + " the primary key; required for a table without primary key.");

    public static final ConfigOption<Duration> SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT =
            ConfigOptions.key("scan.snapshot.lock-wait.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Longest wait of one LOCK TABLES attempt of a snapshot chunk (whole"
                                    + " seconds, at least 1 s); writers queue behind a waiting lock, so"
                                    + " keep it short.");

    public static final ConfigOption<Duration> SCAN_SNAPSHOT_LOCK_WAIT_BUDGET =
            ConfigOptions.key("scan.snapshot.lock-wait.budget")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "Total time a snapshot chunk may spend retrying its brief LOCK TABLES"
                                    + " before the job halts (lock_wait_budget_exhausted); at least"
                                    + " scan.snapshot.lock-wait.timeout.");

    public static final ConfigOption<String> SCAN_SNAPSHOT_HOSTNAME =
            ConfigOptions.key("scan.snapshot.hostname")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Host name or address of a GTID replica of the server on which the"
                                    + " snapshot's chunks are planned and read (brief lock and"
                                    + " rows there); the binlog and the handoff stay on 'hostname'."
                                    + " Same user, password and TLS. Default: unset, the snapshot"
                                    + " reads the server at 'hostname'.");

    public static final ConfigOption<Integer> SCAN_SNAPSHOT_PORT =
            ConfigOptions.key("scan.snapshot.port")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "TCP port of scan.snapshot.hostname, 1..65535. Default: 'port'.");

    public static final ConfigOption<Duration> SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL =
            ConfigOptions.key("scan.snapshot.binlog-retention-check.interval")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(3))
                    .withDescription(
                            "How often an 'initial' snapshot asks the server's gtid_purged whether"
                                    + " the binlog its handoff starts from is still there (positive);"
                                    + " once purged, the job halts at once (data_gap) instead of"
                                    + " at the end of the snapshot.");

    public static final ConfigOption<Duration> CONNECT_TIMEOUT =
            ConfigOptions.key("connect.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription("Timeout of one connection attempt (positive).");

    public static final ConfigOption<Duration> CONNECT_SOCKET_TIMEOUT =
            ConfigOptions.key("connect.socket-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "Longest silence on a JDBC connection while waiting for the server's"
                                    + " reply (positive): a network that drops packets without a"
                                    + " reset fails the call after this long instead of hanging; it"
                                    + " bounds a silent socket, not a statement that streams rows.");

    public static final ConfigOption<Integer> CONNECT_MAX_RETRIES =
            ConfigOptions.key("connect.max-retries")
                    .intType()
                    .defaultValue(3)
                    .withDescription(
                            "Attempts after the first before a connection failure is final (>= 0).");

    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL =
            ConfigOptions.key("heartbeat.interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "Interval of the server's heartbeats on a quiet binlog connection.");

    public static final ConfigOption<Duration> BINLOG_RECONNECT_BACKOFF =
            ConfigOptions.key("binlog.reconnect.backoff")
                    .durationType()
                    .defaultValue(Duration.ofMillis(500))
                    .withDescription(
                            "First pause before reconnecting a dropped binlog connection, doubled up"
                                    + " to 30 s with jitter.");

    public static final ConfigOption<Duration> BINLOG_RECONNECT_BUDGET =
            ConfigOptions.key("binlog.reconnect.budget")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "How long a dropped binlog connection may keep failing to reconnect"
                                    + " before the job halts (reconnect_budget_exhausted).");

    public static final ConfigOption<String> BINLOG_TRUNCATE_HANDLING =
            ConfigOptions.key("binlog.truncate.handling")
                    .stringType()
                    .defaultValue("halt")
                    .withDescription(
                            "What a TRUNCATE of a captured table after its snapshot does: halt"
                                    + " (captured_table_truncated), emit (a change event of operation"
                                    + " TRUNCATE, op \"t\" in the JSON envelope; RowData and SQL halt)"
                                    + " or skip (one WARN; downstream keeps the rows).");

    public static final ConfigOption<Integer> BINLOG_XA_MAX_PENDING_ROWS =
            ConfigOptions.key("binlog.xa.max-pending-rows")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "Captured row changes of prepared XA transactions the binlog reader"
                                    + " holds in memory until their XA COMMIT or XA ROLLBACK (>= 1);"
                                    + " more halts with xa_pending_rows_exceeded.");

    /** DataStream only: the SQL connector keeps the default. */
    public static final ConfigOption<Integer> BINLOG_QUEUE_CAPACITY =
            ConfigOptions.key("binlog.queue.capacity")
                    .intType()
                    .defaultValue(8192)
                    .withDescription(
                            "Decoded binlog records buffered between the binlog connection and the"
                                    + " emitter (>= 16).");

    public static final ConfigOption<String> SSL_MODE =
            ConfigOptions.key("ssl.mode")
                    .stringType()
                    .defaultValue("preferred")
                    .withDescription(
                            "TLS for the JDBC and binlog connections: disabled, preferred,"
                                    + " required, verify-ca or verify-identity.");
}

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
 * name the option by the key below. Each description is the option's one user-facing text, plain
 * Markdown: docs/sql.md and docs/datastream.md render their option tables from it (see
 * docs/testing.md, "Generated option tables").
 */
@PublicEvolving
public final class CapstanMySqlOptions {

    private CapstanMySqlOptions() {}

    /** Prefix of JDBC driver properties passed through ({@code jdbcProperty(name, value)}). */
    public static final String JDBC_PROPERTIES_PREFIX = "jdbc.properties.";

    public static final ConfigOption<String> HOSTNAME =
            ConfigOptions.key("hostname")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Host name or IP address of the MySQL server.");

    public static final ConfigOption<Integer> PORT =
            ConfigOptions.key("port")
                    .intType()
                    .defaultValue(3306)
                    .withDescription("TCP port of the MySQL server, 1..65535.");

    public static final ConfigOption<String> USERNAME =
            ConfigOptions.key("username")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "MySQL user to connect as, the connector's account (privileges: see"
                                    + " [operations.md](operations.md)).");

    public static final ConfigOption<String> PASSWORD =
            ConfigOptions.key("password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The user's password. Never printed: never logged, never in"
                                    + " `toString()` or messages (shown as `******` in Flink's own"
                                    + " messages).");

    public static final ConfigOption<String> SERVER_ID =
            ConfigOptions.key("server-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Replica server id of the binlog connection, 1..4294967295; it must be"
                                    + " unique among everything replicating from the server. In SQL"
                                    + " a number, or a range `start-end`: capstan reads the binlog"
                                    + " with **one** reader (snapshot chunks are read over JDBC and"
                                    + " need no id), so with a range it uses the **first** id;"
                                    + " ranges are accepted so that mysql-cdc tables work"
                                    + " unchanged. The builder's `serverId(long)` takes one id. Set"
                                    + " it explicitly in production.");

    public static final ConfigOption<String> SCAN_STARTUP_MODE =
            ConfigOptions.key("scan.startup.mode")
                    .stringType()
                    .defaultValue("initial")
                    .withDescription(
                            "Where a new job starts: `initial`, `snapshot`, `latest-offset`,"
                                    + " `earliest-offset`, `specific-offset` or `timestamp`; see"
                                    + " [Startup modes](sql.md#startup-modes). A job restored from"
                                    + " a checkpoint or savepoint does not start again here: it"
                                    + " resumes exactly where its state says and streams on as its"
                                    + " state started (a later `scan.startup.timestamp-millis` or"
                                    + " another mode drops nothing; see"
                                    + " [operations.md](operations.md#upgrades-and-savepoints)).");

    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET =
            ConfigOptions.key("scan.startup.specific-offset.gtid-set")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "GTID set of the transactions already processed, in MySQL's text form"
                                    + " (as `SELECT @@global.gtid_executed` prints it; on MariaDB"
                                    + " its GTID position, `SELECT @@global.gtid_binlog_pos`). The"
                                    + " job streams every transaction **not** in the set. Not empty (to"
                                    + " stream everything the server still holds, use"
                                    + " `earliest-offset`). Only with `specific-offset` (ignored in"
                                    + " other modes).");

    public static final ConfigOption<Long> SCAN_STARTUP_TIMESTAMP_MILLIS =
            ConfigOptions.key("scan.startup.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "Stream from the first transaction committed at or after this time, in"
                                    + " milliseconds since the epoch (UTC), ≥ 0. Only with"
                                    + " `timestamp` (ignored in other modes).");

    public static final ConfigOption<Integer> SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE =
            ConfigOptions.key("scan.incremental.snapshot.chunk.size")
                    .intType()
                    .defaultValue(8096)
                    .withDescription(
                            "Rows per snapshot chunk when it is planned (≥ 1). A chunk is read,"
                                    + " emitted and checkpointed whole, so it bounds the rows a"
                                    + " reader holds at once. Only with `initial` or `snapshot`"
                                    + " (ignored in other modes).");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND =
            ConfigOptions.key("scan.snapshot.max-rows-per-second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "capstan-only. The most rows per second the whole job's snapshot reads"
                                    + " (≥ 0; `0`: no limit). Each reader that reads chunks takes"
                                    + " an equal share; a chunk is read whole and its reader then"
                                    + " waits until its rows are paid for, so lower"
                                    + " `scan.incremental.snapshot.chunk.size` for a smoother load."
                                    + " See [snapshot.md](snapshot.md#throttling-the-snapshot)."
                                    + " Only with `initial` or `snapshot`.");

    public static final ConfigOption<Integer> SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS =
            ConfigOptions.key("scan.snapshot.max-concurrent-chunk-reads")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "capstan-only. The most chunks read from the server at the same time (≥"
                                    + " 0; `0`: one per reader, the source's parallelism); readers"
                                    + " beyond it read no chunk. Only with `initial` or `snapshot`.");

    public static final ConfigOption<Long> SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS =
            ConfigOptions.key("scan.snapshot.keyless-table.max-rows")
                    .longType()
                    .defaultValue(100_000L)
                    .withDescription(
                            "capstan-only. A table without a primary key and without a chunk key"
                                    + " column is read as one unsplit chunk, exactly once, by one"
                                    + " reader that holds it in memory; its changes retract and add"
                                    + " whole rows, so declare no `PRIMARY KEY`. A table whose"
                                    + " estimated row count (`information_schema.TABLES`) is above"
                                    + " this (≥ 0) is refused before anything is read"
                                    + " (`table_without_key`); add a key or raise the limit. See"
                                    + " [snapshot.md](snapshot.md#chunks).");

    public static final ConfigOption<Boolean> SCAN_NEWLY_ADDED_TABLE_ENABLED =
            ConfigOptions.key("scan.newly-added-table.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "mysql-cdc's name. Start mode `initial` only (refused by name with the"
                                    + " other modes, in SQL and by `build()`): a job restored from"
                                    + " a savepoint or checkpoint whose table lists (`table-name` /"
                                    + " `database-name`; the builder's `tableList` /"
                                    + " `databaseList`) now select tables its state does not"
                                    + " capture snapshots exactly those tables, then streams them,"
                                    + " while the captured tables keep streaming (see"
                                    + " [operations.md](operations.md#adding-and-removing-tables))."
                                    + " `false`: such a restore halts with `table_list_changed`."
                                    + " Tables left out of the list stop being captured either way.");

    public static final ConfigOption<Boolean> SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED =
            ConfigOptions.key("scan.parse.online.schema.changes.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "mysql-cdc's name. `true` follows the table swap that ends a gh-ost"
                                    + " (`RENAME TABLE t TO _t_del, _t_gho TO t`) or"
                                    + " pt-online-schema-change (`RENAME TABLE t TO _t_old, _t_new"
                                    + " TO t`) run on a captured table as a schema change: the"
                                    + " stream continues under the table's name with the new"
                                    + " table's rows and columns (found by name; in SQL they must"
                                    + " still fit the declared ones), with no snapshot and nothing"
                                    + " retracted or repeated. `false`: the swap halts with"
                                    + " `captured_table_removed`, naming this option. Other renames"
                                    + " still halt (see"
                                    + " [operations.md](operations.md#changing-a-captured-table)).");

    public static final ConfigOption<Integer> SCAN_SNAPSHOT_FETCH_SIZE =
            ConfigOptions.key("scan.snapshot.fetch.size")
                    .intType()
                    .defaultValue(0)
                    .withDescription(
                            "How a chunk's rows come from the server: `0` streams them one by one"
                                    + " (the fastest, and the DataStream builder's default); `n >"
                                    + " 0` fetches `n` rows per round trip through a server-side"
                                    + " cursor (the server materializes the chunk in a temporary"
                                    + " table first). Only with `initial` or `snapshot` (ignored in"
                                    + " other modes).");

    public static final ConfigOption<String> SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN =
            ConfigOptions.key("scan.incremental.snapshot.chunk.key-column")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A `NOT NULL` column of an orderable type (integer, `DECIMAL`,"
                                    + " date/time, `YEAR`, `BINARY`/`VARBINARY`, `BIT`, or"
                                    + " `CHAR`/`VARCHAR` in any collation; see"
                                    + " [snapshot.md](snapshot.md#chunks)) that cuts a table"
                                    + " without a primary key into chunks: by its values as keys"
                                    + " when it has a `UNIQUE` index of its own, else by ranges of"
                                    + " its values (all rows of a value in one chunk; declare no"
                                    + " `PRIMARY KEY`: the changes retract and add whole rows); for"
                                    + " a table whose primary key cannot be a chunk key it must be"
                                    + " `UNIQUE NOT NULL`; a table whose primary key can be a chunk"
                                    + " key is still chunked by it, so that an update of the column"
                                    + " during the snapshot cannot show a row twice (see"
                                    + " [snapshot.md](snapshot.md#chunks), halt"
                                    + " `row_moved_between_chunks`); for a table without a primary"
                                    + " key a unique one is also the only column you may declare as"
                                    + " `PRIMARY KEY` (without it, such a table is read as one"
                                    + " unsplit chunk: `scan.snapshot.keyless-table.max-rows`)."
                                    + " Applies to every table the patterns match. Cuts chunks only"
                                    + " with `initial` or `snapshot` (ignored for reading in other"
                                    + " modes, where it still names the column a declared `PRIMARY"
                                    + " KEY` may use).");

    public static final ConfigOption<Duration> SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT =
            ConfigOptions.key("scan.snapshot.lock-wait.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "capstan-only. Longest wait of one `LOCK TABLES ... READ` attempt of a"
                                    + " chunk (whole seconds, ≥ 1 s): writers queue behind a"
                                    + " waiting lock request, so keep it short. Only with `initial`"
                                    + " or `snapshot` (ignored in other modes).");

    public static final ConfigOption<Duration> SCAN_SNAPSHOT_LOCK_WAIT_BUDGET =
            ConfigOptions.key("scan.snapshot.lock-wait.budget")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "capstan-only. Total time one snapshot chunk may spend retrying its"
                                    + " brief `LOCK TABLES ... READ` (with backoff between"
                                    + " attempts) before the job fails with"
                                    + " `lock_wait_budget_exhausted`; ≥"
                                    + " `scan.snapshot.lock-wait.timeout`. Only with `initial` or"
                                    + " `snapshot` (ignored in other modes).");

    public static final ConfigOption<String> SCAN_SNAPSHOT_HOSTNAME =
            ConfigOptions.key("scan.snapshot.hostname")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "capstan-only. Host name or address of a GTID replica of the server"
                                    + " (`hostname`) on which the snapshot's chunks are planned and"
                                    + " read: the brief `LOCK TABLES ... READ` and the rows are on"
                                    + " the replica, blocking only its replication applier, never"
                                    + " the primary's writers. The binlog, its preflight and the"
                                    + " handoff stay on `hostname`. Same `username`, `password`,"
                                    + " `ssl.mode` and `jdbc.properties.*`. Checked before anything"
                                    + " is read: `gtid_mode = ON`, `SELECT` and `LOCK TABLES` on"
                                    + " the tables, and no transaction the primary lacks"
                                    + " (`snapshot_server_diverged`); `read_only` and"
                                    + " `log_replica_updates = OFF` are fine. Costs one `SELECT"
                                    + " @@gtid_executed` on the primary per chunk; replica lag"
                                    + " makes the handoff start earlier in the binlog. See"
                                    + " [operations.md](operations.md#keeping-the-snapshot-off-the-primary)."
                                    + " Only with `initial` or `snapshot` (ignored in other modes).");

    public static final ConfigOption<Integer> SCAN_SNAPSHOT_PORT =
            ConfigOptions.key("scan.snapshot.port")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "capstan-only. TCP port of `scan.snapshot.hostname`, 1..65535; needs"
                                    + " `scan.snapshot.hostname`.");

    public static final ConfigOption<Duration> SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL =
            ConfigOptions.key("scan.snapshot.binlog-retention-check.interval")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(3))
                    .withDescription(
                            "capstan-only. How often an `initial` snapshot asks the server's"
                                    + " `gtid_purged` whether the binlog its handoff to the binlog"
                                    + " starts from is still there (positive). Once the server"
                                    + " purged a transaction the handoff still has to read, the job"
                                    + " fails at once with `data_gap` (remedy: longer"
                                    + " `binlog_expire_logs_seconds`, more parallelism) instead of"
                                    + " after the whole snapshot. Only with `initial` (ignored in"
                                    + " other modes).");

    public static final ConfigOption<Duration> CONNECT_TIMEOUT =
            ConfigOptions.key("connect.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "Timeout of one connection attempt, JDBC and binlog (positive).");

    public static final ConfigOption<Duration> CONNECT_SOCKET_TIMEOUT =
            ConfigOptions.key("connect.socket-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "Longest silence on a JDBC connection while a reply is awaited"
                                    + " (positive): planning queries, schema reads and chunk reads"
                                    + " on a network that drops packets without a reset fail after"
                                    + " this long and are retried, instead of hanging until the OS"
                                    + " keepalive gives up (hours). It bounds a silent socket, not"
                                    + " a statement that streams rows; the locking connection waits"
                                    + " at least `scan.snapshot.lock-wait.timeout` + 10 s. A"
                                    + " `jdbc.properties.socketTimeout` (the builder's"
                                    + " `jdbcProperty(\"socketTimeout\", ms)`; milliseconds, how"
                                    + " mysql-cdc users set it) is taken as this option; setting"
                                    + " both is refused, and so is 0 (no timeout).");

    public static final ConfigOption<Integer> CONNECT_MAX_RETRIES =
            ConfigOptions.key("connect.max-retries")
                    .intType()
                    .defaultValue(3)
                    .withDescription(
                            "Attempts after the first before a failure to open a JDBC connection is"
                                    + " final (≥ 0), with capped backoff; wrong credentials are not"
                                    + " retried.");

    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL =
            ConfigOptions.key("heartbeat.interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "How often the server sends a heartbeat on a quiet binlog connection"
                                    + " (positive).");

    public static final ConfigOption<Duration> BINLOG_RECONNECT_BACKOFF =
            ConfigOptions.key("binlog.reconnect.backoff")
                    .durationType()
                    .defaultValue(Duration.ofMillis(500))
                    .withDescription(
                            "First pause before reconnecting a dropped binlog connection (lost"
                                    + " network, server restart, `KILL`); doubled up to 30 s, with"
                                    + " jitter. Reconnecting resumes at the exact position.");

    public static final ConfigOption<Duration> BINLOG_RECONNECT_BUDGET =
            ConfigOptions.key("binlog.reconnect.budget")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "How long reconnecting may keep failing before the job halts with"
                                    + " `reconnect_budget_exhausted` (see [halts.md](halts.md));"
                                    + " raise it if the server may be down longer, e.g. during a"
                                    + " failover.");

    public static final ConfigOption<String> BINLOG_TRUNCATE_HANDLING =
            ConfigOptions.key("binlog.truncate.handling")
                    .stringType()
                    .defaultValue("halt")
                    .withDescription(
                            "capstan-only. What a `TRUNCATE` of a captured table after its snapshot"
                                    + " does: `halt` (`captured_table_truncated`, see"
                                    + " [halts.md](halts.md)), `skip` (one WARN; downstream, e.g."
                                    + " the Flink table, keeps the table's rows) or `emit`, a"
                                    + " change event of `Operation.TRUNCATE` with no images and no"
                                    + " schema, which `JsonDebeziumDeserializer` writes as"
                                    + " `\"op\":\"t\"`. A changelog has no way to say \"every row"
                                    + " is gone\", so `emit` is refused where rows are a changelog:"
                                    + " in SQL when the table is planned, naming the two values"
                                    + " that work, and by `build()` with `RowDataDeserializer`."
                                    + " `DROP` and `RENAME` of a captured table halt"
                                    + " (`captured_table_removed`), except an online schema change"
                                    + " tool's swap followed under"
                                    + " `scan.parse.online.schema.changes.enabled`.");

    public static final ConfigOption<Integer> BINLOG_XA_MAX_PENDING_ROWS =
            ConfigOptions.key("binlog.xa.max-pending-rows")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "capstan-only. Captured row changes of prepared XA transactions held in"
                                    + " the binlog reader's memory until their `XA COMMIT` / `XA"
                                    + " ROLLBACK` (at least 1); more halts with"
                                    + " `xa_pending_rows_exceeded` (see [halts.md](halts.md) and"
                                    + " [XA transactions](datastream.md#xa-transactions)).");

    public static final ConfigOption<Integer> BINLOG_QUEUE_CAPACITY =
            ConfigOptions.key("binlog.queue.capacity")
                    .intType()
                    .defaultValue(8192)
                    .withDescription(
                            "Decoded binlog records buffered between the binlog connection and the"
                                    + " emitter (at least 16). DataStream only: the SQL connector"
                                    + " keeps the default.");

    public static final ConfigOption<String> SSL_MODE =
            ConfigOptions.key("ssl.mode")
                    .stringType()
                    .defaultValue("preferred")
                    .withDescription(
                            "capstan-only. TLS for the JDBC and binlog connections: `disabled`,"
                                    + " `preferred` (TLS if the server offers it), `required` (TLS,"
                                    + " certificate not verified), `verify-ca`, `verify-identity`"
                                    + " (the builder's `SslMode.DISABLED`, `PREFERRED`, `REQUIRED`,"
                                    + " `VERIFY_CA`, `VERIFY_IDENTITY`).");
}

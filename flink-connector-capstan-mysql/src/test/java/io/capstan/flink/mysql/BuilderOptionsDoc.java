package io.capstan.flink.mysql;

import io.capstan.flink.mysql.testing.GeneratedDocs;

import org.apache.flink.configuration.ConfigOption;

import java.util.ArrayList;
import java.util.List;

import static io.capstan.flink.mysql.CapstanMySqlOptions.BINLOG_QUEUE_CAPACITY;
import static io.capstan.flink.mysql.CapstanMySqlOptions.BINLOG_RECONNECT_BACKOFF;
import static io.capstan.flink.mysql.CapstanMySqlOptions.BINLOG_RECONNECT_BUDGET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.BINLOG_TRUNCATE_HANDLING;
import static io.capstan.flink.mysql.CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS;
import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_MAX_RETRIES;
import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_SOCKET_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.HEARTBEAT_INTERVAL;
import static io.capstan.flink.mysql.CapstanMySqlOptions.HOSTNAME;
import static io.capstan.flink.mysql.CapstanMySqlOptions.PASSWORD;
import static io.capstan.flink.mysql.CapstanMySqlOptions.PORT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_NEWLY_ADDED_TABLE_ENABLED;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_FETCH_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_HOSTNAME;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_BUDGET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_PORT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_MODE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_TIMESTAMP_MILLIS;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SERVER_ID;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SSL_MODE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.USERNAME;

/**
 * The builder table of docs/datastream.md ("## Builder options"), as data: one row per builder
 * method, in the order the page lists them. A row of one option takes its meaning from the option's
 * description ({@link CapstanMySqlOptions}, the one text of each option, shared with the SQL
 * table); the default comes from the option, or from the row where the option has none (or the
 * builder takes an enum). A method that sets no option, or several, is an {@link #entry} with its
 * own text. {@link CapstanMySqlOptionsDocumentedTest} renders it into the page.
 */
final class BuilderOptionsDoc {

    private BuilderOptionsDoc() {}

    /** The region of docs/datastream.md that holds the rendered table. */
    static final String REGION = "builder-options";

    /** The command that rewrites the region (docs/testing.md). */
    static final String COMMAND =
            "mvn -pl flink-connector-capstan-mysql -am test"
                    + " -Dtest=CapstanMySqlOptionsDocumentedTest"
                    + " -Dsurefire.failIfNoSpecifiedTests=false -Dcapstan.docs.write=true";

    /**
     * One row.
     *
     * @param method the builder method(s), Markdown (a plain signature is put in backticks)
     * @param option the option the method sets, or null for an entry
     * @param optionCell the option column of an entry, Markdown
     * @param defaultCell the default column where the option has no default (or for an entry)
     * @param meaning the meaning of an entry (an option's is its description)
     * @param covers the options an entry sets (each must be named in its option column)
     */
    record Row(
            String method,
            ConfigOption<?> option,
            String optionCell,
            String defaultCell,
            String meaning,
            List<ConfigOption<?>> covers) {

        List<String> cells() {
            String methodCell = method.contains("`") ? method : "`" + method + "`";
            if (option == null) {
                return List.of(methodCell, optionCell, defaultCell, meaning);
            }
            return List.of(
                    methodCell,
                    "`" + option.key() + "`",
                    defaultCell != null ? defaultCell : GeneratedDocs.defaultValue(option),
                    GeneratedDocs.description(option));
        }

        /** The options this row documents. */
        List<ConfigOption<?>> options() {
            return option != null ? List.of(option) : covers;
        }
    }

    private static Row option(String method, ConfigOption<?> option) {
        return new Row(method, option, null, null, null, List.of());
    }

    private static Row option(String method, ConfigOption<?> option, String defaultCell) {
        return new Row(method, option, null, defaultCell, null, List.of());
    }

    private static Row entry(
            String method,
            String optionCell,
            String defaultCell,
            String meaning,
            ConfigOption<?>... covers) {
        return new Row(method, null, optionCell, defaultCell, meaning, List.of(covers));
    }

    static final List<Row> ROWS =
            List.of(
                    option("hostname(String)", HOSTNAME, "required"),
                    option("port(int)", PORT),
                    option("username(String)", USERNAME, "required"),
                    option("password(String)", PASSWORD, "empty"),
                    entry(
                            "databaseList(String...)",
                            "— (SQL: `database-name`)",
                            "—",
                            "databases to capture: exact names or Java regular expressions"
                                    + " matching the whole name"),
                    entry(
                            "tableList(String...)",
                            "— (SQL: `table-name`)",
                            "—",
                            "tables as `database.table`: a Java regular expression matched against"
                                    + " the whole `database.table` text (`shop.orders`;"
                                    + " `shop\\\\.order_line_.*`; `.*\\\\.orders`)"),
                    option("serverId(long)", SERVER_ID, "random in 5400..6399"),
                    entry(
                            "startupOptions(StartupOptions)",
                            "`scan.startup.mode`, `scan.startup.specific-offset.gtid-set`,"
                                    + " `scan.startup.specific-offset.file`/`.pos`,"
                                    + " `scan.startup.timestamp-millis`",
                            "`initial()`",
                            "where a new job starts; a restored job streams on as its state"
                                    + " started (see **Resume** below)",
                            SCAN_STARTUP_MODE,
                            SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET,
                            SCAN_STARTUP_TIMESTAMP_MILLIS),
                    option("chunkSize(int)", SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE),
                    option("fetchSize(int)", SCAN_SNAPSHOT_FETCH_SIZE),
                    option(
                            "chunkKeyColumn(String column)",
                            SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN,
                            "primary key"),
                    option(
                            "snapshotMaxRowsPerSecond(long rows)",
                            SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND),
                    option(
                            "snapshotMaxConcurrentChunkReads(int reads)",
                            SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS),
                    option("keylessTableMaxRows(long rows)", SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS),
                    entry(
                            "chunkKeyColumn(String table, String column)",
                            "`scan.incremental.snapshot.chunk.key-column` of one table",
                            "—",
                            "the chunk key column of one table (`database.table`); wins over the"
                                    + " one above",
                            SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN),
                    option("lockWaitTimeout(Duration)", SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT),
                    option("lockWaitBudget(Duration)", SCAN_SNAPSHOT_LOCK_WAIT_BUDGET),
                    entry(
                            "snapshotServer(String hostname, int port)",
                            "`scan.snapshot.hostname`, `scan.snapshot.port`",
                            "unset (the snapshot reads `hostname`)",
                            "a GTID replica of the server on which the snapshot's chunks are"
                                    + " planned and read (the brief lock blocks only its applier);"
                                    + " the binlog, its preflight and the handoff stay on"
                                    + " `hostname`; same account, TLS mode and driver properties;"
                                    + " the replica is checked before anything is read"
                                    + " (`snapshot_server_diverged`)"
                                    + " ([operations.md](operations.md#keeping-the-snapshot-off-the-primary));"
                                    + " the options' own text is in [sql.md](sql.md#options)",
                            SCAN_SNAPSHOT_HOSTNAME,
                            SCAN_SNAPSHOT_PORT),
                    option(
                            "binlogRetentionCheckInterval(Duration)",
                            SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL),
                    entry(
                            "deserializer(CapstanDeserializer<T>)",
                            "—",
                            "required",
                            "turns change events into records"),
                    option("connectTimeout(Duration)", CONNECT_TIMEOUT),
                    option("socketTimeout(Duration)", CONNECT_SOCKET_TIMEOUT),
                    option("connectMaxRetries(int)", CONNECT_MAX_RETRIES),
                    option("sslMode(SslMode)", SSL_MODE, "`PREFERRED`"),
                    entry(
                            "`jdbcProperty(k, v)` / `jdbcProperties(Map)`",
                            "`" + CapstanMySqlOptions.JDBC_PROPERTIES_PREFIX + "*`",
                            "none",
                            "extra MySQL Connector/J properties, passed through, e.g."
                                    + " `.jdbcProperty(\"useCursorFetch\", \"true\")` (`socketTimeout`"
                                    + " is taken as `socketTimeout(Duration)`); `build()` refuses the"
                                    + " same properties as SQL (those that would change values, such"
                                    + " as `serverTimezone`, and those an option sets, such as `user`"
                                    + " or `useSSL`), see [sql.md](sql.md)"),
                    option("heartbeatInterval(Duration)", HEARTBEAT_INTERVAL),
                    option("binlogQueueCapacity(int)", BINLOG_QUEUE_CAPACITY),
                    option("reconnectBackoff(Duration)", BINLOG_RECONNECT_BACKOFF),
                    option("reconnectBudget(Duration)", BINLOG_RECONNECT_BUDGET),
                    entry(
                            "snapshotColumns(List<String>)",
                            "—",
                            "all columns",
                            "the snapshot `SELECT` reads only these columns (case-insensitive) plus"
                                    + " each table's chunk key columns; in snapshot (`READ`) records"
                                    + " the other columns are null, binlog records always carry every"
                                    + " column. The SQL connector sets it to the query's columns"
                                    + " (projection push-down)"),
                    option(
                            "truncateHandling(TruncateHandling)",
                            BINLOG_TRUNCATE_HANDLING,
                            "`HALT`"),
                    option("scanNewlyAddedTableEnabled(boolean)", SCAN_NEWLY_ADDED_TABLE_ENABLED),
                    option(
                            "parseOnLineSchemaChanges(boolean)",
                            SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED),
                    entry(
                            "includeSchemaChanges(boolean)",
                            "— (DataStream only, as in mysql-cdc, whose SQL connector has no such"
                                    + " option either)",
                            "`false`",
                            "mysql-cdc's `includeSchemaChanges`: each DDL of a captured table"
                                    + " becomes a change event of `Operation.SCHEMA_CHANGE` at its"
                                    + " place in the stream, exactly once, with the table's new"
                                    + " columns; see [Schema-change records](#schema-change-records)"),
                    option("xaMaxPendingRows(int)", BINLOG_XA_MAX_PENDING_ROWS));

    /** The table as Markdown. */
    static String render() {
        List<List<String>> rows = new ArrayList<>();
        for (Row row : ROWS) {
            rows.add(row.cells());
        }
        return GeneratedDocs.table(List.of("method", "option", "default", "meaning"), rows);
    }
}

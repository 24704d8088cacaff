package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanMySqlOptions;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options only the {@code 'capstan-mysql'} table connector has. Every other option of a table
 * is one of {@link CapstanMySqlOptions}, shared with the DataStream builder. Each description is
 * the option's text in docs/sql.md's option table, which is generated from it (docs/testing.md).
 */
@Internal
public final class CapstanMySqlTableOptions {

    private CapstanMySqlTableOptions() {}

    /** Prefix of JDBC driver properties passed through unchanged. */
    public static final String JDBC_PROPERTIES_PREFIX = CapstanMySqlOptions.JDBC_PROPERTIES_PREFIX;

    public static final ConfigOption<String> DATABASE_NAME =
            ConfigOptions.key("database-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Database name: a Java regular expression matched against"
                                    + " the **whole** name.");

    public static final ConfigOption<String> TABLE_NAME =
            ConfigOptions.key("table-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Table name: a Java regular expression matched against"
                                    + " the whole name. All matching base tables of all"
                                    + " matching databases form one Flink table (sharded"
                                    + " tables), each checked against the declared columns; a"
                                    + " shard may lack a declared nullable column (`NULL` in"
                                    + " its rows), see [Columns and"
                                    + " types](sql.md#columns-and-types). Views and the system"
                                    + " schemas are never read.");

    public static final ConfigOption<String> SERVER_TIME_ZONE =
            ConfigOptions.key("server-time-zone")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The zone whose wall clock a MySQL `TIMESTAMP` declared"
                                    + " `TIMESTAMP(p)` shows (a Java zone id); without it, the"
                                    + " server's own `time_zone`. Not used for"
                                    + " `TIMESTAMP_LTZ(p)`, the instant: see [Time"
                                    + " zones](sql.md#time-zones).");

    /**
     * mysql-cdc's file/position offset: translated into the GTID set it denotes when a new job
     * plans its binlog split (never at planning, never on restore).
     */
    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSET_FILE =
            ConfigOptions.key("scan.startup.specific-offset.file")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "mysql-cdc's binlog file/position start: with `.pos`, the"
                                    + " job starts at that position. Kept as given at planning"
                                    + " (planning never reads the file); when a new job plans"
                                    + " its binlog split, it is translated into the GTID set of"
                                    + " the transactions before the position (the file's"
                                    + " Previous-GTIDs plus its transactions before the"
                                    + " position) and used as"
                                    + " `scan.startup.specific-offset.gtid-set`; on a server"
                                    + " without GTIDs the file and position are used as given"
                                    + " (a position before the file's first event is its start;"
                                    + " [operations.md](operations.md#servers-without-gtids))."
                                    + " A job restored from a checkpoint or savepoint resumes"
                                    + " from its state and never reads the file, so the same"
                                    + " DDL restores after the file was purged. A new job halts"
                                    + " before reading with `data_gap` when the server no"
                                    + " longer has the file, with `invalid_start_position` when"
                                    + " the position is inside a transaction; not together with"
                                    + " `.gtid-set`; ignored in other modes.");

    public static final ConfigOption<Long> SCAN_STARTUP_SPECIFIC_OFFSET_POS =
            ConfigOptions.key("scan.startup.specific-offset.pos")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "The position in that file where a transaction starts (as"
                                    + " `SHOW MASTER STATUS` printed it; `SHOW BINARY LOG"
                                    + " STATUS` from MySQL 8.4), or the file's end; `4` (the"
                                    + " file's start, as in mysql-cdc's examples) starts before"
                                    + " the file's first transaction.");

    /**
     * mysql-cdc's append-only reading: every change as an appended {@code +I} row, the kind it was
     * in the {@code row_kind} metadata column.
     */
    public static final ConfigOption<Boolean> SCAN_READ_CHANGELOG_AS_APPEND_ONLY =
            ConfigOptions.key("scan.read-changelog-as-append-only.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "mysql-cdc's, same meaning: every change as an appended"
                                    + " `+I` row (an update as two, its before and after"
                                    + " images), its own kind (`+I`, `-U`, `+U` or `-D`) in the"
                                    + " `row_kind` metadata column; the table is insert-only."
                                    + " See [Changelog](sql.md#changelog).");

    /** {@link #METADATA_OP_TS_SNAPSHOT_ROWS}: NULL, no commit time (the default). */
    public static final String OP_TS_NULL = "null";

    /** {@link #METADATA_OP_TS_SNAPSHOT_ROWS}: 0, the epoch, as mysql-cdc gives. */
    public static final String OP_TS_EPOCH = "epoch";

    /** The {@code op_ts} of a snapshot row where the column is declared nullable. */
    public static final ConfigOption<String> METADATA_OP_TS_SNAPSHOT_ROWS =
            ConfigOptions.key("metadata.op-ts.snapshot-rows")
                    .stringType()
                    .defaultValue(OP_TS_NULL)
                    .withDescription(
                            "capstan-only. The `op_ts` metadata column of rows read"
                                    + " by the snapshot where it is declared nullable: `null`"
                                    + " (no commit time) or `epoch` (`0`, 1970-01-01 00:00:00Z,"
                                    + " as mysql-cdc gives); declared `NOT NULL` it is always"
                                    + " `epoch`. See [Metadata"
                                    + " columns](sql.md#metadata-columns).");
}

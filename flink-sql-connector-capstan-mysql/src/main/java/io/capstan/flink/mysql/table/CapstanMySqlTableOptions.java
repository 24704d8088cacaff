package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanMySqlOptions;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options only the {@code 'capstan-mysql'} table connector has. Every other option of a table
 * is one of {@link CapstanMySqlOptions}, shared with the DataStream builder. Every option is
 * documented, with its default and an example, in docs/sql.md.
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
                            "Database name, a Java regular expression matched against the whole"
                                    + " name.");

    public static final ConfigOption<String> TABLE_NAME =
            ConfigOptions.key("table-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Table name, a Java regular expression matched against the whole name;"
                                    + " several matching tables of the same shape form one table.");

    public static final ConfigOption<String> SERVER_TIME_ZONE =
            ConfigOptions.key("server-time-zone")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The zone whose wall clock a MySQL TIMESTAMP declared TIMESTAMP(p)"
                                    + " shows; default: the server's time_zone. Not used for"
                                    + " TIMESTAMP_LTZ(p), the instant.");

    /**
     * mysql-cdc's file/position offset: translated into the GTID set it denotes when a new job
     * plans its binlog split (never at planning, never on restore).
     */
    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSET_FILE =
            ConfigOptions.key("scan.startup.specific-offset.file")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "With 'specific-offset': a binlog file name; with"
                                    + " 'scan.startup.specific-offset.pos' the job starts at that"
                                    + " position: when a new job plans its binlog split, the"
                                    + " position is translated into the GTID set of the"
                                    + " transactions before it (the file's Previous-GTIDs plus"
                                    + " its transactions before the position). A restored job"
                                    + " resumes from its state and never reads the file.");

    public static final ConfigOption<Long> SCAN_STARTUP_SPECIFIC_OFFSET_POS =
            ConfigOptions.key("scan.startup.specific-offset.pos")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "With 'scan.startup.specific-offset.file': the position in that file"
                                    + " where a transaction starts, 4 (the file's start), or the"
                                    + " file's end.");

    /**
     * mysql-cdc's append-only reading: every change as an appended {@code +I} row, the kind it was
     * in the {@code row_kind} metadata column.
     */
    public static final ConfigOption<Boolean> SCAN_READ_CHANGELOG_AS_APPEND_ONLY =
            ConfigOptions.key("scan.read-changelog-as-append-only.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Every change as an appended +I row (an update as two: its before and"
                                    + " after images), its kind (+I, -U, +U, -D) in the 'row_kind'"
                                    + " metadata column; the table is then insert-only.");

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
                            "The 'op_ts' metadata column of rows read by the snapshot, where it is"
                                    + " declared nullable: 'null' (the default: such a row has no"
                                    + " commit time) or 'epoch' (0, 1970-01-01 00:00:00Z, as"
                                    + " mysql-cdc gives). Declared NOT NULL it is always 'epoch'.");
}

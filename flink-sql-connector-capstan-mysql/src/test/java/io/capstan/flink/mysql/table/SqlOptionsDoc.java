package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.testing.GeneratedDocs;

import org.apache.flink.configuration.ConfigOption;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.DATABASE_NAME;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.METADATA_OP_TS_SNAPSHOT_ROWS;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_READ_CHANGELOG_AS_APPEND_ONLY;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_FILE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_POS;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SERVER_TIME_ZONE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.TABLE_NAME;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_LOWER_BOUND;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_UPPER_BOUND;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.CHUNK_META_GROUP_SIZE;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.SCAN_INCREMENTAL_CLOSE_IDLE_READER_ENABLED;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.SCAN_INCREMENTAL_SNAPSHOT_BACKFILL_SKIP;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.SCAN_INCREMENTAL_SNAPSHOT_ENABLED;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.SCAN_INCREMENTAL_SNAPSHOT_UNBOUNDED_CHUNK_FIRST;
import static io.capstan.flink.mysql.table.MySqlCdcCompatibleOptions.USE_LEGACY_JSON_FORMAT;

/**
 * The option table of docs/sql.md ("## Options"), as data: one row per option in the order the page
 * lists them, each with its example value. The description is the option's own ({@link
 * CapstanMySqlOptions}, {@link CapstanMySqlTableOptions}, {@link MySqlCdcCompatibleOptions}), the
 * type the option field's, the default the option's (or the row's, where the option has none);
 * "yes" in the required column follows from the factory's required options, a condition there from
 * the row. {@code connector} and {@code jdbc.properties.*} are no option: entries with their own
 * text. {@link TableOptionsDocumentedTest} renders it into the page.
 */
final class SqlOptionsDoc {

    private SqlOptionsDoc() {}

    /** The region of docs/sql.md that holds the rendered table. */
    static final String REGION = "sql-options";

    /** The command that rewrites the region (docs/testing.md). */
    static final String COMMAND =
            "mvn -pl flink-sql-connector-capstan-mysql -am test"
                    + " -Dtest=TableOptionsDocumentedTest"
                    + " -Dsurefire.failIfNoSpecifiedTests=false -Dcapstan.docs.write=true";

    /**
     * One row.
     *
     * @param option the option, or null for an entry
     * @param cells an entry's cells, or for an option: required condition (null: from the factory),
     *     default (null: the option's) and example
     */
    record Row(ConfigOption<?> option, String name, List<String> cells) {

        List<String> render(Set<ConfigOption<?>> required) {
            if (option == null) {
                List<String> all = new ArrayList<>();
                all.add("`" + name + "`");
                all.addAll(cells);
                return all;
            }
            String requiredCell =
                    required.contains(option) ? "yes" : cells.get(0) != null ? cells.get(0) : "no";
            String defaultCell =
                    cells.get(1) != null ? cells.get(1) : GeneratedDocs.defaultValue(option);
            return List.of(
                    "`" + option.key() + "`",
                    requiredCell,
                    defaultCell,
                    type(option),
                    GeneratedDocs.description(option),
                    cells.get(2));
        }
    }

    private static Row option(ConfigOption<?> option, String example) {
        return option(option, null, null, example);
    }

    private static Row option(
            ConfigOption<?> option, String requiredWhen, String defaultCell, String example) {
        return new Row(
                option, option.key(), java.util.Arrays.asList(requiredWhen, defaultCell, example));
    }

    private static Row entry(
            String name,
            String required,
            String defaultCell,
            String type,
            String description,
            String example) {
        return new Row(null, name, List.of(required, defaultCell, type, description, example));
    }

    private static final String WITH_SPECIFIC_OFFSET = "with `specific-offset`";

    static final List<Row> ROWS =
            List.of(
                    entry(
                            "connector",
                            "yes",
                            "",
                            "String",
                            "Must be `capstan-mysql`.",
                            "`'capstan-mysql'`"),
                    option(HOSTNAME, "`'db1.internal'`"),
                    option(PORT, "`'3307'`"),
                    option(USERNAME, "`'flink'`"),
                    option(PASSWORD, "`'s3cret'`"),
                    option(DATABASE_NAME, "`'shop'`, `'shop_[0-9]+'`"),
                    option(TABLE_NAME, "`'orders'`, `'orders_[0-9]+'`"),
                    option(SERVER_ID, null, "random in 5400..6399", "`'5400'`, `'5400-5408'`"),
                    option(SCAN_STARTUP_MODE, "`'latest-offset'`"),
                    option(
                            SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET,
                            WITH_SPECIFIC_OFFSET,
                            null,
                            "`'3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23'`"),
                    option(
                            SCAN_STARTUP_SPECIFIC_OFFSET_FILE,
                            WITH_SPECIFIC_OFFSET,
                            null,
                            "`'mysql-bin.000003'`"),
                    option(SCAN_STARTUP_SPECIFIC_OFFSET_POS, "with `.file`", null, "`'4711'`"),
                    option(
                            SCAN_STARTUP_TIMESTAMP_MILLIS,
                            "with `timestamp`",
                            null,
                            "`'1700000000000'`"),
                    option(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE, "`'20000'`"),
                    option(SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND, "`'20000'`"),
                    option(SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS, "`'2'`"),
                    option(SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS, "`'1000000'`"),
                    option(SCAN_SNAPSHOT_FETCH_SIZE, "`'4096'`"),
                    option(
                            SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN,
                            null,
                            "the primary key",
                            "`'log_id'`"),
                    option(SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT, "`'2 s'`"),
                    option(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET, "`'5 min'`"),
                    option(SCAN_SNAPSHOT_HOSTNAME, "`'db1-replica.internal'`"),
                    option(SCAN_SNAPSHOT_PORT, null, "`port`", "`'3307'`"),
                    option(SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL, "`'1 min'`"),
                    option(CONNECT_TIMEOUT, "`'10 s'`"),
                    option(CONNECT_SOCKET_TIMEOUT, "`'2 min'`"),
                    option(CONNECT_MAX_RETRIES, "`'5'`"),
                    option(HEARTBEAT_INTERVAL, "`'10 s'`"),
                    option(BINLOG_RECONNECT_BACKOFF, "`'1 s'`"),
                    option(BINLOG_RECONNECT_BUDGET, "`'30 min'`"),
                    option(SSL_MODE, "`'verify-ca'`"),
                    option(SERVER_TIME_ZONE, null, "the server's `time_zone`", "`'Asia/Shanghai'`"),
                    entry(
                            CapstanMySqlTableOptions.JDBC_PROPERTIES_PREFIX + "*",
                            "no",
                            "",
                            "String",
                            "Passed to the MySQL JDBC driver unchanged, e.g."
                                    + " `'jdbc.properties.useCursorFetch' = 'true'`. Properties that"
                                    + " would change the values read or duplicate an option are"
                                    + " refused: `connectionTimeZone`, `serverTimezone`,"
                                    + " `forceConnectionTimeZoneToSession`, `preserveInstants`,"
                                    + " `zeroDateTimeBehavior`, `tinyInt1isBit`,"
                                    + " `transformedBitIsBoolean`, `yearIsDateType`,"
                                    + " `characterEncoding`, `useUnicode`, `characterSetResults`"
                                    + " (capstan sets them so that snapshot and binlog values agree),"
                                    + " and `user`, `password`, `sslMode`, `useSSL`, `requireSSL`,"
                                    + " `connectTimeout` (use the options above); `socketTimeout` is"
                                    + " taken as `connect.socket-timeout`.",
                            "`'jdbc.properties.useCursorFetch' = 'true'`"),
                    option(SCAN_INCREMENTAL_SNAPSHOT_ENABLED, "`'true'`"),
                    option(SCAN_NEWLY_ADDED_TABLE_ENABLED, "`'true'`"),
                    option(SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED, "`'true'`"),
                    option(SCAN_INCREMENTAL_SNAPSHOT_BACKFILL_SKIP, "`'true'`"),
                    option(SCAN_INCREMENTAL_CLOSE_IDLE_READER_ENABLED, "`'true'`"),
                    option(CHUNK_META_GROUP_SIZE, "`'1000'`"),
                    option(CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_UPPER_BOUND, "`'1000.0'`"),
                    option(CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_LOWER_BOUND, "`'0.05'`"),
                    option(SCAN_INCREMENTAL_SNAPSHOT_UNBOUNDED_CHUNK_FIRST, "`'true'`"),
                    option(METADATA_OP_TS_SNAPSHOT_ROWS, "`'epoch'`"),
                    option(SCAN_READ_CHANGELOG_AS_APPEND_ONLY, "`'true'`"),
                    option(USE_LEGACY_JSON_FORMAT, "`'false'`"),
                    option(BINLOG_TRUNCATE_HANDLING, "`'skip'`"),
                    option(BINLOG_XA_MAX_PENDING_ROWS, "`'500000'`"));

    /** The value type of an option, as its declaring field says it ({@code ConfigOption<Long>}). */
    static String type(ConfigOption<?> option) {
        String type = TYPES.get(option.key());
        if (type == null) {
            throw new IllegalStateException("no option field declares " + option.key());
        }
        return type;
    }

    private static final Map<String, String> TYPES = types();

    private static Map<String, String> types() {
        Map<String, String> types = new HashMap<>();
        for (Class<?> holder :
                List.of(
                        CapstanMySqlOptions.class,
                        CapstanMySqlTableOptions.class,
                        MySqlCdcCompatibleOptions.class)) {
            for (Field f : holder.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == ConfigOption.class) {
                    try {
                        ConfigOption<?> option = (ConfigOption<?>) f.get(null);
                        ParameterizedType generic = (ParameterizedType) f.getGenericType();
                        Class<?> value = (Class<?>) generic.getActualTypeArguments()[0];
                        types.put(option.key(), value.getSimpleName());
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return types;
    }

    /** The table as Markdown. */
    static String render(Set<ConfigOption<?>> required) {
        List<List<String>> rows = new ArrayList<>();
        for (Row row : ROWS) {
            rows.add(row.render(required));
        }
        return GeneratedDocs.table(
                List.of("Option", "Required", "Default", "Type", "Description", "Example"), rows);
    }
}

package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SourceDefinition;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_FETCH_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_BUDGET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.DATABASE_NAME;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.JDBC_PROPERTIES_PREFIX;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SERVER_TIME_ZONE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.TABLE_NAME;

/**
 * A table's options to a {@link MySqlTableDefinition}: the rules that are SQL's own (the name
 * patterns and how they select tables, options refused with a mode that ignores them, {@code
 * server-time-zone}), then {@link CapstanSourceConfig#validate}, which checks every source option
 * with the DataStream builder's rules. Beyond the builder, SQL refuses snapshot options with a mode
 * that reads no snapshot, and takes {@code server-id} as text that may be a range. Failures are
 * {@link ValidationException}s naming the option.
 */
final class TableOptionsValidation {

    /**
     * The database part of the source's {@code tableList} entry: any; the database itself is chosen
     * by {@code databaseList}. The entry is matched against the whole {@code db.table}.
     */
    private static final String ANY_DATABASE = "[\\s\\S]*";

    /** Options that only a mode reading a snapshot uses. */
    private static final List<ConfigOption<?>> SNAPSHOT_ONLY =
            List.of(
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE,
                    SCAN_SNAPSHOT_FETCH_SIZE,
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN,
                    SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT,
                    SCAN_SNAPSHOT_LOCK_WAIT_BUDGET);

    private TableOptionsValidation() {}

    /**
     * @param options the typed options (unknown keys already refused by the factory helper)
     * @param raw all options as written, for the {@code jdbc.properties.*} entries
     */
    static MySqlTableDefinition validate(ReadableConfig options, Map<String, String> raw) {
        String databasePattern = pattern(options.get(DATABASE_NAME), DATABASE_NAME);
        String tablePattern = pattern(options.get(TABLE_NAME), TABLE_NAME);
        options.getOptional(SERVER_TIME_ZONE).ifPresent(TableOptionsValidation::checkZone);

        SourceDefinition definition =
                new SourceDefinition(
                        List.of(databasePattern),
                        List.of(tableListEntry(tablePattern)),
                        Map.of(),
                        null, // all columns; the table source narrows them to the query's
                        jdbcProperties(raw));
        CapstanSourceConfig source;
        try {
            source =
                    CapstanSourceConfig.validate(
                            options, definition, StartupOptions.fromOptions(options));
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        if (!source.startupOptions().mode().readsSnapshot()) {
            // A DDL is declarative: an option its mode ignores is more likely a mistake in the
            // mode than a leftover (the DataStream builder, set in code, keeps accepting them).
            for (ConfigOption<?> snapshotOnly : SNAPSHOT_ONLY) {
                if (options.getOptional(snapshotOnly).isPresent()) {
                    throw new ValidationException(
                            "Option '"
                                    + snapshotOnly.key()
                                    + "' applies only to scan.startup.mode"
                                    + " 'initial' or 'snapshot', but the mode is '"
                                    + source.startupOptions().optionValue()
                                    + "'. Remove the option or choose one of those modes.");
                }
            }
        }
        return new MySqlTableDefinition(source, databasePattern, tablePattern);
    }

    private static String tableListEntry(String tablePattern) {
        // A literal dot, and the table pattern as one group, so that it matches the whole table
        // name: 'orders' must not match old_orders, and 'a|b' must mean either table.
        return ANY_DATABASE + "\\.(?:" + tablePattern + ")";
    }

    /** The {@code jdbc.properties.*} entries without the prefix; the source checks the keys. */
    private static Map<String, String> jdbcProperties(Map<String, String> raw) {
        Map<String, String> properties = new TreeMap<>();
        raw.forEach(
                (key, value) -> {
                    if (key.startsWith(JDBC_PROPERTIES_PREFIX)) {
                        properties.put(key.substring(JDBC_PROPERTIES_PREFIX.length()), value);
                    }
                });
        return properties;
    }

    private static String pattern(String regex, ConfigOption<String> option) {
        if (regex.isBlank()) {
            throw new ValidationException(
                    "Invalid value for option '" + option.key() + "': it is empty.");
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + option.key()
                            + "': not a valid Java regular expression ("
                            + e.getDescription()
                            + " at index "
                            + e.getIndex()
                            + ").");
        }
        return regex;
    }

    private static void checkZone(String zone) {
        try {
            ZoneId.of(zone.trim());
        } catch (DateTimeException e) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SERVER_TIME_ZONE.key()
                            + "': '"
                            + zone
                            + "' is not a zone id such as 'UTC' or 'Europe/Berlin'. (The option is"
                            + " accepted for compatibility only; capstan reads TIMESTAMP columns as"
                            + " instants and does not need it.)");
        }
    }
}

package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SourceDefinition;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_MODE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.DATABASE_NAME;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.JDBC_PROPERTIES_PREFIX;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SERVER_TIME_ZONE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.TABLE_NAME;

/**
 * A table's options to a {@link MySqlTableDefinition}: the rules that are SQL's own (the name
 * patterns and how they select tables, options ignored by the chosen mode, the accepted {@code
 * mysql-cdc} options, {@code server-time-zone}), then {@link CapstanSourceConfig#validate}, which
 * checks every source option with the DataStream builder's rules. Beyond the builder, SQL ignores
 * (with a warning) the options of other startup modes, and takes {@code server-id} as text that may
 * be a range. Failures are {@link ValidationException}s naming the option.
 */
final class TableOptionsValidation {

    /**
     * The database part of the source's {@code tableList} entry: any; the database itself is chosen
     * by {@code databaseList}. The entry is matched against the whole {@code db.table}.
     */
    private static final String ANY_DATABASE = "[\\s\\S]*";

    private TableOptionsValidation() {}

    /**
     * @param options the typed options (unknown keys already refused by the factory helper)
     * @param raw all options as written, for the {@code jdbc.properties.*} entries
     * @param warnings receives one line per option the chosen mode ignores (no values in it)
     */
    static MySqlTableDefinition validate(
            ReadableConfig options, Map<String, String> raw, Consumer<String> warnings) {
        String databasePattern = pattern(options.get(DATABASE_NAME), DATABASE_NAME);
        String tablePattern = pattern(options.get(TABLE_NAME), TABLE_NAME);
        options.getOptional(SERVER_TIME_ZONE).ifPresent(TableOptionsValidation::checkZone);
        MySqlCdcCompatibleOptions.check(options);
        checkTruncateHandling(options);

        // An unknown mode is left to StartupOptions, whose message lists the valid ones.
        Optional<StartupMode> mode = ModeScopedOptions.mode(options.get(SCAN_STARTUP_MODE));
        List<ConfigOption<?>> ignored =
                mode.map(m -> ModeScopedOptions.ignoredIn(m, options)).orElse(List.of());
        ignored.forEach(o -> warnings.accept(ModeScopedOptions.warning(o, mode.get())));
        ReadableConfig effective = ModeScopedOptions.without(options, ignored);

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
                            effective, definition, FilePositionStart.startupOptions(effective));
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        String keyColumn =
                options.getOptional(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN)
                        .map(String::trim)
                        .filter(c -> !c.isEmpty())
                        .orElse(null);
        return new MySqlTableDefinition(source, databasePattern, tablePattern, keyColumn);
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

    /** A Flink SQL changelog has no row kind for "every row is gone": refuse 'emit' here. */
    private static void checkTruncateHandling(ReadableConfig options) {
        String value = options.get(CapstanMySqlOptions.BINLOG_TRUNCATE_HANDLING);
        if (value.trim().equalsIgnoreCase("emit")) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + CapstanMySqlOptions.BINLOG_TRUNCATE_HANDLING.key()
                            + "': 'emit' cannot be expressed by a Flink SQL changelog (it has no"
                            + " row kind for a TRUNCATE). Use 'halt' (the default: restart without"
                            + " state to snapshot the table again) or 'skip' (one WARN; the rows stay"
                            + " in the Flink table); 'emit' is for the DataStream source with"
                            + " JsonDebeziumDeserializer.");
        }
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
                            + "' is not a zone id such as 'UTC', '+05:30' or 'Europe/Berlin'. (It"
                            + " is needed only for a MySQL TIMESTAMP declared TIMESTAMP(p), the"
                            + " wall clock; TIMESTAMP_LTZ(p) is the instant.)");
        }
    }
}

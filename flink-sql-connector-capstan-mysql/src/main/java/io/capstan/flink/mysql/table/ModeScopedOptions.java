package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.StartupOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_FETCH_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_HOSTNAME;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_BUDGET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_PORT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_TIMESTAMP_MILLIS;

/**
 * Options that only some startup modes read. Users switch {@code scan.startup.mode} with a hint on
 * a table whose DDL keeps the other modes' options, so an option the chosen mode does not read is
 * ignored (neither checked nor used) rather than refused; the caller warns about each.
 */
final class ModeScopedOptions {

    /** Options that only a mode reading a snapshot uses. */
    static final List<ConfigOption<?>> SNAPSHOT_ONLY =
            List.of(
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE,
                    SCAN_SNAPSHOT_FETCH_SIZE,
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN,
                    SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS,
                    SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND,
                    SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS,
                    SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT,
                    SCAN_SNAPSHOT_LOCK_WAIT_BUDGET,
                    SCAN_SNAPSHOT_HOSTNAME,
                    SCAN_SNAPSHOT_PORT);

    /** Options that only 'initial' uses: the snapshot's handoff to the binlog. */
    static final List<ConfigOption<?>> INITIAL_ONLY =
            List.of(SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL);

    /** mysql-cdc's file/position offset, which only 'specific-offset' reads. */
    static final List<ConfigOption<?>> FILE_POSITION =
            List.of(
                    CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_FILE,
                    CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_POS);

    private ModeScopedOptions() {}

    /** The mode {@code scan.startup.mode} names (any case), or empty for an unknown value. */
    static Optional<StartupMode> mode(String optionValue) {
        String text = optionValue.trim();
        return Arrays.stream(StartupMode.values())
                .filter(m -> StartupOptions.optionValue(m).equalsIgnoreCase(text))
                .findFirst();
    }

    /** The options set in {@code options} that {@code mode} does not read, in a stable order. */
    static List<ConfigOption<?>> ignoredIn(StartupMode mode, ReadableConfig options) {
        // Presence by key: an ignored option's value is not parsed, so it cannot fail.
        Set<String> present = options.toMap().keySet();
        List<ConfigOption<?>> ignored = new ArrayList<>();
        if (!mode.readsSnapshot()) {
            SNAPSHOT_ONLY.stream().filter(o -> present.contains(o.key())).forEach(ignored::add);
        }
        if (mode != StartupMode.INITIAL) {
            INITIAL_ONLY.stream().filter(o -> present.contains(o.key())).forEach(ignored::add);
        }
        if (mode != StartupMode.GTID_SET
                && present.contains(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key())) {
            ignored.add(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET);
        }
        if (mode != StartupMode.GTID_SET) {
            FILE_POSITION.stream().filter(o -> present.contains(o.key())).forEach(ignored::add);
        }
        if (mode != StartupMode.TIMESTAMP
                && present.contains(SCAN_STARTUP_TIMESTAMP_MILLIS.key())) {
            ignored.add(SCAN_STARTUP_TIMESTAMP_MILLIS);
        }
        return ignored;
    }

    /** The warning for an option {@code mode} ignores; names no value. */
    static String warning(ConfigOption<?> option, StartupMode mode) {
        return "Option '"
                + option.key()
                + "' is ignored in mode "
                + StartupOptions.optionValue(mode)
                + ": it applies only to scan.startup.mode "
                + modesReading(option)
                + ".";
    }

    private static String modesReading(ConfigOption<?> option) {
        if (option.equals(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET)
                || FILE_POSITION.contains(option)) {
            return "'specific-offset'";
        }
        if (option.equals(SCAN_STARTUP_TIMESTAMP_MILLIS)) {
            return "'timestamp'";
        }
        if (INITIAL_ONLY.contains(option)) {
            return "'" + StartupOptions.optionValue(StartupMode.INITIAL) + "'";
        }
        return Arrays.stream(StartupMode.values())
                .filter(StartupMode::readsSnapshot)
                .map(m -> "'" + StartupOptions.optionValue(m) + "'")
                .collect(Collectors.joining(" or "));
    }

    /** {@code options} as if the {@code ignored} ones were not set. */
    static ReadableConfig without(ReadableConfig options, List<ConfigOption<?>> ignored) {
        Set<String> keys = ignored.stream().map(ConfigOption::key).collect(Collectors.toSet());
        return keys.isEmpty() ? options : new Without(options, keys);
    }

    private record Without(ReadableConfig options, Set<String> ignoredKeys)
            implements ReadableConfig {

        @Override
        public <T> T get(ConfigOption<T> option) {
            return ignoredKeys.contains(option.key()) ? option.defaultValue() : options.get(option);
        }

        @Override
        public <T> Optional<T> getOptional(ConfigOption<T> option) {
            return ignoredKeys.contains(option.key())
                    ? Optional.empty()
                    : options.getOptional(option);
        }

        @Override
        public Map<String, String> toMap() {
            Map<String, String> kept = new TreeMap<>(options.toMap());
            kept.keySet().removeAll(ignoredKeys);
            return kept;
        }
    }
}

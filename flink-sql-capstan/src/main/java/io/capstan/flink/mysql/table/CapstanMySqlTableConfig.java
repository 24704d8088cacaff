package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.ReservedJdbcProperties;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import java.io.Serializable;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.*;

/**
 * The table options after validation: every value checked, every mode-specific requirement met.
 * Built only by {@link #from}, which fails with a {@link ValidationException} naming the option,
 * the reason and what is valid. Values of options may appear in messages, except the password,
 * which never does.
 */
public final class CapstanMySqlTableConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final MySqlConnectionConfig connection;
    private final String databasePattern;
    private final String tablePattern;
    private final ServerIdRange serverId; // null: the source's default
    private final TableStartupMode startupMode;
    private final String specificOffsetGtidSet; // only for SPECIFIC_OFFSET
    private final Long startupTimestampMillis; // only for TIMESTAMP
    private final int chunkSize;
    private final int fetchSize;
    private final String chunkKeyColumn; // null: the primary key
    private final Duration lockWaitTimeout;
    private final Duration lockWaitBudget;
    private final Duration reconnectBackoff;
    private final Duration reconnectBudget;

    private CapstanMySqlTableConfig(
            MySqlConnectionConfig connection,
            String databasePattern,
            String tablePattern,
            ServerIdRange serverId,
            TableStartupMode startupMode,
            String specificOffsetGtidSet,
            Long startupTimestampMillis,
            int chunkSize,
            int fetchSize,
            String chunkKeyColumn,
            Duration lockWaitTimeout,
            Duration lockWaitBudget,
            Duration reconnectBackoff,
            Duration reconnectBudget) {
        this.connection = connection;
        this.databasePattern = databasePattern;
        this.tablePattern = tablePattern;
        this.serverId = serverId;
        this.startupMode = startupMode;
        this.specificOffsetGtidSet = specificOffsetGtidSet;
        this.startupTimestampMillis = startupTimestampMillis;
        this.chunkSize = chunkSize;
        this.fetchSize = fetchSize;
        this.chunkKeyColumn = chunkKeyColumn;
        this.lockWaitTimeout = lockWaitTimeout;
        this.lockWaitBudget = lockWaitBudget;
        this.reconnectBackoff = reconnectBackoff;
        this.reconnectBudget = reconnectBudget;
    }

    /**
     * Validates the options. {@code options} holds the typed options (already checked for unknown
     * keys by the factory helper); {@code jdbcProperties} the {@code jdbc.properties.*} entries
     * with the prefix removed.
     */
    public static CapstanMySqlTableConfig from(
            ReadableConfig options, Map<String, String> jdbcProperties) {
        TableStartupMode mode = startupMode(options.get(SCAN_STARTUP_MODE));

        String gtidSet = options.getOptional(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET).orElse(null);
        Long timestampMillis = options.getOptional(SCAN_STARTUP_TIMESTAMP_MILLIS).orElse(null);
        requireForMode(mode, TableStartupMode.SPECIFIC_OFFSET, SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key(),
                gtidSet != null && !gtidSet.isBlank(),
                "the GTID set of the transactions already processed, e.g."
                        + " '3E11FA47-71CA-11E1-9E33-C80AA9429562:1-23'");
        requireForMode(mode, TableStartupMode.TIMESTAMP, SCAN_STARTUP_TIMESTAMP_MILLIS.key(),
                timestampMillis != null,
                "an epoch millisecond such as '1700000000000'");
        if (gtidSet != null) {
            try {
                GtidSet.parse(gtidSet);
            } catch (IllegalArgumentException e) {
                throw new ValidationException(
                        "Invalid value for option '"
                                + SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key()
                                + "': "
                                + e.getMessage()
                                + ". Expected MySQL's GTID set text, e.g."
                                + " '3E11FA47-71CA-11E1-9E33-C80AA9429562:1-23,4D8B564F-03F4-4975-856A-0E65C3105328:1-5'.",
                        e);
            }
        }
        if (timestampMillis != null && timestampMillis < 0) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SCAN_STARTUP_TIMESTAMP_MILLIS.key()
                            + "': it must be an epoch millisecond >= 0.");
        }
        for (var snapshotOnly :
                new ConfigOption<?>[] {
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE,
                    SCAN_SNAPSHOT_FETCH_SIZE,
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN,
                    SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT,
                    SCAN_SNAPSHOT_LOCK_WAIT_BUDGET
                }) {
            if (!mode.readsSnapshot() && options.getOptional(snapshotOnly).isPresent()) {
                throw new ValidationException(
                        "Option '"
                                + snapshotOnly.key()
                                + "' applies only to scan.startup.mode 'initial' or 'snapshot', but"
                                + " the mode is '"
                                + mode.optionValue()
                                + "'. Remove the option or choose one of those modes.");
            }
        }

        int chunkSize = options.get(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE);
        if (chunkSize < 2) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE.key()
                            + "': it must be at least 2 (rows per chunk), was "
                            + chunkSize
                            + ".");
        }
        int fetchSize = options.get(SCAN_SNAPSHOT_FETCH_SIZE);
        if (fetchSize < 0) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SCAN_SNAPSHOT_FETCH_SIZE.key()
                            + "': it must be 0 (stream the rows, the default) or a positive number of"
                            + " rows per round trip, was "
                            + fetchSize
                            + ".");
        }
        Duration lockWaitTimeout = options.get(SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT);
        if (lockWaitTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT.key()
                            + "': it must be at least 1 s (MySQL's lock_wait_timeout counts whole"
                            + " seconds), e.g. '2 s'.");
        }
        Duration lockWaitBudget =
                positive(options.get(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET), SCAN_SNAPSHOT_LOCK_WAIT_BUDGET.key());
        if (lockWaitBudget.compareTo(lockWaitTimeout) < 0) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SCAN_SNAPSHOT_LOCK_WAIT_BUDGET.key()
                            + "': it must be at least '"
                            + SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT.key()
                            + "' ("
                            + lockWaitTimeout.toMillis()
                            + " ms).");
        }
        String chunkKeyColumn =
                options.getOptional(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN)
                        .map(String::trim)
                        .orElse(null);
        if (chunkKeyColumn != null && chunkKeyColumn.isEmpty()) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN.key()
                            + "': it must name a column of the table.");
        }

        options.getOptional(SERVER_TIME_ZONE).ifPresent(CapstanMySqlTableConfig::checkZone);

        return new CapstanMySqlTableConfig(
                connection(options, jdbcProperties),
                pattern(options.get(DATABASE_NAME), DATABASE_NAME.key()),
                pattern(options.get(TABLE_NAME), TABLE_NAME.key()),
                options.getOptional(SERVER_ID).map(ServerIdRange::parse).orElse(null),
                mode,
                gtidSet == null ? null : gtidSet.trim(),
                timestampMillis,
                chunkSize,
                fetchSize,
                chunkKeyColumn,
                lockWaitTimeout,
                lockWaitBudget,
                positive(options.get(BINLOG_RECONNECT_BACKOFF), BINLOG_RECONNECT_BACKOFF.key()),
                positive(options.get(BINLOG_RECONNECT_BUDGET), BINLOG_RECONNECT_BUDGET.key()));
    }

    private static MySqlConnectionConfig connection(
            ReadableConfig options, Map<String, String> jdbcProperties) {
        for (String key : jdbcProperties.keySet()) {
            Optional<String> remedy = ReservedJdbcProperties.remedy(key);
            if (remedy.isPresent()) {
                throw new ValidationException(
                        "Option '" + JDBC_PROPERTIES_PREFIX + key + "' is not allowed: " + remedy.get());
            }
        }
        String hostname = options.get(HOSTNAME).trim();
        if (hostname.isEmpty()) {
            throw new ValidationException("Invalid value for option 'hostname': it is empty.");
        }
        int port = options.get(PORT);
        if (port < 1 || port > 65535) {
            throw new ValidationException(
                    "Invalid value for option 'port': it must be in 1..65535, was " + port + ".");
        }
        String username = options.get(USERNAME);
        if (username.isBlank()) {
            throw new ValidationException("Invalid value for option 'username': it is empty.");
        }
        int maxRetries = options.get(CONNECT_MAX_RETRIES);
        if (maxRetries < 0) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + CONNECT_MAX_RETRIES.key()
                            + "': it must be >= 0, was "
                            + maxRetries
                            + ".");
        }
        return MySqlConnectionConfig.builder()
                .hostname(hostname)
                .port(port)
                .username(username)
                .password(options.get(PASSWORD))
                .connectTimeout(positive(options.get(CONNECT_TIMEOUT), CONNECT_TIMEOUT.key()))
                .maxRetries(maxRetries)
                .sslMode(sslMode(options.get(SSL_MODE)))
                .heartbeatInterval(positive(options.get(HEARTBEAT_INTERVAL), HEARTBEAT_INTERVAL.key()))
                .jdbcProperties(jdbcProperties)
                .build();
    }

    private static TableStartupMode startupMode(String value) {
        return TableStartupMode.fromOptionValue(value)
                .orElseThrow(
                        () ->
                                new ValidationException(
                                        "Invalid value for option '"
                                                + SCAN_STARTUP_MODE.key()
                                                + "': '"
                                                + value
                                                + "'. Valid values are "
                                                + TableStartupMode.validValues()
                                                + "."));
    }

    private static void requireForMode(
            TableStartupMode mode,
            TableStartupMode modeNeedingIt,
            String key,
            boolean present,
            String what) {
        if (mode == modeNeedingIt && !present) {
            throw new ValidationException(
                    "scan.startup.mode '"
                            + mode.optionValue()
                            + "' requires option '"
                            + key
                            + "': "
                            + what
                            + ".");
        }
        if (mode != modeNeedingIt && present) {
            throw new ValidationException(
                    "Option '"
                            + key
                            + "' applies only to scan.startup.mode '"
                            + modeNeedingIt.optionValue()
                            + "', but the mode is '"
                            + mode.optionValue()
                            + "'. Remove the option or set scan.startup.mode = '"
                            + modeNeedingIt.optionValue()
                            + "'.");
        }
    }

    static SslMode sslMode(String value) {
        String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (SslMode mode : SslMode.values()) {
            if (mode.name().equals(normalized)) {
                return mode;
            }
        }
        throw new ValidationException(
                "Invalid value for option '"
                        + SSL_MODE.key()
                        + "': '"
                        + value
                        + "'. Valid values are "
                        + Arrays.stream(SslMode.values())
                                .map(m -> "'" + m.name().toLowerCase(Locale.ROOT).replace('_', '-') + "'")
                                .collect(Collectors.joining(", "))
                        + ".");
    }

    private static String pattern(String regex, String key) {
        if (regex.isBlank()) {
            throw new ValidationException("Invalid value for option '" + key + "': it is empty.");
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ValidationException(
                    "Invalid value for option '"
                            + key
                            + "': not a valid Java regular expression ("
                            + e.getDescription()
                            + " at index "
                            + e.getIndex()
                            + ").");
        }
        return regex;
    }

    private static Duration positive(Duration value, String key) {
        if (value.isZero() || value.isNegative()) {
            throw new ValidationException(
                    "Invalid value for option '" + key + "': it must be a positive duration such as '30s'.");
        }
        return value;
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

    public MySqlConnectionConfig connection() {
        return connection;
    }

    public String databasePattern() {
        return databasePattern;
    }

    public String tablePattern() {
        return tablePattern;
    }

    public Optional<ServerIdRange> serverId() {
        return Optional.ofNullable(serverId);
    }

    public TableStartupMode startupMode() {
        return startupMode;
    }

    /** The GTID set text of scan.startup.specific-offset.gtid-set (specific-offset mode only). */
    public Optional<String> specificOffsetGtidSet() {
        return Optional.ofNullable(specificOffsetGtidSet);
    }

    public Optional<Long> startupTimestampMillis() {
        return Optional.ofNullable(startupTimestampMillis);
    }

    public int chunkSize() {
        return chunkSize;
    }

    public int fetchSize() {
        return fetchSize;
    }

    public Optional<String> chunkKeyColumn() {
        return Optional.ofNullable(chunkKeyColumn);
    }

    public Duration lockWaitTimeout() {
        return lockWaitTimeout;
    }

    public Duration lockWaitBudget() {
        return lockWaitBudget;
    }

    public Duration reconnectBackoff() {
        return reconnectBackoff;
    }

    public Duration reconnectBudget() {
        return reconnectBudget;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof CapstanMySqlTableConfig)) {
            return false;
        }
        CapstanMySqlTableConfig that = (CapstanMySqlTableConfig) o;
        return chunkSize == that.chunkSize
                && fetchSize == that.fetchSize
                && connection.equals(that.connection)
                && databasePattern.equals(that.databasePattern)
                && tablePattern.equals(that.tablePattern)
                && Objects.equals(serverId, that.serverId)
                && startupMode == that.startupMode
                && Objects.equals(specificOffsetGtidSet, that.specificOffsetGtidSet)
                && Objects.equals(startupTimestampMillis, that.startupTimestampMillis)
                && Objects.equals(chunkKeyColumn, that.chunkKeyColumn)
                && lockWaitTimeout.equals(that.lockWaitTimeout)
                && lockWaitBudget.equals(that.lockWaitBudget)
                && reconnectBackoff.equals(that.reconnectBackoff)
                && reconnectBudget.equals(that.reconnectBudget);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connection, databasePattern, tablePattern, startupMode);
    }

    /** Safe to print: the connection's toString masks the password. */
    @Override
    public String toString() {
        return "CapstanMySqlTableConfig{"
                + connection
                + ", database-name="
                + databasePattern
                + ", table-name="
                + tablePattern
                + ", server-id="
                + serverId
                + ", scan.startup.mode="
                + startupMode.optionValue()
                + "}";
    }
}

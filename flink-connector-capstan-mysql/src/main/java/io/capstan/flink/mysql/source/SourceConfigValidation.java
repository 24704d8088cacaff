package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.OptionRules;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;

import org.apache.flink.configuration.ReadableConfig;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import static io.capstan.flink.mysql.CapstanMySqlOptions.*;

/**
 * The one validation of a source's options ({@link CapstanSourceConfig#validate}), for the
 * DataStream builder and the SQL connector alike: each value is checked by its option's rule, and
 * the first invalid one is named with what is valid. Pure: it reads no server.
 */
final class SourceConfigValidation {

    private SourceConfigValidation() {}

    static CapstanSourceConfig validate(
            ReadableConfig options, SourceDefinition definition, StartupOptions startup) {
        Objects.requireNonNull(startup, "startup");
        OptionRules.jdbcProperties(definition.jdbcProperties());
        Map<String, String> jdbcProperties = new TreeMap<>(definition.jdbcProperties());
        Duration socketTimeout = socketTimeout(options, jdbcProperties);
        MySqlConnectionConfig connection =
                MySqlConnectionConfig.builder()
                        .hostname(options.getOptional(HOSTNAME).orElse(null))
                        .port(options.get(PORT))
                        .username(options.getOptional(USERNAME).orElse(null))
                        .password(options.getOptional(PASSWORD).orElse(""))
                        .connectTimeout(options.get(CONNECT_TIMEOUT))
                        .socketTimeout(socketTimeout)
                        .maxRetries(options.get(CONNECT_MAX_RETRIES))
                        .sslMode(OptionRules.sslMode(options.get(SSL_MODE)))
                        .heartbeatInterval(options.get(HEARTBEAT_INTERVAL))
                        .jdbcProperties(jdbcProperties)
                        .build();
        long serverId =
                options.getOptional(SERVER_ID)
                        .map(OptionRules::serverId)
                        .orElseGet(
                                () ->
                                        ThreadLocalRandom.current()
                                                .nextLong(
                                                        CapstanSourceConfig.RANDOM_SERVER_ID_MIN,
                                                        CapstanSourceConfig.RANDOM_SERVER_ID_MAX));
        int queueCapacity = OptionRules.binlogQueueCapacity(options.get(BINLOG_QUEUE_CAPACITY));
        Duration reconnectBackoff =
                OptionRules.positive(
                        BINLOG_RECONNECT_BACKOFF, options.get(BINLOG_RECONNECT_BACKOFF));
        Duration reconnectBudget =
                OptionRules.positive(BINLOG_RECONNECT_BUDGET, options.get(BINLOG_RECONNECT_BUDGET));
        TableSelection tables =
                TableSelection.of(definition.databaseList(), definition.tableList());

        SnapshotReadOptions read =
                new SnapshotReadOptions(
                        options.get(SCAN_SNAPSHOT_FETCH_SIZE),
                        options.get(SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT),
                        options.get(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET),
                        definition.snapshotColumns());
        String chunkKeyColumn =
                options.getOptional(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN)
                        .map(c -> OptionRules.chunkKeyColumn(c, null))
                        .orElse(null);
        Map<String, String> chunkKeyByTable = new TreeMap<>();
        definition
                .chunkKeyColumnByTable()
                .forEach(
                        (table, column) ->
                                chunkKeyByTable.put(
                                        OptionRules.chunkKeyTable(table),
                                        OptionRules.chunkKeyColumn(column, table)));
        SnapshotOptions snapshot =
                new SnapshotOptions(
                        options.get(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE),
                        read,
                        chunkKeyColumn,
                        chunkKeyByTable,
                        options.get(SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS),
                        new SnapshotLoadLimits(
                                options.get(SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND),
                                options.get(SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS)));

        CapstanSourceConfig config =
                new CapstanSourceConfig(
                        connection,
                        tables,
                        serverId,
                        startup,
                        queueCapacity,
                        reconnectBackoff,
                        reconnectBudget,
                        snapshot,
                        OptionRules.truncateHandling(options.get(BINLOG_TRUNCATE_HANDLING)),
                        options.get(SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL),
                        options.get(BINLOG_XA_MAX_PENDING_ROWS),
                        options.get(SCAN_NEWLY_ADDED_TABLE_ENABLED),
                        options.get(SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED));
        return OptionRules.snapshotServer(
                        options.getOptional(SCAN_SNAPSHOT_HOSTNAME),
                        options.getOptional(SCAN_SNAPSHOT_PORT),
                        connection.port())
                .map(e -> config.withSnapshotServer(new SnapshotServer(e.getKey(), e.getValue())))
                .orElse(config);
    }

    /**
     * {@code connect.socket-timeout}, or a {@code socketTimeout} driver property (milliseconds, how
     * mysql-cdc users set it), taken out of {@code jdbcProperties} so that the locking connection's
     * minimum still applies.
     */
    private static Duration socketTimeout(
            ReadableConfig options, Map<String, String> jdbcProperties) {
        String key =
                jdbcProperties.keySet().stream()
                        .filter(k -> k.equalsIgnoreCase("socketTimeout"))
                        .findFirst()
                        .orElse(null);
        if (key == null) {
            return options.get(CONNECT_SOCKET_TIMEOUT);
        }
        String millis = jdbcProperties.remove(key).trim();
        String property = "jdbc.properties." + key;
        if (options.getOptional(CONNECT_SOCKET_TIMEOUT).isPresent()) {
            throw OptionRules.invalid(
                    property,
                    "it sets the same as '"
                            + CONNECT_SOCKET_TIMEOUT.key()
                            + "' (DataStream socketTimeout()): set only that option.");
        }
        long value;
        try {
            value = Long.parseLong(millis);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value <= 0) {
            throw OptionRules.invalid(
                    property,
                    "it must be a positive number of milliseconds (0 would wait forever on a"
                            + " network that drops packets); or set '"
                            + CONNECT_SOCKET_TIMEOUT.key()
                            + "'.");
        }
        return Duration.ofMillis(value);
    }
}

package io.capstan.flink.mysql;

import io.capstan.flink.mysql.connect.ReservedJdbcProperties;
import io.capstan.flink.mysql.connect.SslMode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.CapstanMySqlOptions.*;

/**
 * Each rule on an option value, written once. {@link
 * io.capstan.flink.mysql.source.CapstanSourceConfig#validate} applies them all; the value types
 * that guard the same invariant (connection, snapshot read options) call the same rule, so a
 * message reads alike however the value got there. Every message names the option by its key and
 * says what is valid; option values may appear in it, the password never does (the no-values rule).
 */
@Internal
public final class OptionRules {

    /** MySQL's server_id is an unsigned 32-bit number; 0 is refused for replicas. */
    public static final long MAX_SERVER_ID = 0xFFFF_FFFFL;

    /**
     * The smallest chunk: one row. The planner's boundary query skips {@code chunk.size} keys
     * ({@code LIMIT 1 OFFSET chunk.size}) and the arithmetic split steps by it, so one row per
     * chunk tiles the table like any other size (TableChunkPlannerTest draws sizes from 1). The SQL
     * side once asked for 2, a habit of mysql-cdc, whose splitter takes MAX over the first {@code
     * chunk.size} keys and cannot advance past a chunk of one; nothing here needs it.
     */
    public static final int MIN_CHUNK_SIZE = 1;

    /** The smallest decoded-record buffer that still keeps the binlog connection busy. */
    public static final int MIN_BINLOG_QUEUE_CAPACITY = 16;

    private OptionRules() {}

    /** "Invalid value for option 'key': reason" */
    public static IllegalArgumentException invalid(ConfigOption<?> option, String reason) {
        return invalid(option.key(), reason);
    }

    public static IllegalArgumentException invalid(String key, String reason) {
        return new IllegalArgumentException("Invalid value for option '" + key + "': " + reason);
    }

    public static IllegalArgumentException missing(ConfigOption<?> option, String what) {
        return new IllegalArgumentException("Option '" + option.key() + "' is required: " + what);
    }

    public static String hostname(String value) {
        if (value == null) {
            throw missing(HOSTNAME, "the MySQL server's host name or address.");
        }
        if (value.isBlank()) {
            throw invalid(HOSTNAME, "it is empty; give the MySQL server's host name or address.");
        }
        return value.trim();
    }

    public static int port(int value) {
        if (value < 1 || value > 65535) {
            throw invalid(PORT, "it must be in 1..65535, was " + value + ".");
        }
        return value;
    }

    public static String username(String value) {
        if (value == null) {
            throw missing(USERNAME, "the MySQL user to connect as.");
        }
        if (value.isBlank()) {
            throw invalid(USERNAME, "it is empty; give the MySQL user to connect as.");
        }
        return value;
    }

    /**
     * {@code scan.snapshot.hostname} / {@code scan.snapshot.port}: a port needs a host name; an
     * unset port is the main {@code port}.
     *
     * @return the replica's host name (trimmed) and port, or empty when neither is set
     */
    public static Optional<Map.Entry<String, Integer>> snapshotServer(
            Optional<String> hostname, Optional<Integer> port, int mainPort) {
        if (hostname.isEmpty()) {
            if (port.isPresent()) {
                throw invalid(
                        SCAN_SNAPSHOT_PORT,
                        "it is set without '"
                                + SCAN_SNAPSHOT_HOSTNAME.key()
                                + "'; set the replica's host name too, or remove it.");
            }
            return Optional.empty();
        }
        if (hostname.get().isBlank()) {
            throw invalid(
                    SCAN_SNAPSHOT_HOSTNAME,
                    "it is empty; give the replica's host name or address, or remove the option.");
        }
        int p = port.orElse(mainPort);
        if (p < 1 || p > 65535) {
            throw invalid(SCAN_SNAPSHOT_PORT, "it must be in 1..65535, was " + p + ".");
        }
        return Optional.of(Map.entry(hostname.get().trim(), p));
    }

    public static int connectMaxRetries(int value) {
        if (value < 0) {
            throw invalid(CONNECT_MAX_RETRIES, "it must be >= 0, was " + value + ".");
        }
        return value;
    }

    public static Duration positive(ConfigOption<Duration> option, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw invalid(
                    option, "it must be a positive duration such as '30 s', was " + value + ".");
        }
        return value;
    }

    /** A server id or an inclusive range {@code start-end}; the binlog reader uses the first. */
    public static long serverId(String text) {
        String trimmed = text.trim();
        String forms = " Use a number such as '5400' or a range such as '5400-5408'.";
        Optional<Long> single = parseLong(trimmed);
        if (single.isPresent()) {
            return serverIdInRange(single.get(), forms);
        }
        int dash = trimmed.indexOf('-');
        Optional<Long> start =
                dash < 0 ? Optional.empty() : parseLong(trimmed.substring(0, dash).trim());
        Optional<Long> end =
                dash < 0 ? Optional.empty() : parseLong(trimmed.substring(dash + 1).trim());
        if (start.isEmpty() || end.isEmpty()) {
            throw invalid(SERVER_ID, "'" + text + "' is neither a number nor a range." + forms);
        }
        serverIdInRange(start.get(), forms);
        serverIdInRange(end.get(), forms);
        if (end.get() < start.get()) {
            throw invalid(SERVER_ID, "the range end is below its start." + forms);
        }
        return start.get();
    }

    /** A server id as a number: 1..{@link #MAX_SERVER_ID}. */
    public static long serverId(long id) {
        return serverIdInRange(id, "");
    }

    private static long serverIdInRange(long id, String forms) {
        if (id < 1 || id > MAX_SERVER_ID) {
            throw invalid(
                    SERVER_ID, "ids must be in 1.." + MAX_SERVER_ID + ", was " + id + "." + forms);
        }
        return id;
    }

    private static Optional<Long> parseLong(String s) {
        try {
            return Optional.of(Long.parseLong(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code ssl.mode} text ({@code verify-ca}, any case, {@code _} or {@code -}) to the mode. */
    public static SslMode sslMode(String value) {
        String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (SslMode mode : SslMode.values()) {
            if (mode.name().equals(normalized)) {
                return mode;
            }
        }
        throw invalid(
                SSL_MODE,
                "'"
                        + value
                        + "'. Valid values are "
                        + Arrays.stream(SslMode.values())
                                .map(m -> "'" + sslModeValue(m) + "'")
                                .collect(Collectors.joining(", "))
                        + ".");
    }

    /** The {@code ssl.mode} text of a mode. */
    public static String sslModeValue(SslMode mode) {
        return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Refuses driver properties capstan sets itself or that an option already sets. */
    public static void jdbcProperties(Map<String, String> properties) {
        for (String key : properties.keySet()) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException(
                        "Option '"
                                + JDBC_PROPERTIES_PREFIX
                                + "' names no JDBC property: use '"
                                + JDBC_PROPERTIES_PREFIX
                                + "<property>'.");
            }
            Optional<String> remedy = ReservedJdbcProperties.remedy(key);
            if (remedy.isPresent()) {
                throw new IllegalArgumentException(
                        "Option '"
                                + JDBC_PROPERTIES_PREFIX
                                + key
                                + "' is not allowed: "
                                + remedy.get());
            }
        }
    }

    public static int chunkSize(int value) {
        if (value < MIN_CHUNK_SIZE) {
            throw invalid(
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE,
                    "it must be at least "
                            + MIN_CHUNK_SIZE
                            + " (rows per chunk), was "
                            + value
                            + ".");
        }
        return value;
    }

    public static long maxRowsPerSecond(long value) {
        if (value < 0) {
            throw invalid(
                    SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND,
                    "it must be 0 (no limit) or a positive number of rows per second, was "
                            + value
                            + ".");
        }
        return value;
    }

    public static int maxConcurrentChunkReads(int value) {
        if (value < 0) {
            throw invalid(
                    SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS,
                    "it must be 0 (one chunk read per reader) or a positive number of chunk reads,"
                            + " was "
                            + value
                            + ".");
        }
        return value;
    }

    public static long keylessTableMaxRows(long value) {
        if (value < 0) {
            throw invalid(
                    SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS,
                    "it must be 0 or more (rows of a table without a unique key, read as one"
                            + " chunk), was "
                            + value
                            + ".");
        }
        return value;
    }

    public static int fetchSize(int value) {
        if (value < 0) {
            throw invalid(
                    SCAN_SNAPSHOT_FETCH_SIZE,
                    "it must be 0 (stream the rows, the default) or a positive number of rows per"
                            + " round trip, was "
                            + value
                            + ".");
        }
        return value;
    }

    public static Duration lockWaitTimeout(Duration value) {
        if (value == null || value.compareTo(Duration.ofSeconds(1)) < 0) {
            throw invalid(
                    SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT,
                    "it must be at least 1 s (MySQL's lock_wait_timeout counts whole seconds), e.g."
                            + " '2 s', was "
                            + value
                            + ".");
        }
        return value;
    }

    public static Duration lockWaitBudget(Duration budget, Duration timeout) {
        positive(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET, budget);
        if (budget.compareTo(timeout) < 0) {
            throw invalid(
                    SCAN_SNAPSHOT_LOCK_WAIT_BUDGET,
                    "it must be at least '"
                            + SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT.key()
                            + "' ("
                            + timeout.toMillis()
                            + " ms), was "
                            + budget.toMillis()
                            + " ms.");
        }
        return budget;
    }

    /** A column name: surrounding blanks dropped, a blank name refused. */
    public static String chunkKeyColumn(String column, String ofTable) {
        if (column == null || column.isBlank()) {
            throw invalid(
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN.key()
                            + (ofTable == null ? "" : "' of table '" + ofTable),
                    "it must name a column of the table.");
        }
        return column.trim();
    }

    /** The table of a per-table chunk key column must be {@code database.table}. */
    public static String chunkKeyTable(String table) {
        if (table == null || table.split("\\.", -1).length != 2) {
            throw invalid(
                    SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN.key() + "' of table '" + table,
                    "the table must be 'database.table'.");
        }
        return table;
    }

    public static TruncateHandling truncateHandling(String value) {
        for (TruncateHandling h : TruncateHandling.values()) {
            if (h.optionValue().equalsIgnoreCase(value == null ? "" : value.trim())) {
                return h;
            }
        }
        throw invalid(BINLOG_TRUNCATE_HANDLING, "it must be halt, emit or skip.");
    }

    /**
     * Adding tables on restore snapshots them, so it needs a mode that snapshots and then streams:
     * {@code initial}.
     */
    public static boolean newlyAddedTables(boolean enabled, StartupMode mode) {
        if (enabled && (!mode.readsSnapshot() || mode.isBounded())) {
            throw invalid(
                    SCAN_NEWLY_ADDED_TABLE_ENABLED,
                    "'true' needs scan.startup.mode 'initial' (tables added on restore are"
                            + " snapshotted, then streamed), but the mode is '"
                            + StartupOptions.optionValue(mode)
                            + "'. Remove the option or set it to 'false'.");
        }
        return enabled;
    }

    public static int xaMaxPendingRows(int value) {
        if (value < 1) {
            throw invalid(BINLOG_XA_MAX_PENDING_ROWS, "it must be >= 1, was " + value + ".");
        }
        return value;
    }

    public static int binlogQueueCapacity(int value) {
        if (value < MIN_BINLOG_QUEUE_CAPACITY) {
            throw invalid(
                    BINLOG_QUEUE_CAPACITY,
                    "it must be >= " + MIN_BINLOG_QUEUE_CAPACITY + ", was " + value + ".");
        }
        return value;
    }

    /** Columns the snapshot reads: names, none blank. */
    public static void snapshotColumns(Collection<String> columns) {
        for (String c : columns) {
            if (c == null || c.isBlank()) {
                throw new IllegalArgumentException(
                        "snapshotColumns must not contain a blank name: list the columns to read.");
            }
        }
    }
}

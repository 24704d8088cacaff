package io.capstan.flink.mysql;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A start position for a new job: one of the {@link StartupMode}s and its argument. A job restored
 * from a checkpoint or savepoint ignores this and resumes exactly where its state says.
 *
 * <p>The argument is a GTID set, a binlog file and position, or a time, never a row value, so
 * {@link #toString()} shows it.
 */
@PublicEvolving
public final class StartupOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The modes in the order mysql-cdc's documentation lists {@code scan.startup.mode}'s values.
     */
    private static final Pattern BINLOG_FILE_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /** MariaDB's GTID position text: numbers and dashes, comma-separated; no uuid's colon. */
    private static final Pattern MARIADB_POSITION = Pattern.compile("[0-9][0-9\\s,-]*");

    private static final List<StartupMode> OPTION_ORDER =
            List.of(
                    StartupMode.INITIAL,
                    StartupMode.SNAPSHOT,
                    StartupMode.LATEST,
                    StartupMode.EARLIEST,
                    StartupMode.GTID_SET,
                    StartupMode.TIMESTAMP);

    private final StartupMode mode;
    @Nullable private final String gtidSet; // canonical text, kept as text so the type stays simple
    @Nullable private final Long timestampMillis;
    // A file/position start stays as given here: it is translated into the GTID set it denotes
    // only when a new job plans its binlog split, never when a restored job is planned again (the
    // file may be purged by then, and the state needs no translation).
    @Nullable private final String binlogFile;
    @Nullable private final Long binlogPosition;

    private StartupOptions(
            StartupMode mode, @Nullable String gtidSet, @Nullable Long timestampMillis) {
        this(mode, gtidSet, timestampMillis, null, null);
    }

    private StartupOptions(
            StartupMode mode,
            @Nullable String gtidSet,
            @Nullable Long timestampMillis,
            @Nullable String binlogFile,
            @Nullable Long binlogPosition) {
        this.mode = mode;
        this.gtidSet = gtidSet;
        this.timestampMillis = timestampMillis;
        this.binlogFile = binlogFile;
        this.binlogPosition = binlogPosition;
    }

    /**
     * Backfill the existing rows, then stream the binlog with no gap and no duplicate (the
     * default).
     */
    public static StartupOptions initial() {
        return new StartupOptions(StartupMode.INITIAL, null, null);
    }

    /** Backfill the existing rows and finish (a bounded job). */
    public static StartupOptions snapshot() {
        return new StartupOptions(StartupMode.SNAPSHOT, null, null);
    }

    /** The server's current {@code @@global.gtid_executed}: only changes committed from now on. */
    public static StartupOptions latest() {
        return new StartupOptions(StartupMode.LATEST, null, null);
    }

    /** Everything still in the server's binary logs. */
    public static StartupOptions earliest() {
        return new StartupOptions(StartupMode.EARLIEST, null, null);
    }

    /**
     * Every transaction not in {@code gtidSet} (MySQL's text form, as {@code gtid_executed} prints
     * it; on MariaDB its GTID position, as {@code @@gtid_binlog_pos} prints it: {@code 0-1-42}, one
     * {@code domain-server-sequence} per domain, which holds every transaction of the domain up to
     * that sequence number). The server must still hold all transactions outside the set, or the
     * job halts with {@code data_gap}; a set naming transactions the server never executed halts
     * with {@code source_identity_mismatch}.
     *
     * @throws IllegalArgumentException when the text is not a GTID set
     */
    public static StartupOptions gtidSet(String gtidSet) {
        Objects.requireNonNull(gtidSet, "gtidSet");
        String canonical;
        try {
            String text = gtidSet.trim();
            canonical =
                    (MARIADB_POSITION.matcher(text).matches()
                                    ? MariaDbGtidAxes.ofState(text)
                                    : GtidSet.parse(text))
                            .toString();
        } catch (RuntimeException e) {
            IllegalArgumentException invalid =
                    OptionRules.invalid(
                            CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET,
                            e.getMessage()
                                    + ". Expected MySQL's GTID set text"
                                    + " (uuid:1-5[:7-9][,uuid2:...]), e.g."
                                    + " '3E11FA47-71CA-11E1-9E33-C80AA9429562:1-23', or on MariaDB"
                                    + " its GTID position (domain-server-sequence per domain),"
                                    + " e.g. '0-1-42'.");
            invalid.initCause(e);
            throw invalid;
        }
        return new StartupOptions(StartupMode.GTID_SET, canonical, null);
    }

    /**
     * mysql-cdc's {@code specific-offset} start at a binlog file and position (SQL: {@code
     * scan.startup.specific-offset.file} and {@code .pos}): every transaction from the position on.
     * When a new job plans its binlog split, the position is translated into the GTID set of the
     * transactions before it (the file's Previous-GTIDs and the transactions in the file before the
     * position); a restored job resumes from its state and never reads the file again. The position
     * must be where a transaction starts, the file's start (4) or its end; otherwise, or when the
     * server no longer has the file, the new job halts before reading ({@code
     * invalid_start_position}, {@code data_gap}).
     *
     * @throws IllegalArgumentException when the file name is not a binlog file name or the position
     *     is below 4
     */
    public static StartupOptions specificOffset(String binlogFile, long position) {
        Objects.requireNonNull(binlogFile, "binlogFile");
        String name = binlogFile.trim();
        if (!BINLOG_FILE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "'scan.startup.specific-offset.file' must name a binlog file as SHOW BINARY"
                            + " LOGS lists it, e.g. 'mysql-bin.000003'.");
        }
        if (position < 4) {
            throw new IllegalArgumentException(
                    "'scan.startup.specific-offset.pos' must be 4 (the file's start) or more, was "
                            + position
                            + ".");
        }
        return new StartupOptions(StartupMode.GTID_SET, null, null, name, position);
    }

    /** The first transaction committed at or after {@code epochMillis} (UTC milliseconds). */
    public static StartupOptions timestamp(long epochMillis) {
        if (epochMillis < 0) {
            throw OptionRules.invalid(
                    CapstanMySqlOptions.SCAN_STARTUP_TIMESTAMP_MILLIS,
                    "it must be an epoch millisecond >= 0, was " + epochMillis + ".");
        }
        return new StartupOptions(StartupMode.TIMESTAMP, null, epochMillis);
    }

    /**
     * The start position that {@code scan.startup.mode} and its argument option in {@code options}
     * describe (the SQL connector's; the DataStream builder takes a {@link StartupOptions}).
     *
     * @throws IllegalArgumentException as {@link #fromOptions(String, String, Long)}
     */
    public static StartupOptions fromOptions(ReadableConfig options) {
        return fromOptions(
                options.get(CapstanMySqlOptions.SCAN_STARTUP_MODE),
                options.getOptional(CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET)
                        .orElse(null),
                options.getOptional(CapstanMySqlOptions.SCAN_STARTUP_TIMESTAMP_MILLIS)
                        .orElse(null));
    }

    /**
     * The start position the {@code scan.startup.mode} option and its argument describe.
     *
     * @param gtidSet {@code scan.startup.specific-offset.gtid-set}, or null
     * @param timestampMillis {@code scan.startup.timestamp-millis}, or null
     * @throws IllegalArgumentException naming the option: an unknown mode, a mode without its
     *     argument, or an argument given for another mode
     */
    public static StartupOptions fromOptions(
            String mode, @Nullable String gtidSet, @Nullable Long timestampMillis) {
        StartupMode m =
                OPTION_ORDER.stream()
                        .filter(candidate -> optionValue(candidate).equalsIgnoreCase(mode.trim()))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        OptionRules.invalid(
                                                CapstanMySqlOptions.SCAN_STARTUP_MODE,
                                                "'"
                                                        + mode
                                                        + "'. Valid values are "
                                                        + OPTION_ORDER.stream()
                                                                .map(
                                                                        v ->
                                                                                "'"
                                                                                        + optionValue(
                                                                                                v)
                                                                                        + "'")
                                                                .collect(Collectors.joining(", "))
                                                        + "."));
        requireForMode(
                m,
                StartupMode.GTID_SET,
                CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET,
                gtidSet != null && !gtidSet.isBlank(),
                "the GTID set of the transactions already processed, e.g."
                        + " '3E11FA47-71CA-11E1-9E33-C80AA9429562:1-23'");
        requireForMode(
                m,
                StartupMode.TIMESTAMP,
                CapstanMySqlOptions.SCAN_STARTUP_TIMESTAMP_MILLIS,
                timestampMillis != null,
                "an epoch millisecond such as '1700000000000'");
        switch (m) {
            case GTID_SET:
                return gtidSet(gtidSet);
            case TIMESTAMP:
                return timestamp(timestampMillis);
            default:
                return new StartupOptions(m, null, null);
        }
    }

    private static void requireForMode(
            StartupMode mode,
            StartupMode modeNeedingIt,
            ConfigOption<?> option,
            boolean present,
            String what) {
        if (mode == modeNeedingIt && !present) {
            throw new IllegalArgumentException(
                    "scan.startup.mode '"
                            + optionValue(mode)
                            + "' requires option '"
                            + option.key()
                            + "': "
                            + what
                            + ".");
        }
        if (mode != modeNeedingIt && present) {
            throw new IllegalArgumentException(
                    "Option '"
                            + option.key()
                            + "' applies only to scan.startup.mode '"
                            + optionValue(modeNeedingIt)
                            + "', but the mode is '"
                            + optionValue(mode)
                            + "'. Remove the option or set"
                            + " scan.startup.mode = '"
                            + optionValue(modeNeedingIt)
                            + "'.");
        }
    }

    /** The value of {@code scan.startup.mode} for this position. */
    public String optionValue() {
        return optionValue(mode);
    }

    /** The {@code scan.startup.mode} value of a mode, spelled as mysql-cdc spells it. */
    public static String optionValue(StartupMode mode) {
        switch (mode) {
            case LATEST:
                return "latest-offset";
            case EARLIEST:
                return "earliest-offset";
            case GTID_SET:
                return "specific-offset";
            default:
                return mode.name().toLowerCase(Locale.ROOT);
        }
    }

    public StartupMode mode() {
        return mode;
    }

    /**
     * The binlog file of a {@link #specificOffset(String, long)} start, else null (then {@link
     * #gtidSet()} is the start).
     */
    @Nullable
    public String binlogFile() {
        return binlogFile;
    }

    /** The position in {@link #binlogFile()}, else null. */
    @Nullable
    public Long binlogPosition() {
        return binlogPosition;
    }

    /** The start set for {@link StartupMode#GTID_SET} given as a set, else null. */
    @Nullable
    public GtidSet gtidSet() {
        return gtidSet == null ? null : GtidSet.parse(gtidSet);
    }

    /** The start time for {@link StartupMode#TIMESTAMP}, else null. */
    @Nullable
    public Long timestampMillis() {
        return timestampMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof StartupOptions)) {
            return false;
        }
        StartupOptions that = (StartupOptions) o;
        return mode == that.mode
                && Objects.equals(gtidSet, that.gtidSet)
                && Objects.equals(timestampMillis, that.timestampMillis)
                && Objects.equals(binlogFile, that.binlogFile)
                && Objects.equals(binlogPosition, that.binlogPosition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, gtidSet, timestampMillis, binlogFile, binlogPosition);
    }

    @Override
    public String toString() {
        switch (mode) {
            case GTID_SET:
                return binlogFile != null
                        ? "binlog-position[" + binlogFile + ":" + binlogPosition + "]"
                        : "gtid-set[" + gtidSet + "]";
            case TIMESTAMP:
                return "timestamp[" + timestampMillis + "]";
            default:
                return mode.name().toLowerCase(Locale.ROOT);
        }
    }
}

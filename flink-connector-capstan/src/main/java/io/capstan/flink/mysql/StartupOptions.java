package io.capstan.flink.mysql;

import io.capstan.flink.mysql.gtid.GtidSet;
import java.io.Serializable;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A start position for a new job: one of the {@link StartupMode}s and its argument. A job restored
 * from a checkpoint or savepoint ignores this and resumes exactly where its state says.
 *
 * <p>The argument is a GTID set or a time, never a row value, so {@link #toString()} shows it.
 */
public final class StartupOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    private final StartupMode mode;
    @Nullable private final String gtidSet; // canonical text, kept as text so the type stays simple
    @Nullable private final Long timestampMillis;

    private StartupOptions(StartupMode mode, @Nullable String gtidSet, @Nullable Long timestampMillis) {
        this.mode = mode;
        this.gtidSet = gtidSet;
        this.timestampMillis = timestampMillis;
    }

    /** Backfill the existing rows, then stream the binlog with no gap and no duplicate (the default). */
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
     * it). The server must still hold all transactions outside the set, or the job halts with
     * {@code data_gap}; a set naming transactions the server never executed halts with
     * {@code source_identity_mismatch}.
     *
     * @throws IllegalArgumentException when the text is not a GTID set
     */
    public static StartupOptions gtidSet(String gtidSet) {
        Objects.requireNonNull(gtidSet, "gtidSet");
        String canonical;
        try {
            canonical = GtidSet.parse(gtidSet).toString();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "startupOptions: the start GTID set is not in MySQL's GTID set syntax"
                            + " (uuid:1-5[:7-9][,uuid2:...]): " + e.getMessage(),
                    e);
        }
        return new StartupOptions(StartupMode.GTID_SET, canonical, null);
    }

    /** The first transaction committed at or after {@code epochMillis} (UTC milliseconds). */
    public static StartupOptions timestamp(long epochMillis) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException(
                    "startupOptions: the start timestamp must be >= 0 ms since the epoch");
        }
        return new StartupOptions(StartupMode.TIMESTAMP, null, epochMillis);
    }

    public StartupMode mode() {
        return mode;
    }

    /** The start set for {@link StartupMode#GTID_SET}, else null. */
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
                && Objects.equals(timestampMillis, that.timestampMillis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, gtidSet, timestampMillis);
    }

    @Override
    public String toString() {
        switch (mode) {
            case GTID_SET:
                return "gtid-set[" + gtidSet + "]";
            case TIMESTAMP:
                return "timestamp[" + timestampMillis + "]";
            default:
                return mode.name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}

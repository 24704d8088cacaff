package io.capstan.flink.mysql.table;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The values of {@code scan.startup.mode}, spelled as mysql-cdc spells them. */
public enum TableStartupMode {
    /** Snapshot of the existing rows, then the binlog from the snapshot's position. */
    INITIAL("initial"),
    /** Snapshot of the existing rows only; the table is bounded and insert-only. */
    SNAPSHOT("snapshot"),
    /** The binlog from the server's current position; no snapshot. */
    LATEST_OFFSET("latest-offset"),
    /** The binlog from the oldest transaction the server still has. */
    EARLIEST_OFFSET("earliest-offset"),
    /** The binlog after a given GTID set. */
    SPECIFIC_OFFSET("specific-offset"),
    /** The binlog from the first transaction committed at or after a given time. */
    TIMESTAMP("timestamp");

    private final String optionValue;

    TableStartupMode(String optionValue) {
        this.optionValue = optionValue;
    }

    public String optionValue() {
        return optionValue;
    }

    /** Whether this mode reads the existing rows first. */
    public boolean readsSnapshot() {
        return this == INITIAL || this == SNAPSHOT;
    }

    public static Optional<TableStartupMode> fromOptionValue(String value) {
        return Arrays.stream(values())
                .filter(m -> m.optionValue.equalsIgnoreCase(value.trim()))
                .findFirst();
    }

    /** The accepted values, for messages. */
    public static String validValues() {
        return Arrays.stream(values())
                .map(m -> "'" + m.optionValue + "'")
                .collect(Collectors.joining(", "));
    }
}

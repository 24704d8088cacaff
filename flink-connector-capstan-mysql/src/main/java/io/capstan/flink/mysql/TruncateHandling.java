package io.capstan.flink.mysql;

import org.apache.flink.annotation.PublicEvolving;

import java.util.Locale;

/**
 * What the stream does when a captured table is truncated after its snapshot (option {@code
 * binlog.truncate.handling}). DROP and RENAME of a captured table always halt.
 */
@PublicEvolving
public enum TruncateHandling {
    /** Halt with {@code captured_table_truncated} (the default): re-snapshot to go on. */
    HALT,
    /**
     * Emit the truncate as a change event of operation {@link
     * io.capstan.flink.mysql.event.Operation#TRUNCATE}: the JSON envelope carries {@code "op":"t"};
     * a deserializer that cannot express it (RowData, Flink SQL) halts.
     */
    EMIT,
    /** Go on with one WARN naming the table: downstream keeps the rows MySQL no longer has. */
    SKIP;

    /** The option's value: {@code halt}, {@code emit} or {@code skip}. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}

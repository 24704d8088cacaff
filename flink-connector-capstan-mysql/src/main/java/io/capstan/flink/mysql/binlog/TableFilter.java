package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/** Which tables are captured. Serializable so it travels inside the source and its splits. */
@FunctionalInterface
@Internal
public interface TableFilter extends Predicate<TableId>, Serializable {

    /** Captures exactly the given tables. */
    static TableFilter of(Set<TableId> tables) {
        return new Listed(new TreeSet<>(tables));
    }

    /** Captures every table (for tests and tools). */
    static TableFilter all() {
        return t -> true;
    }

    /** The captured tables when the filter lists them, else empty (a predicate only). */
    default Optional<Set<TableId>> listed() {
        return Optional.empty();
    }

    /**
     * True when a table named in statement text may be a captured one: names in statements may
     * differ in letter case from the catalogue's (servers with {@code lower_case_table_names} set
     * treat them alike), so they compare ignoring case; a needless halt beats a missed change.
     */
    default boolean mayCapture(TableId table) {
        if (test(table)) {
            return true;
        }
        Optional<Set<TableId>> all = listed();
        if (all.isEmpty()) {
            return test(
                    TableId.of(
                            table.database().toLowerCase(Locale.ROOT),
                            table.table().toLowerCase(Locale.ROOT)));
        }
        for (TableId t : all.get()) {
            if (t.database().equalsIgnoreCase(table.database())
                    && t.table().equalsIgnoreCase(table.table())) {
                return true;
            }
        }
        return false;
    }

    /** A filter of listed tables. */
    record Listed(Set<TableId> tables) implements TableFilter {
        @Override
        public boolean test(TableId t) {
            return tables.contains(t);
        }

        @Override
        public Optional<Set<TableId>> listed() {
            return Optional.of(tables);
        }
    }
}

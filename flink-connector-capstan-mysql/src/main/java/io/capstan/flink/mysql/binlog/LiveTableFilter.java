package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.TableId;

import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The listed captured tables of one running stream, which grow when a table the selection matches
 * is created ({@link CreatedTableCapture}). Used only by the binlog reader thread.
 */
final class LiveTableFilter implements TableFilter {
    private static final long serialVersionUID = 1L;

    private final TreeSet<TableId> tables;

    LiveTableFilter(Set<TableId> initial) {
        this.tables = new TreeSet<>(initial);
    }

    @Override
    public boolean test(TableId t) {
        return tables.contains(t);
    }

    @Override
    public Optional<Set<TableId>> listed() {
        return Optional.of(Collections.unmodifiableSet(tables));
    }

    /** Adds {@code t}; false when it was captured already. */
    boolean add(TableId t) {
        return tables.add(t);
    }
}

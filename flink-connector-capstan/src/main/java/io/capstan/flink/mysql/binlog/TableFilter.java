package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/** Which tables are captured. Serializable so it travels inside the source and its splits. */
@FunctionalInterface
@Internal
public interface TableFilter extends Predicate<TableId>, Serializable {

    /** Captures exactly the given tables. */
    static TableFilter of(Set<TableId> tables) {
        Set<TableId> copy = new TreeSet<>(tables);
        return copy::contains;
    }

    /** Captures every table (for tests and tools). */
    static TableFilter all() {
        return t -> true;
    }
}

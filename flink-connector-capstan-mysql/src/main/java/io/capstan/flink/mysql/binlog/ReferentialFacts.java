package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the binlog stream must know of the server's foreign keys and triggers to tell whether a
 * change of one table changes captured tables without a trace in the binary log.
 *
 * @param foreignKeys every foreign key the account can see
 * @param tablesWithTriggers the tables with a trigger the account can see
 * @param visibleTables the tables whose constraints the account can see (those it holds a privilege
 *     on)
 * @param triggersVisible whether the account can see a table's triggers (holds TRIGGER on it)
 */
@Internal
public record ReferentialFacts(
        List<ForeignKey> foreignKeys,
        Set<TableId> tablesWithTriggers,
        Set<TableId> visibleTables,
        Predicate<TableId> triggersVisible) {

    /** Reads the facts from the server; called on the binlog reader thread. */
    @FunctionalInterface
    @Internal
    public interface Source {
        ReferentialFacts read() throws IOException;
    }

    public ReferentialFacts {
        foreignKeys = List.copyOf(foreignKeys);
        tablesWithTriggers = Set.copyOf(tablesWithTriggers);
        visibleTables = Set.copyOf(visibleTables);
    }
}

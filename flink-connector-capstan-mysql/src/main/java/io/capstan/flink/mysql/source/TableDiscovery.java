package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.SystemVersionedTables;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Resolves a {@link TableSelection} to the concrete base tables that exist on the server. */
@Internal
public final class TableDiscovery {

    private TableDiscovery() {}

    /**
     * The matching base tables (never views, never system schemas), sorted.
     *
     * @throws CapstanHaltException {@code no_tables_matched} when nothing matches
     */
    public static List<TableId> resolve(JdbcProxy mysql, TableSelection selection)
            throws IOException {
        refuseSystemVersioned(mysql.systemVersionedTables(), selection);
        return select(mysql.baseTables(), selection, mysql.serverAddress());
    }

    /**
     * Halts when {@code selection} matches one of MariaDB's system-versioned tables: they are not
     * base tables, so leaving them out would lose their changes without a word. Pure.
     *
     * @throws CapstanHaltException {@code system_versioned_table} naming them
     */
    public static void refuseSystemVersioned(List<TableId> versioned, TableSelection selection) {
        List<TableId> matched = versioned.stream().filter(selection::matches).toList();
        if (!matched.isEmpty()) {
            throw SystemVersionedTables.refused(
                    matched, matched.size() == 1 ? "is system-versioned" : "are system-versioned");
        }
    }

    /**
     * The tables of {@code baseTables} that {@code selection} matches, in their order. Pure.
     *
     * @throws CapstanHaltException {@code no_tables_matched} when nothing matches
     */
    public static List<TableId> select(
            List<TableId> baseTables, TableSelection selection, String serverAddress) {
        List<TableId> found = new ArrayList<>();
        for (TableId id : baseTables) {
            if (selection.matches(id)) {
                found.add(id);
            }
        }
        if (found.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.NO_TABLES_MATCHED,
                    "no base table on "
                            + serverAddress
                            + " matches "
                            + selection
                            + " (views and system schemas are never captured). Remedy: check the"
                            + " names and patterns, and that the connector user can see the tables"
                            + " (SELECT privilege).");
        }
        return found;
    }
}

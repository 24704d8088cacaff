package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.SystemVersionedTables;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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
        return discover(mysql, selection).selected();
    }

    /**
     * What {@link #discover} found: every base table on the server, and those the selection picks.
     */
    public record Discovered(List<TableId> onServer, List<TableId> selected) {}

    /**
     * The server's base tables and those {@code selection} picks, refusing what capstan cannot
     * capture although the binlog would show its rows, at a start and at a restore, before any row
     * is read: one of MariaDB's system-versioned tables (they are not base tables, so leaving them
     * out would lose their changes without a word), or a selected table with a column of MariaDB's
     * UUID, INET4 or INET6 (the binlog writes them as plain binary).
     *
     * @throws CapstanHaltException {@code system_versioned_table} or {@code
     *     unsupported_column_type} naming them, {@code no_tables_matched} when nothing matches
     */
    public static Discovered discover(JdbcProxy mysql, TableSelection selection)
            throws IOException {
        refuseSystemVersioned(mysql.systemVersionedTables(), selection);
        List<TableId> onServer = mysql.baseTables();
        List<TableId> selected = select(onServer, selection, mysql.serverAddress());
        Set<String> databases = new TreeSet<>();
        selected.forEach(t -> databases.add(t.database()));
        refuseMariaDbOwnTypes(mysql.mariaDbOwnTypeColumns(databases), selected);
        return new Discovered(onServer, selected);
    }

    /** {@link #discover}'s check of MariaDB's own types. Pure. */
    static void refuseMariaDbOwnTypes(
            List<MariaDbOwnTypes.Column> columns, Collection<TableId> selected) {
        for (MariaDbOwnTypes.Column c : columns) {
            if (selected.contains(c.table())) {
                throw MariaDbOwnTypes.refused(c);
            }
        }
    }

    /** {@link #discover}'s check of system-versioned tables. Pure. */
    static void refuseSystemVersioned(List<TableId> versioned, TableSelection selection) {
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

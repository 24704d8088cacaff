package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Resolves a {@link TableSelection} to the concrete base tables that exist on the server. */
public final class TableDiscovery {

    private TableDiscovery() {}

    /**
     * The matching base tables (never views, never system schemas), sorted.
     *
     * @throws CapstanHaltException {@code no_tables_matched} when nothing matches
     */
    public static List<TableId> resolve(MySqlConnectionConfig config, TableSelection selection)
            throws SQLException {
        List<TableId> found = new ArrayList<>();
        try (Connection c = JdbcConnections.open(config);
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                                        + " WHERE TABLE_TYPE = 'BASE TABLE'"
                                        + " AND TABLE_SCHEMA NOT IN"
                                        + " ('mysql','information_schema','performance_schema','sys')"
                                        + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                TableId id = TableId.of(rs.getString(1), rs.getString(2));
                if (selection.matches(id)) {
                    found.add(id);
                }
            }
        }
        if (found.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.NO_TABLES_MATCHED,
                    "no base table on " + config.address() + " matches " + selection
                            + " (views and system schemas are never captured). Remedy: check the"
                            + " names and patterns, and that the connector user can see the tables"
                            + " (SELECT privilege).");
        }
        return found;
    }
}

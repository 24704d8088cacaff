package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.schema.TableId;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's base tables (and MariaDB's system-versioned ones) and storage engines over JDBC, for
 * {@link ServerJdbcProxy}; {@code source.TableDiscovery} picks the selected tables.
 */
final class JdbcTableDiscovery {

    private JdbcTableDiscovery() {}

    /** The table's storage engine (empty text when the server reports none). */
    static String storageEngine(Connection c, TableId table) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT ENGINE FROM information_schema.TABLES"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, table.database());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                String engine = rs.next() ? rs.getString(1) : null;
                return engine == null ? "" : engine;
            }
        }
    }

    /** Every base table outside the system schemas (never a view), sorted. */
    static List<TableId> baseTables(Connection c) throws SQLException {
        return tablesOfType(c, "BASE TABLE");
    }

    /** MariaDB's system-versioned tables outside the system schemas, sorted. */
    static List<TableId> systemVersionedTables(Connection c) throws SQLException {
        return tablesOfType(c, "SYSTEM VERSIONED");
    }

    private static List<TableId> tablesOfType(Connection c, String type) throws SQLException {
        List<TableId> found = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                                        + " WHERE TABLE_TYPE = '"
                                        + type
                                        + "' AND TABLE_SCHEMA NOT IN"
                                        + " ('mysql','information_schema','performance_schema','sys')"
                                        + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                found.add(TableId.of(rs.getString(1), rs.getString(2)));
            }
        }
        return found;
    }
}

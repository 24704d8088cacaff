package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.preflight.ServerVersion;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.TableId;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The server's base tables (and MariaDB's system-versioned ones, and its columns of types the
 * binlog writes as plain binary) and storage engines over JDBC, for {@link ServerJdbcProxy}; {@code
 * source.TableDiscovery} picks the selected tables.
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

    /**
     * The columns of MariaDB's UUID, INET4 and INET6 in {@code databases}; on MySQL none, without a
     * query. One query per database: MariaDB then opens only that database's table definitions.
     */
    static List<MariaDbOwnTypes.Column> mariaDbOwnTypeColumns(
            Connection c, Collection<String> databases) throws SQLException {
        List<MariaDbOwnTypes.Column> found = new ArrayList<>();
        if (!ServerVersion.parse(c.getMetaData().getDatabaseProductVersion(), null).isMariaDb()) {
            return found;
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE"
                                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                                + " AND DATA_TYPE IN ('uuid', 'inet4', 'inet6')"
                                + " ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
            for (String database : databases) {
                ps.setString(1, database);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(
                                new MariaDbOwnTypes.Column(
                                        TableId.of(rs.getString(1), rs.getString(2)),
                                        rs.getString(3),
                                        rs.getString(4)));
                    }
                }
            }
        }
        return found;
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

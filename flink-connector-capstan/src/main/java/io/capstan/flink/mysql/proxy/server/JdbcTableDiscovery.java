package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.TableDiscovery;
import io.capstan.flink.mysql.source.TableSelection;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Lists the server's base tables over JDBC; {@link TableDiscovery} picks the selected ones. */
@Internal
public final class JdbcTableDiscovery {

    private JdbcTableDiscovery() {}

    /**
     * The selected base tables on the server at {@code config}, sorted, on a connection of its own
     * (the SQL layer's planning-time check).
     *
     * @throws io.capstan.flink.mysql.error.CapstanHaltException {@code no_tables_matched}
     */
    public static List<TableId> resolve(MySqlConnectionConfig config, TableSelection selection)
            throws SQLException {
        try (Connection c = JdbcConnections.open(config)) {
            return TableDiscovery.select(baseTables(c), selection, config.address());
        }
    }

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
        List<TableId> found = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                                        + " WHERE TABLE_TYPE = 'BASE TABLE'"
                                        + " AND TABLE_SCHEMA NOT IN"
                                        + " ('mysql','information_schema','performance_schema','sys')"
                                        + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                found.add(TableId.of(rs.getString(1), rs.getString(2)));
            }
        }
        return found;
    }
}

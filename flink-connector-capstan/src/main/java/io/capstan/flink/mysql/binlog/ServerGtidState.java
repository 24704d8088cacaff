package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.gtid.GtidSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The server's {@code gtid_executed} and {@code gtid_purged}, read together over JDBC. */
public final class ServerGtidState {

    final GtidSet executed;
    final GtidSet purged;

    private ServerGtidState(GtidSet executed, GtidSet purged) {
        this.executed = executed;
        this.purged = purged;
    }

    static ServerGtidState read(MySqlConnectionConfig config) {
        try (Connection c = JdbcConnections.open(config);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@global.gtid_executed, @@global.gtid_purged")) {
            rs.next();
            return new ServerGtidState(parse(rs.getString(1)), parse(rs.getString(2)));
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not read gtid_executed/gtid_purged from " + config.address()
                            + " (SQL state " + e.getSQLState() + ", error " + e.getErrorCode() + ")",
                    e);
        }
    }

    /** The server's {@code gtid_executed}, on an open connection. */
    public static GtidSet executed(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@global.gtid_executed")) {
            rs.next();
            return parse(rs.getString(1));
        }
    }

    /** A GTID set as the server prints it (nullable): MySQL separates the UUIDs of a long set with ",\n". */
    public static GtidSet parse(String text) {
        return GtidSet.parse(text == null ? "" : text.replace("\n", "").trim());
    }
}

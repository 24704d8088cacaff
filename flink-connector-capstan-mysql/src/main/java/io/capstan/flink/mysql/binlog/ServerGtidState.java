package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * The server's {@code gtid_executed} and {@code gtid_purged}, read together, and the start
 * positions they allow. The reads over JDBC are static; the rest is pure.
 */
@Internal
public final class ServerGtidState {

    final GtidSet executed;
    final GtidSet purged;

    private ServerGtidState(GtidSet executed, GtidSet purged) {
        this.executed = Objects.requireNonNull(executed, "executed");
        this.purged = Objects.requireNonNull(purged, "purged");
    }

    public static ServerGtidState of(GtidSet executed, GtidSet purged) {
        return new ServerGtidState(executed, purged);
    }

    /** Stream what commits from now on. */
    public BinlogStartPosition latest() {
        return BinlogStartPosition.of(executed);
    }

    /** Everything the server still holds: {@code gtid_purged} as the processed set. */
    public BinlogStartPosition earliest() {
        return BinlogStartPosition.of(purged);
    }

    /**
     * Every transaction not in {@code processed}. Halts with {@code source_identity_mismatch} when
     * the set holds transactions the server never executed, and with {@code data_gap} when the
     * server already purged transactions outside it.
     */
    public BinlogStartPosition resumeFrom(GtidSet processed, String serverAddress) {
        BinlogStartPosition position = BinlogStartPosition.of(processed);
        ResumeCheck.check(position, executed, purged, serverAddress);
        return position;
    }

    /**
     * Both sets, on a connection of its own.
     *
     * @throws IllegalStateException when they cannot be read (scrubbed by {@link SqlErrors#scrub})
     */
    static ServerGtidState read(MySqlConnectionConfig config) {
        try (Connection c = JdbcConnections.open(config)) {
            return read(c);
        } catch (SQLException e) {
            IOException scrubbed =
                    SqlErrors.scrub(
                            "could not read gtid_executed/gtid_purged from " + config.address(), e);
            throw new IllegalStateException(scrubbed.getMessage(), scrubbed.getCause());
        }
    }

    /** Both sets in one query, on an open connection. */
    public static ServerGtidState read(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT @@global.gtid_executed, @@global.gtid_purged")) {
            rs.next();
            return new ServerGtidState(parse(rs.getString(1)), parse(rs.getString(2)));
        }
    }

    /** The server's {@code gtid_executed}, on an open connection. */
    public static GtidSet executed(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@global.gtid_executed")) {
            rs.next();
            return parse(rs.getString(1));
        }
    }

    /**
     * A GTID set as the server prints it (nullable): MySQL separates the UUIDs of a long set with
     * ",\n".
     */
    public static GtidSet parse(String text) {
        return GtidSet.parse(text == null ? "" : text.replace("\n", "").trim());
    }

    @Override
    public String toString() {
        return "ServerGtidState{executed=" + executed + ", purged=" + purged + "}";
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * Who answers at the configured address before a binlog connection: its {@code server_uuid}, its
 * {@code server_id} (which the binlog client reads on its own connection, so the two can be
 * matched) and its GTID state. Read once per connection attempt, in one statement, so a failover
 * behind the same address is seen. Identifiers and GTID sets are positions, not row values: they
 * may be logged.
 *
 * @param serverUuid {@code @@global.server_uuid}, or MariaDB's server identity ({@link
 *     ServerDialect})
 * @param serverId {@code @@global.server_id}
 * @param gtids {@code gtid_executed}, {@code gtid_purged} and the binary log files
 */
record ServerIdentity(String serverUuid, long serverId, ServerGtidState gtids) {

    ServerIdentity {
        Objects.requireNonNull(serverUuid, "serverUuid");
        Objects.requireNonNull(gtids, "gtids");
    }

    /**
     * Reads the identity on a connection of its own.
     *
     * @throws IOException when the server cannot be reached or read (scrubbed by {@link
     *     SqlErrors#scrub}): the caller treats it as a failed connection attempt
     * @throws CapstanHaltException {@code invalid_configuration} when the login is refused
     */
    static ServerIdentity read(MySqlConnectionConfig config) throws IOException {
        try (Connection c = JdbcConnections.open(config)) {
            String uuid;
            long id;
            try (Statement s = c.createStatement();
                    ResultSet rs =
                            s.executeQuery(
                                    "SELECT "
                                            + ServerDialect.of(c).serverIdentityExpression()
                                            + ", @@global.server_id")) {
                rs.next();
                uuid = ServerDialect.serverIdentity(rs.getString(1));
                id = rs.getLong(2);
            }
            return new ServerIdentity(uuid, id, ServerGtidState.read(c));
        } catch (SQLException e) {
            if (JdbcConnections.isAccessDenied(e)) {
                // A refused login does not pass by waiting: halt as the binlog client's refusal
                // does, instead of spending the reconnect budget.
                throw new CapstanHaltException(
                        HaltReason.INVALID_CONFIGURATION,
                        "the connector user was refused at "
                                + config.address()
                                + " before reconnecting the binlog (error "
                                + e.getErrorCode()
                                + "). Remedy: check the username and password (changed since the"
                                + " job started?) and the user's grants, then restart from the"
                                + " last checkpoint.",
                        null);
            }
            throw SqlErrors.scrub(
                    "could not read server_uuid, gtid_executed and gtid_purged from "
                            + config.address(),
                    e);
        }
    }
}

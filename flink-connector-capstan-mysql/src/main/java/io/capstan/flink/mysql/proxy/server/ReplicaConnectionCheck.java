package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.preflight.SnapshotServerRules;
import io.capstan.flink.mysql.snapshot.read.ChunkServerCheck;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The chunk connections of one reader on the snapshot's replica must all reach one GTID server: the
 * first connection pins its {@code server_uuid}, every later one (both sessions, every reconnect)
 * must show the same, else {@code snapshot_server_changed}. One round trip per connection, not per
 * chunk: a connection cannot move to another server.
 */
final class ReplicaConnectionCheck implements ChunkServerCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaConnectionCheck.class);

    private final String replicaAddress;
    private volatile String pinnedUuid;

    ReplicaConnectionCheck(String replicaAddress) {
        this.replicaAddress = replicaAddress;
    }

    @Override
    public void opened(Connection connection) throws SQLException {
        String uuid;
        String gtidMode;
        ServerDialect dialect = ServerDialect.of(connection);
        try (Statement st = connection.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT "
                                        + dialect.serverIdentityExpression()
                                        + ", "
                                        + dialect.gtidMode())) {
            rs.next();
            uuid = ServerDialect.serverIdentity(rs.getString(1));
            gtidMode = rs.getString(2);
        }
        if (pinnedUuid == null) {
            pinnedUuid = uuid;
            LOG.info(
                    "Reading the snapshot's chunks on the replica {} (server_uuid {})",
                    replicaAddress,
                    uuid);
        }
        SnapshotServerRules.requireSameServer(pinnedUuid, uuid, gtidMode, replicaAddress);
    }
}

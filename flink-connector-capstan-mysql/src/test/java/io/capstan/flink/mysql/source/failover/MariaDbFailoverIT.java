package io.capstan.flink.mysql.source.failover;

import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ReplicationSetup;

import org.junit.jupiter.api.Assumptions;

/**
 * {@link FailoverIT}'s failovers between two MariaDB servers in GTID strict mode, the replica with
 * {@code log_slave_updates}, the job started at the primary's MariaDB GTID position ({@code
 * gtid_binlog_pos}): it follows a promoted replica exactly, and halts by name on a replica that
 * missed delivered transactions or on the old primary after the new one took writes. MariaDB has no
 * server_uuid: a halt names the server by its server_id. Skipped without {@code
 * mariadb-server-core}.
 */
class MariaDbFailoverIT extends FailoverIT {

    private static final int PRIMARY_SERVER_ID = 1;
    private static final int REPLICA_SERVER_ID = 2;

    @Override
    protected MySqlServer startPrimary() {
        Assumptions.assumeTrue(MariaDbServer.isInstalled(), MariaDbServer.MISSING);
        return MariaDbServer.startForCapture(PRIMARY_SERVER_ID, "--gtid-strict-mode=ON");
    }

    @Override
    protected MySqlServer startReplica() {
        return MariaDbServer.startForCapture(
                REPLICA_SERVER_ID, "--gtid-strict-mode=ON", "--log-slave-updates=ON");
    }

    @Override
    protected String startPosition(MySqlServer server) {
        return ReplicationSetup.position(server);
    }

    @Override
    protected String haltDetail(MySqlServer server) {
        return "server_id " + server.queryStringAsRoot("SELECT @@global.server_id");
    }
}

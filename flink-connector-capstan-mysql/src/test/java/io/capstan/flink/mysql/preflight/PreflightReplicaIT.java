package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ReplicationSetup;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real server with {@code log_slave_updates=OFF} is refused exactly while it is a replica: its
 * binary log would lack every replicated change.
 */
class PreflightReplicaIT {

    @Test
    void aReplicaWithoutLogSlaveUpdatesIsRefusedByName() throws Exception {
        try (MySqlServer server =
                MySqlServer.startEmbedded(
                        ServerOptions.defaults().withFlag("--log-slave-updates=OFF"))) {
            MySqlConnectionConfig config = connectorConfig(server);
            Preflight.verify(config, List.of(), CaptureScope.BINLOG_ONLY); // no replica yet

            // A configured channel makes it a replica, started or not (here it names the server
            // itself, so it is never started).
            ReplicationSetup.configure(server, server);
            assertThatThrownBy(() -> Preflight.verify(config, List.of(), CaptureScope.BINLOG_ONLY))
                    .isInstanceOfSatisfying(
                            PreflightException.class,
                            e -> {
                                assertThat(e.failures())
                                        .singleElement()
                                        .satisfies(
                                                f -> {
                                                    assertThat(f.reason())
                                                            .isEqualTo(
                                                                    HaltReason
                                                                            .LOG_REPLICA_UPDATES_OFF);
                                                    assertThat(f.subject())
                                                            .isEqualTo("log_slave_updates");
                                                });
                                assertThat(e.getMessage())
                                        .contains("[log_replica_updates_off]", "my.cnf");
                            });

            server.executeAsRoot("RESET SLAVE ALL"); // promoted: no replica any more
            Preflight.verify(config, List.of(), CaptureScope.BINLOG_ONLY);
        }
    }
}

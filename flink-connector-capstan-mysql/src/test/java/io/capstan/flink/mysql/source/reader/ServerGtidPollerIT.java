package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.server.ServerJdbcProxy;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.time.Duration;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/** The poller behind processedGtidLag, against a real server, as the least-privileged user. */
class ServerGtidPollerIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static GtidSet executed() throws Exception {
        try (Connection c = JdbcConnections.open(connectorConfig(DB))) {
            return ServerGtidState.executed(c);
        }
    }

    @Test
    void followsTheServersExecutedSetAndStopsOnClose() throws Exception {
        DB.execute("CREATE TABLE polled (id INT PRIMARY KEY)");
        ServerGtidPoller poller =
                new ServerGtidPoller(
                        new ServerJdbcProxy(connectorConfig(DB)), Duration.ofMillis(100));
        try {
            GtidSet before = executed();
            SourceJobs.await(
                    "the first poll",
                    Duration.ofSeconds(10),
                    () -> poller.latest() != null && poller.latest().containsAll(before));
            DB.execute("INSERT INTO polled VALUES (1)", "INSERT INTO polled VALUES (2)");
            GtidSet after = executed();
            assertThat(after.subtract(before).transactionCount()).isEqualTo(2);
            SourceJobs.await(
                    "a poll after the commits",
                    Duration.ofSeconds(10),
                    () -> poller.latest().containsAll(after));
        } finally {
            poller.close();
        }
        assertThat(poller.stopped()).isTrue();
    }
}

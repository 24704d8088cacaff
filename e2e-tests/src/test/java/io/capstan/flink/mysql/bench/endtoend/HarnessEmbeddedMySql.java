package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The benchmark's embedded MySQL: an extra server of the connector's test harness (its own data
 * directory under target/, free port, safe replication defaults). Found by {@link
 * EmbeddedMySqlProvider#load()} through META-INF/services on the test classpath.
 */
public final class HarnessEmbeddedMySql implements EmbeddedMySqlProvider {

    @Override
    public Server start(String extraMysqldFlags) {
        MySqlServer server = MySqlServer.startEmbedded(ServerOptions.defaults().withFlag(extraMysqldFlags));
        return new Server() {
            @Override
            public Connection openRootConnection() throws SQLException {
                return server.openRootConnection();
            }

            @Override
            public MySqlConnectionConfig connectorConfig() {
                return server.connectorConfig();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}

package io.capstan.flink.mysql.testing;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import java.time.Duration;

/**
 * The connector's connection settings for a harness server's connector account. It lives in the
 * connector's tests because the harness ({@code capstan-mysql-testing}) must not depend on the
 * connector it serves.
 */
public final class ConnectorConfigs {

    private ConnectorConfigs() {}

    /** The least-privileged connector user on the database's server. */
    public static MySqlConnectionConfig connectorConfig(MySqlTestDatabase db) {
        return connectorConfig(db.connectorAccount());
    }

    /** The least-privileged connector user on the server. */
    public static MySqlConnectionConfig connectorConfig(MySqlServer server) {
        return connectorConfig(server.connectorAccount());
    }

    /** MariaDB's root on a test server, failing at once when it cannot connect. */
    public static MySqlConnectionConfig rootConfig(MariaDbServer server) {
        return connectorConfig(server.rootAccount()).toBuilder().maxRetries(0).build();
    }

    /** The connector's connection settings for this account. */
    public static MySqlConnectionConfig connectorConfig(MySqlAccount account) {
        return MySqlConnectionConfig.builder()
                .hostname(account.hostname())
                .port(account.port())
                .username(account.username())
                .password(account.password())
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }
}

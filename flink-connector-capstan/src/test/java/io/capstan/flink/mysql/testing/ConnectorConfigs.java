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
        return of(db.connectorAccount());
    }

    /** The least-privileged connector user on the server. */
    public static MySqlConnectionConfig connectorConfig(MySqlServer server) {
        return of(server.connectorAccount());
    }

    private static MySqlConnectionConfig of(MySqlAccount account) {
        return MySqlConnectionConfig.builder()
                .hostname(account.hostname())
                .port(account.port())
                .username(account.username())
                .password(account.password())
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }
}

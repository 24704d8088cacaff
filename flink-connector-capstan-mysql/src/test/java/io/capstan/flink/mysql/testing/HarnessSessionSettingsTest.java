package io.capstan.flink.mysql.testing;

import io.capstan.flink.mysql.connect.JdbcConnections;

import org.junit.jupiter.api.Test;

import java.util.Properties;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness ({@code capstan-mysql-testing}) cannot use the connector's classes, so {@link
 * MySqlAccount} keeps its own copy of the connector's JDBC driver properties; tests rely on it
 * reading values (time zone, zero dates, type mappings) exactly as the connector does. This test
 * keeps the copy equal to {@link JdbcConnections#properties} for the same account.
 */
class HarnessSessionSettingsTest {

    @Test
    void harnessConnectionsUseTheConnectorsDriverProperties() {
        MySqlAccount account = new MySqlAccount("db.example", 3307, "capstan", "not-a-secret");

        Properties harness = account.driverProperties();
        Properties connector =
                JdbcConnections.properties(ConnectorConfigs.connectorConfig(account));
        // Not a value setting: the harness's own statements (bulk loads, DDL on big tables) may
        // be silent for longer than the connector's calls.
        assertThat(connector.remove("socketTimeout")).isNotNull();

        assertThat(new TreeMap<>(harness)).isEqualTo(new TreeMap<>(connector));
    }
}

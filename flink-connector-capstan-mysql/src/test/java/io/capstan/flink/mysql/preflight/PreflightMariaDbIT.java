package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MariaDbServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real MariaDB server is refused as unsupported, and only for that: its GTIDs are not MySQL's, so
 * the settings rules would only add noise. Needs Debian's {@code mariadb-server-core}; without it
 * the test fails with the install command rather than skipping unnoticed.
 */
class PreflightMariaDbIT {

    private static final String PASSWORD = "Maria-Pw-4417-NeverPrinted";
    private static MariaDbServer server;

    @BeforeAll
    static void startMariaDb() throws Exception {
        if (!MariaDbServer.isInstalled()) {
            throw new IllegalStateException(MariaDbServer.MISSING);
        }
        server = MariaDbServer.start();
        try (Connection c = JdbcConnections.open(server.rootConfig());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE shop");
            st.execute("CREATE TABLE shop.orders (id BIGINT PRIMARY KEY)");
            st.execute("CREATE USER 'capstan'@'%' IDENTIFIED BY '" + PASSWORD + "'");
            st.execute(
                    "GRANT SELECT, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'capstan'@'%'");
        }
    }

    @AfterAll
    static void stopMariaDb() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void mariaDbIsRefusedAsUnsupported() throws Exception {
        MySqlConnectionConfig config =
                server.rootConfig().toBuilder().username("capstan").password(PASSWORD).build();

        PreflightException e = PreflightIT.refusal(config, List.of(TableId.of("shop", "orders")));

        assertThat(e.reason()).isEqualTo(HaltReason.UNSUPPORTED_SERVER_VERSION);
        assertThat(e.failures()).hasSize(1);
        assertThat(e.failures().get(0).found()).startsWith("MariaDB 10.").contains("not supported");
        assertThat(e.getMessage())
                .contains("[unsupported_server_version] server version: MariaDB")
                .contains("MySQL 8.0.11 or later")
                .doesNotContain(PASSWORD);
    }
}

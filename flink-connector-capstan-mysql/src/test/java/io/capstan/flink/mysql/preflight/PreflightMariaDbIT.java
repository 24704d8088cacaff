package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.ConnectorConfigs;
import io.capstan.flink.mysql.testing.MariaDbServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Preflight on a real MariaDB 10.11: a server configured as docs/operations.md (MariaDB) says, with
 * the least-privileged account, passes in position mode; one with mariadbd's defaults is refused
 * naming each setting with its MariaDB remedy; a missing grant is named with its GRANT statement.
 * Needs Debian's {@code mariadb-server-core}; without it the test fails with the install command
 * rather than skipping unnoticed.
 */
class PreflightMariaDbIT {

    /** Distinctive, so that a leak into any message is unmistakable. */
    private static final String PASSWORD = "Maria-Pw-4417-NeverPrinted";

    private static final List<TableId> TABLES =
            List.of(TableId.of("shop", "orders"), TableId.of("shop", "items"));

    private static MariaDbServer configured;
    private static MariaDbServer defaults;

    @BeforeAll
    static void startServers() throws Exception {
        if (!MariaDbServer.isInstalled()) {
            throw new IllegalStateException(MariaDbServer.MISSING);
        }
        configured =
                MariaDbServer.start(
                        List.of(
                                "--log-bin=mariadb-bin",
                                "--server-id=7",
                                "--binlog-format=ROW",
                                "--binlog-row-image=FULL",
                                "--binlog-row-metadata=FULL"));
        execute(
                configured,
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY)",
                "CREATE TABLE shop.items (id BIGINT PRIMARY KEY)",
                // the grants docs/operations.md (MariaDB) lists
                "CREATE USER 'capstan'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO 'capstan'@'%'",
                "GRANT SELECT, LOCK TABLES ON shop.* TO 'capstan'@'%'",
                // the table grants through a default role
                "CREATE ROLE capstan_reader",
                "GRANT SELECT, LOCK TABLES ON shop.* TO capstan_reader",
                "CREATE USER 'capstan_roles'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'capstan_roles'@'%'",
                "GRANT capstan_reader TO 'capstan_roles'@'%'",
                "SET DEFAULT ROLE capstan_reader FOR 'capstan_roles'@'%'",
                // neither BINLOG MONITOR nor LOCK TABLES
                "CREATE USER 'capstan_short'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT REPLICATION SLAVE ON *.* TO 'capstan_short'@'%'",
                "GRANT SELECT ON shop.* TO 'capstan_short'@'%'");
        defaults = MariaDbServer.start();
        execute(
                defaults,
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY)",
                "CREATE TABLE shop.items (id BIGINT PRIMARY KEY)",
                "SET GLOBAL log_bin_compress = ON");
    }

    private static void execute(MariaDbServer server, String... sql) throws SQLException {
        try (Connection c = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    @AfterAll
    static void stopServers() {
        if (configured != null) {
            configured.close();
        }
        if (defaults != null) {
            defaults.close();
        }
    }

    private static MySqlConnectionConfig as(MariaDbServer server, String user) {
        return ConnectorConfigs.rootConfig(server).toBuilder()
                .username(user)
                .password(PASSWORD)
                .build();
    }

    @Test
    void aConfiguredServerPassesForTheLeastPrivilegedAccountInPositionMode() throws Exception {
        for (String user : List.of("capstan", "capstan_roles")) {
            assertThatNoException()
                    .as(user)
                    .isThrownBy(
                            () ->
                                    Preflight.verify(
                                            as(configured, user),
                                            TABLES,
                                            CaptureScope.SNAPSHOT_AND_BINLOG));
        }
        try (Connection c = JdbcConnections.open(as(configured, "capstan"))) {
            ServerFacts facts = ServerFactsReader.read(c);
            assertThat(facts.version().isMariaDb()).isTrue();
            assertThat(facts.version().compareTo(MariaDbRules.MIN_MARIADB_VERSION)).isNotNegative();
            assertThat(PreflightRules.positionMode(facts)).isTrue();
            // SHOW ALL SLAVES STATUS is denied to the account: the fallback signs say "primary"
            assertThat(facts.isReplica()).isFalse();
            assertThat(facts.variable("log_bin_compress")).contains("OFF");
            assertThat(facts.variable("gtid_mode")).isEmpty();
        }
    }

    @Test
    void aServerWithMariaDbsDefaultsIsRefusedNamingEachSettingWithItsRemedy() throws Exception {
        PreflightException e = PreflightIT.refusal(ConnectorConfigs.rootConfig(defaults), TABLES);

        assertThat(e.failures())
                .extracting(PreflightFailure::reason)
                .containsExactly(
                        HaltReason.BINLOG_DISABLED,
                        HaltReason.BINLOG_FORMAT_NOT_ROW,
                        HaltReason.BINLOG_ROW_METADATA_NOT_FULL,
                        HaltReason.BINLOG_COMPRESSION_ON);
        assertThat(e.getMessage())
                .contains("[binlog_disabled] server ")
                .doesNotContain("MySQL server")
                .contains("under [mariadb] set 'log_bin = mariadb-bin'")
                .contains("binlog_format: is 'MIXED'", "SET GLOBAL binlog_format = ROW")
                .contains(
                        "binlog_row_metadata: is 'NO_LOG'",
                        "SET GLOBAL binlog_row_metadata = FULL",
                        "under [mariadb] 'binlog_row_metadata = FULL'")
                .contains("log_bin_compress: is 'ON'", "SET GLOBAL log_bin_compress = OFF")
                .doesNotContain("PERSIST", "[mysqld]", "gtid_mode", "enforce_gtid_consistency");
    }

    @Test
    void aMissingGrantIsNamedWithItsMariaDbGrantStatement() throws Exception {
        PreflightException e = PreflightIT.refusal(as(configured, "capstan_short"), TABLES);

        assertThat(e.failures())
                .extracting(PreflightFailure::remedy)
                .containsExactly(
                        "GRANT BINLOG MONITOR ON *.* TO 'capstan_short'@'%';",
                        "GRANT LOCK TABLES ON `shop`.* TO 'capstan_short'@'%';");
        assertThat(e.reason()).isEqualTo(HaltReason.MISSING_PRIVILEGE);
        // SHOW GRANTS prints the account's password hash: never in a message
        assertThat(e.getMessage())
                .doesNotContain(PASSWORD, "PASSWORD")
                .doesNotContainPattern("\\*[0-9A-F]{40}");
    }
}

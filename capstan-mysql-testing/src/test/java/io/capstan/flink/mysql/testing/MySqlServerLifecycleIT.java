package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Extra servers, restart in place, deliberately misconfigured servers and binlog purging. One extra
 * default server serves the independence, restart and purge checks to keep this fast.
 */
class MySqlServerLifecycleIT {

    private static MySqlServer extra;

    @BeforeAll
    static void startExtraServer() {
        extra = MySqlServer.startEmbedded(ServerOptions.defaults());
    }

    @AfterAll
    static void stopExtraServer() {
        if (extra != null) {
            extra.close();
        }
    }

    @Test
    void extraServerIsIndependentOfTheSharedOne() {
        MySqlServer shared = MySqlServer.shared();
        assertThat(extra.isEmbedded()).isTrue();
        assertThat(extra.port()).isNotEqualTo(shared.port());
        assertThat(extra.serverUuid()).isNotEqualTo(shared.serverUuid());
        assertThat(extra.queryStringAsRoot("SELECT @@global.server_id"))
                .isNotEqualTo(shared.queryStringAsRoot("SELECT @@global.server_id"));

        extra.executeAsRoot("CREATE DATABASE only_on_extra");
        assertThat(
                        shared.queryStringAsRoot(
                                "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'only_on_extra'"))
                .isEqualTo("0");
        extra.executeAsRoot("DROP DATABASE only_on_extra");
    }

    @Test
    void restartKeepsPortDataAndGtids() {
        extra.executeAsRoot(
                "CREATE DATABASE restart_db",
                "CREATE TABLE restart_db.t (id INT PRIMARY KEY)",
                "INSERT INTO restart_db.t VALUES (1), (2), (3)");
        int port = extra.port();
        String uuid = extra.serverUuid();
        String gtids = extra.gtidExecuted();
        assertThat(gtids).startsWith(uuid + ":");

        extra.restart();

        assertThat(extra.port()).isEqualTo(port);
        assertThat(extra.serverUuid()).isEqualTo(uuid);
        assertThat(extra.gtidExecuted()).isEqualTo(gtids);
        assertThat(extra.queryStringAsRoot("SELECT COUNT(*) FROM restart_db.t")).isEqualTo("3");
        extra.executeAsRoot("DROP DATABASE restart_db");
    }

    @Test
    void purgeBinaryLogsMovesOldGtidsToGtidPurged() {
        extra.executeAsRoot(
                "CREATE DATABASE purge_db", "CREATE TABLE purge_db.t (id INT PRIMARY KEY)");
        for (int i = 0; i < 5; i++) {
            extra.executeAsRoot("INSERT INTO purge_db.t VALUES (" + i + ")");
        }
        String executedBefore = extra.gtidExecuted();
        String oldestBinlogBefore = extra.queryStringAsRoot("SHOW BINARY LOGS");

        extra.purgeBinaryLogs();

        assertThat(extra.queryStringAsRoot("SHOW BINARY LOGS")).isNotEqualTo(oldestBinlogBefore);
        assertThat(extra.gtidPurged()).isEqualTo(executedBefore);
        assertThat(extra.gtidExecuted()).isEqualTo(executedBefore);
        extra.executeAsRoot("DROP DATABASE purge_db");
    }

    @Test
    void misconfiguredServerReportsEachBadSetting() throws SQLException {
        ServerOptions bad =
                ServerOptions.defaults()
                        .withFlag("--disable-log-bin")
                        .withFlag("--binlog-format=STATEMENT")
                        .withFlag("--gtid-mode=OFF --enforce-gtid-consistency=OFF")
                        .withFlag("--binlog-row-image=MINIMAL")
                        .withFlag("--binlog-row-metadata=MINIMAL");
        MySqlServer server = MySqlServer.startEmbedded(bad);
        Path socketDir;
        try {
            assertThat(server.queryStringAsRoot("SELECT @@global.log_bin")).isEqualTo("0");
            assertThat(server.queryStringAsRoot("SELECT @@global.binlog_format"))
                    .isEqualTo("STATEMENT");
            assertThat(server.queryStringAsRoot("SELECT @@global.gtid_mode")).isEqualTo("OFF");
            assertThat(server.queryStringAsRoot("SELECT @@global.enforce_gtid_consistency"))
                    .isEqualTo("OFF");
            assertThat(server.queryStringAsRoot("SELECT @@global.binlog_row_image"))
                    .isEqualTo("MINIMAL");
            assertThat(server.queryStringAsRoot("SELECT @@global.binlog_row_metadata"))
                    .isEqualTo("MINIMAL");
            // the connector account exists on every server the harness starts
            try (Connection c = server.connectorAccount().open()) {
                assertThat(c.isValid(5)).isTrue();
            }
            socketDir = Paths.get(server.queryStringAsRoot("SELECT @@global.socket")).getParent();
            assertThat(socketDir).isDirectory();
        } finally {
            server.close();
        }
        assertThatThrownBy(server::openRootConnection).isInstanceOf(SQLException.class);
        assertThat(Files.exists(socketDir))
                .as("the socket directory is deleted with its server")
                .isFalse();
    }
}

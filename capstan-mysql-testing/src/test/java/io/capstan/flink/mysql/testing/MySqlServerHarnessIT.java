package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The shared server, its accounts and the per-class database behave as the harness promises. */
class MySqlServerHarnessIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @Test
    void sharedServerHasGtidsAndFullRowBinlog() {
        MySqlServer server = DB.server();
        assertThat(server.queryStringAsRoot("SELECT @@global.gtid_mode")).isEqualTo("ON");
        assertThat(server.queryStringAsRoot("SELECT @@global.enforce_gtid_consistency"))
                .isEqualTo("ON");
        assertThat(server.queryStringAsRoot("SELECT @@global.log_bin")).isEqualTo("1");
        assertThat(server.queryStringAsRoot("SELECT @@global.binlog_format")).isEqualTo("ROW");
        assertThat(server.queryStringAsRoot("SELECT @@global.binlog_row_image")).isEqualTo("FULL");
        assertThat(server.queryStringAsRoot("SELECT @@global.binlog_row_metadata"))
                .isEqualTo("FULL");
    }

    @Test
    void connectorUserHasExactlyTheFourPrivilegesAndTheDefaultPlugin() throws SQLException {
        MySqlServer server = DB.server();
        List<String> grants = new ArrayList<>();
        try (Connection c = server.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SHOW GRANTS FOR '"
                                        + server.connectorAccount().username()
                                        + "'@'%'")) {
            while (rs.next()) {
                grants.add(rs.getString(1));
            }
        }
        assertThat(grants)
                .containsExactly(
                        "GRANT SELECT, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `"
                                + server.connectorAccount().username()
                                + "`@`%`");
        String plugin =
                server.queryStringAsRoot(
                        "SELECT plugin FROM mysql.user WHERE user = '"
                                + server.connectorAccount().username()
                                + "'");
        assertThat(plugin)
                .isEqualTo(
                        server.queryStringAsRoot("SELECT @@global.default_authentication_plugin"))
                .isEqualTo("caching_sha2_password");
    }

    @Test
    void connectorAccountConnects() throws SQLException {
        try (Connection c = DB.connectorAccount().open();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(DB.server().connectorAccount().username() + "@%");
        }
    }

    @Test
    void embeddedServerSocketIsOnAShortPrivatePath() {
        MySqlServer server = DB.server();
        Assumptions.assumeTrue(
                server.isEmbedded(), "only embedded servers have a socket the harness places");
        String socket = server.queryStringAsRoot("SELECT @@global.socket");
        // Unix socket paths hold at most 107 bytes, however deep the checkout is
        assertThat(socket).startsWith("/tmp/capstan-").endsWith("/mysqld.sock");
        assertThat(socket.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThan(108);
    }

    @Test
    void testDatabaseIsFreshAndTheDefaultSchema() throws SQLException {
        assertThat(DB.name()).startsWith("mysqlserverharnessit_");
        DB.execute(
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO t VALUES (1, 'a')");
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void eachTestDatabaseIsUniqueAndDroppedAfterItsClass() {
        MySqlTestDatabase other = new MySqlTestDatabase();
        assertThat(other.name()).isNotEqualTo(DB.name()).startsWith("mysqlserverharnessit_");
        String exists =
                "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '"
                        + other.name()
                        + "'";
        other.beforeAll(null);
        assertThat(DB.server().queryStringAsRoot(exists)).isEqualTo("1");
        other.afterAll(null);
        assertThat(DB.server().queryStringAsRoot(exists)).isEqualTo("0");
    }
}

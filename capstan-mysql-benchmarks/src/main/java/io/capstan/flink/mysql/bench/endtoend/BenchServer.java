package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The one MySQL server of a benchmark run: an extra embedded MySQL 8.0 of the test harness ({@link
 * MySqlServer#startEmbedded}, with a buffer pool big enough to hold the table, so scans measure the
 * read path, not the disk), or the user's server from {@code --mysql-url}.
 *
 * <p>{@link #openAdmin()} creates the data; {@link #reader()} is what every measured reader uses,
 * ours and the limits alike (the least-privileged connector account on the embedded server, the
 * URL's account otherwise). The password never appears in {@link #toString()}.
 */
public final class BenchServer implements AutoCloseable {

    private final MySqlServer embedded;
    private final MySqlConnectionConfig
            admin; // null for the embedded server: its root connection is used
    private final MySqlConnectionConfig reader;

    private BenchServer(
            MySqlServer embedded, MySqlConnectionConfig admin, MySqlConnectionConfig reader) {
        this.embedded = embedded;
        this.admin = admin;
        this.reader = reader;
    }

    static BenchServer start(BenchOptions options) {
        SslMode ssl = SslMode.valueOf(options.sslMode);
        if (options.mysqlUrl != null) {
            MySqlConnectionConfig c = parseUrl(options.mysqlUrl).toBuilder().sslMode(ssl).build();
            return new BenchServer(null, c, c);
        }
        return startEmbedded(ssl, !options.withoutGtids);
    }

    /** An embedded MySQL 8.0 with a buffer pool that holds the table; readers use {@code ssl}. */
    static BenchServer startEmbedded(SslMode ssl) {
        return startEmbedded(ssl, true);
    }

    /**
     * As {@link #startEmbedded(SslMode)}, with {@code gtid_mode} ON or, without {@code gtids}, OFF
     * (the connector then runs on binlog positions, docs/adr/0012).
     */
    static BenchServer startEmbedded(SslMode ssl, boolean gtids) {
        ServerOptions options =
                ServerOptions.defaults()
                        .withFlag(
                                "--innodb-buffer-pool-size=1G --innodb-log-file-size=256M --max-allowed-packet=256M");
        if (!gtids) {
            options = options.withFlag("--gtid-mode=OFF --enforce-gtid-consistency=OFF");
        }
        MySqlServer server = MySqlServer.startEmbedded(options);
        return new BenchServer(server, null, connectorConfig(server, ssl));
    }

    /**
     * The least-privileged connector account of a harness server, as the connector's settings, in
     * the given TLS mode (also what the perf probes read with).
     */
    public static MySqlConnectionConfig connectorConfig(MySqlServer server, SslMode sslMode) {
        MySqlAccount account = server.connectorAccount();
        return config(account.hostname(), account.port(), account.username(), account.password())
                .toBuilder()
                .sslMode(sslMode)
                .build();
    }

    MySqlConnectionConfig reader() {
        return reader;
    }

    /** Root on the embedded server, the URL's account otherwise: creates and changes the data. */
    Connection openAdmin() throws SQLException {
        return embedded != null ? embedded.openRootConnection() : JdbcConnections.open(admin);
    }

    Connection openReader() throws SQLException {
        return JdbcConnections.open(reader);
    }

    String query(String sql) {
        try (Connection c = openAdmin();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "query failed on " + this + " (" + e.getMessage() + ")", e);
        }
    }

    void execute(String... sql) {
        try (Connection c = openAdmin();
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "statement failed on " + this + " (" + e.getMessage() + ")", e);
        }
    }

    boolean isEmbedded() {
        return embedded != null;
    }

    String description() {
        return (embedded != null ? "embedded MySQL " : "MySQL ")
                + query("SELECT VERSION()")
                + " at "
                + reader.address();
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }

    @Override
    public String toString() {
        return (embedded != null ? "embedded " : "") + "MySQL " + reader.address();
    }

    private static MySqlConnectionConfig parseUrl(String value) {
        String expected = "--mysql-url must look like mysql://USER:PASSWORD@HOST:PORT";
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(expected + " (it is not a valid URI)");
        }
        if (!"mysql".equalsIgnoreCase(uri.getScheme())
                || uri.getHost() == null
                || uri.getRawUserInfo() == null) {
            throw new IllegalArgumentException(expected);
        }
        String info = uri.getRawUserInfo();
        int colon = info.indexOf(':');
        String user = decode(colon < 0 ? info : info.substring(0, colon));
        String password = colon < 0 ? "" : decode(info.substring(colon + 1));
        return config(uri.getHost(), uri.getPort() < 0 ? 3306 : uri.getPort(), user, password);
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

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}

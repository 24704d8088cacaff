package io.capstan.flink.mysql.connect;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Opens JDBC connections to the configured server with the session settings every capstan
 * connection relies on.
 *
 * <p>The session time zone is UTC so that TIMESTAMP columns read as UTC wall-clock values, which is
 * what the binlog carries; values therefore never depend on the server's or the JVM's zone. Zero
 * dates read as NULL, as they do from the binlog.
 */
@Internal
public final class JdbcConnections {

    /**
     * The driver, used directly rather than through {@code DriverManager}: DriverManager ignores a
     * driver loaded by a child class loader (a jar added to a SQL session with {@code ADD JAR}).
     * Created on first use, so that a missing Connector/J fails each attempt with {@link
     * ConnectorJ#MISSING} rather than once in a static initialiser.
     */
    private static Driver driver;

    private JdbcConnections() {}

    /** The driver URL, without credentials (safe to log). */
    public static String url(MySqlConnectionConfig config) {
        return "jdbc:mysql://" + config.hostname() + ":" + config.port() + "/";
    }

    /** The driver properties, credentials included: never log the result. */
    public static Properties properties(MySqlConnectionConfig config) {
        Properties p = new Properties();
        p.setProperty("user", config.username());
        p.setProperty("password", config.password());
        p.setProperty("sslMode", config.sslMode().name());
        // caching_sha2_password over plain TCP needs the server's RSA key.
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("connectTimeout", Long.toString(config.connectTimeout().toMillis()));
        // Without it a reply lost to a dead network (no reset) is awaited until the OS's
        // keepalive gives up, hours later. A user's jdbc.properties.socketTimeout arrives here as
        // connect.socket-timeout (CapstanSourceConfig), so the locking connection's minimum holds.
        p.setProperty("socketTimeout", Long.toString(config.socketTimeout().toMillis()));
        p.setProperty("connectionTimeZone", "UTC");
        p.setProperty("forceConnectionTimeZoneToSession", "true");
        p.setProperty("zeroDateTimeBehavior", "CONVERT_TO_NULL");
        p.setProperty("tinyInt1isBit", "false");
        p.setProperty("yearIsDateType", "false");
        p.setProperty("characterEncoding", "UTF-8");
        p.setProperty("useUnicode", "true");
        for (Map.Entry<String, String> e : config.jdbcProperties().entrySet()) {
            p.setProperty(e.getKey(), e.getValue());
        }
        return p;
    }

    /**
     * Opens a connection, retrying transient failures with capped exponential backoff up to {@link
     * MySqlConnectionConfig#maxRetries()} times.
     */
    public static Connection open(MySqlConnectionConfig config) throws SQLException {
        SQLException last = null;
        long backoffMillis = 200;
        for (int attempt = 0; attempt <= config.maxRetries(); attempt++) {
            try {
                Connection connection = driver().connect(url(config), properties(config));
                if (connection == null) {
                    throw new SQLException("the MySQL driver did not accept " + url(config));
                }
                return connection;
            } catch (SQLException e) {
                if (isAccessDenied(e)) {
                    throw e; // wrong credentials do not get better by retrying
                }
                last = e;
            }
            if (attempt < config.maxRetries()) {
                sleep(backoffMillis);
                backoffMillis = Math.min(backoffMillis * 2, 10_000);
            }
        }
        throw last;
    }

    private static synchronized Driver driver() {
        if (driver == null) {
            driver = ConnectorJ.newDriver();
        }
        return driver;
    }

    /**
     * Closes the connection (nullable), ignoring a failure: it is being dropped, typically because
     * it is broken, and closing the session also releases its locks.
     */
    public static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already broken
            }
        }
    }

    /**
     * Aborts the connection (nullable) at once, from any thread: unlike {@link Connection#close()},
     * which waits for a statement in flight on another thread, this closes the socket, so that call
     * fails now. The server ends the session (and releases its locks) when it sees the socket
     * closed.
     */
    public static void abortQuietly(Connection c) {
        if (c != null) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // already broken
            }
        }
    }

    /** Whether the server refused the login (wrong credentials), which retrying cannot mend. */
    public static boolean isAccessDenied(SQLException e) {
        // 1045 ER_ACCESS_DENIED_ERROR, 1044 ER_DBACCESS_DENIED_ERROR
        return e.getErrorCode() == 1045
                || e.getErrorCode() == 1044
                || String.valueOf(e.getSQLState()).toUpperCase(Locale.ROOT).startsWith("28");
    }

    private static void sleep(long millis) throws SQLException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to reconnect", e);
        }
    }
}

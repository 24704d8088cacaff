package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * Where a test server is and whom to log in as: the harness's own description of an account, so
 * that it needs none of the connector's classes. The accessor names match the connector's {@code
 * MySqlConnectionConfig}; tests turn one into the other where they call the connector.
 *
 * @param hostname host name or address of the server
 * @param port TCP port of the server
 * @param username account name
 * @param password account password; never printed by {@link #toString()}
 */
public record MySqlAccount(String hostname, int port, String username, String password) {

    /**
     * Transient failures (a server still starting, a dropped TCP handshake) get this many retries.
     */
    private static final int RETRIES = 2;

    /**
     * The driver used directly rather than through {@code DriverManager}, as the connector does: a
     * second, older driver on a test classpath must not be picked instead.
     */
    private static final Driver DRIVER = newDriver();

    /** A plain JDBC connection with the same session settings the connector's connections use. */
    public Connection open() throws SQLException {
        SQLException last = null;
        long backoffMillis = 200;
        for (int attempt = 0; attempt <= RETRIES; attempt++) {
            try {
                Connection c = DRIVER.connect(url(), driverProperties());
                if (c == null) {
                    throw new SQLException("the MySQL driver did not accept " + url());
                }
                return c;
            } catch (SQLException e) {
                if (isAccessDenied(e)) {
                    throw e; // wrong credentials do not get better by retrying
                }
                last = e;
            }
            if (attempt < RETRIES) {
                sleep(backoffMillis);
                backoffMillis *= 2;
            }
        }
        throw last;
    }

    private String url() {
        return "jdbc:mysql://" + hostname + ":" + port + "/";
    }

    /**
     * The driver properties of {@link #open()}, credentials included (never log the result): UTC
     * session time zone, zero dates as NULL and the driver's type mappings exactly as the connector
     * sets them, so that values a test reads as root compare equal to what the connector emits. The
     * connector's tests compare them with the connector's own properties for this account, so the
     * two cannot drift apart.
     */
    public Properties driverProperties() {
        Properties p = new Properties();
        p.setProperty("user", username);
        p.setProperty("password", password);
        p.setProperty("sslMode", "PREFERRED");
        // caching_sha2_password over plain TCP needs the server's RSA key.
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("connectTimeout", "10000");
        p.setProperty("connectionTimeZone", "UTC");
        p.setProperty("forceConnectionTimeZoneToSession", "true");
        p.setProperty("zeroDateTimeBehavior", "CONVERT_TO_NULL");
        p.setProperty("tinyInt1isBit", "false");
        p.setProperty("yearIsDateType", "false");
        p.setProperty("characterEncoding", "UTF-8");
        p.setProperty("useUnicode", "true");
        return p;
    }

    private static boolean isAccessDenied(SQLException e) {
        // 1045 ER_ACCESS_DENIED_ERROR, 1044 ER_DBACCESS_DENIED_ERROR
        return e.getErrorCode() == 1045
                || e.getErrorCode() == 1044
                || String.valueOf(e.getSQLState()).toUpperCase(Locale.ROOT).startsWith("28");
    }

    private static Driver newDriver() {
        try {
            return new com.mysql.cj.jdbc.Driver();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the MySQL JDBC driver", e);
        }
    }

    private static void sleep(long millis) throws SQLException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to reconnect", e);
        }
    }

    @Override
    public String toString() {
        return username + "@" + hostname + ":" + port;
    }
}

package io.capstan.flink.mysql.e2e.testframe;

import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlServer;

import org.apache.flink.connector.testframe.TestResource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The external system of the suite: the harness's real MySQL server ({@link MySqlServer#shared()},
 * never a container started by the framework) with one database for the whole suite, dropped at the
 * end. Every test case gets its own table prefix in that database, so cases never see each other's
 * tables.
 */
public final class MySqlExternalSystem implements TestResource {

    private final String database =
            "testframe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private final AtomicInteger nextContext = new AtomicInteger();
    private MySqlServer server;

    @Override
    public void startUp() {
        server = MySqlServer.shared();
        server.executeAsRoot("CREATE DATABASE `" + database + "`");
    }

    @Override
    public void tearDown() {
        if (server != null) {
            server.executeAsRoot("DROP DATABASE IF EXISTS `" + database + "`");
        }
    }

    public String database() {
        return database;
    }

    /** A table prefix no other test case of this suite uses. */
    String newTablePrefix() {
        return "c" + nextContext.getAndIncrement();
    }

    /** The least-privileged connector account the source connects with. */
    MySqlAccount connectorAccount() {
        return server().connectorAccount();
    }

    /** {@code @@global.gtid_executed}: everything committed so far. */
    String gtidExecuted() {
        return server().gtidExecuted();
    }

    /** A root connection whose default schema is the suite's database (the test's writes). */
    Connection openRootConnection() throws SQLException {
        Connection c = server().openRootConnection();
        try (Statement s = c.createStatement()) {
            s.execute("USE `" + database + "`");
        }
        return c;
    }

    private MySqlServer server() {
        if (server == null) {
            throw new IllegalStateException("MySqlExternalSystem is used before startUp()");
        }
        return server;
    }

    @Override
    public String toString() {
        return "MySQL " + database;
    }
}

package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * GTID replication between two test servers of the same kind, MySQL or MariaDB (told apart by
 * {@code VERSION()}): the replica follows the primary by GTID, as a failover topology does. Plain
 * JDBC as root.
 *
 * <p>On MySQL, with the 8.0.15 statement names ({@code CHANGE MASTER TO}, {@code START SLAVE};
 * 8.0.22+ also accept the {@code REPLICA} forms, 8.4 only those), by auto-position; start the
 * replica with {@code --log-slave-updates=ON} (the 8.0 default) for its binary log to carry the
 * primary's transactions.
 *
 * <p>On MariaDB, by {@code MASTER_USE_GTID = slave_pos}; start both servers with {@link
 * MariaDbServer#startForCapture} (empty GTID history) and the replica with {@code
 * --log-slave-updates=ON} (off by default on MariaDB). A server's position is then its {@code
 * gtid_binlog_pos} ({@link #position}).
 */
public final class ReplicationSetup {

    private ReplicationSetup() {}

    /** Makes {@code replica} a replica of {@code primary} by GTID, not started. */
    public static void configure(MySqlServer primary, MySqlServer replica) {
        MySqlAccount source = primary.rootAccount();
        String channel =
                "CHANGE MASTER TO MASTER_HOST = '"
                        + source.hostname()
                        + "', MASTER_PORT = "
                        + source.port()
                        + ", MASTER_USER = '"
                        + quote(source.username())
                        + "', MASTER_PASSWORD = '"
                        + quote(source.password());
        if (replica.isMariaDb()) {
            replica.executeAsRoot(channel + "', MASTER_USE_GTID = slave_pos");
        } else {
            replica.executeAsRoot(
                    channel
                            // caching_sha2_password over plain TCP needs the server's RSA key
                            + "', MASTER_AUTO_POSITION = 1, GET_MASTER_PUBLIC_KEY = 1");
        }
    }

    /** {@link #configure}, then starts replication. */
    public static void start(MySqlServer primary, MySqlServer replica) {
        configure(primary, replica);
        replica.executeAsRoot("START SLAVE");
    }

    /** Stops applying the primary's transactions; the channel stays configured. */
    public static void stop(MySqlServer replica) {
        replica.executeAsRoot("STOP SLAVE");
    }

    /**
     * Promotes a replica to primary: replication stopped and forgotten, writes allowed. What an
     * operator (or an orchestrator) does at failover.
     */
    public static void promote(MySqlServer replica) {
        if (replica.isMariaDb()) {
            // MariaDB 10.11 has no super_read_only
            replica.executeAsRoot("STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF");
        } else {
            replica.executeAsRoot(
                    "STOP SLAVE",
                    "RESET SLAVE ALL",
                    "SET GLOBAL super_read_only = OFF",
                    "SET GLOBAL read_only = OFF");
        }
    }

    /**
     * The server's GTID position as the connector's GTID start option takes it: MySQL's {@code
     * gtid_executed} (a GTID set), MariaDB's {@code gtid_binlog_pos} (the last GTID of each domain
     * in its binary log, e.g. {@code 0-1-7}).
     */
    public static String position(MySqlServer server) {
        return server.isMariaDb()
                ? server.queryStringAsRoot("SELECT @@global.gtid_binlog_pos")
                : server.gtidExecuted();
    }

    /**
     * Waits until the replica has executed every transaction the primary has now.
     *
     * @throws IllegalStateException when it has not within {@code timeout}
     */
    public static void awaitCaughtUp(MySqlServer primary, MySqlServer replica, Duration timeout) {
        if (replica.isMariaDb()) {
            awaitCaughtUpMariaDb(primary, replica, timeout);
            return;
        }
        String wanted = primary.gtidExecuted();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Connection c = replica.openRootConnection();
                PreparedStatement st =
                        c.prepareStatement("SELECT GTID_SUBSET(?, @@global.gtid_executed)")) {
            st.setString(1, wanted);
            while (true) {
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) == 1) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw notCaughtUp(replica, wanted, timeout);
                }
                Thread.sleep(50);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the replica's GTID state", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the replica", e);
        }
    }

    /**
     * MASTER_GTID_WAIT returns 0 once the replica's applied position ({@code gtid_slave_pos}) has
     * reached the given sequence number in each of its domains, -1 at the timeout.
     */
    private static void awaitCaughtUpMariaDb(
            MySqlServer primary, MySqlServer replica, Duration timeout) {
        String wanted = position(primary);
        try (Connection c = replica.openRootConnection();
                PreparedStatement st = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
            st.setString(1, wanted);
            st.setDouble(2, timeout.toMillis() / 1000.0);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != 0) {
                    throw notCaughtUp(replica, wanted, timeout);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the replica's GTID state", e);
        }
    }

    private static IllegalStateException notCaughtUp(
            MySqlServer replica, String wanted, Duration timeout) {
        return new IllegalStateException(
                "the replica "
                        + replica
                        + " did not execute "
                        + wanted
                        + " within "
                        + timeout
                        + "; it has "
                        + position(replica));
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("'", "''");
    }
}

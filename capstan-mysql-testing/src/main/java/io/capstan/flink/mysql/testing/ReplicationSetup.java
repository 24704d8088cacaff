package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * GTID replication between two test servers, with the MySQL 8.0.15 statement names ({@code CHANGE
 * MASTER TO}, {@code START SLAVE}; 8.0.22+ also accept the {@code REPLICA} forms, 8.4 only those):
 * the replica follows the primary by auto-position, as a failover topology does. Plain JDBC as
 * root; start the replica with {@code --log-slave-updates=ON} (the 8.0 default) for its binary log
 * to carry the primary's transactions.
 */
public final class ReplicationSetup {

    private ReplicationSetup() {}

    /** Makes {@code replica} a replica of {@code primary} by GTID auto-position, not started. */
    public static void configure(MySqlServer primary, MySqlServer replica) {
        MySqlAccount source = primary.rootAccount();
        replica.executeAsRoot(
                "CHANGE MASTER TO MASTER_HOST = '"
                        + source.hostname()
                        + "', MASTER_PORT = "
                        + source.port()
                        + ", MASTER_USER = '"
                        + quote(source.username())
                        + "', MASTER_PASSWORD = '"
                        + quote(source.password())
                        // caching_sha2_password over plain TCP needs the server's RSA key
                        + "', MASTER_AUTO_POSITION = 1, GET_MASTER_PUBLIC_KEY = 1");
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
        replica.executeAsRoot(
                "STOP SLAVE",
                "RESET SLAVE ALL",
                "SET GLOBAL super_read_only = OFF",
                "SET GLOBAL read_only = OFF");
    }

    /**
     * Waits until the replica has executed every transaction the primary has now.
     *
     * @throws IllegalStateException when it has not within {@code timeout}
     */
    public static void awaitCaughtUp(MySqlServer primary, MySqlServer replica, Duration timeout) {
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
                    throw new IllegalStateException(
                            "the replica "
                                    + replica
                                    + " did not execute "
                                    + wanted
                                    + " within "
                                    + timeout
                                    + "; it has "
                                    + replica.gtidExecuted());
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

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("'", "''");
    }
}

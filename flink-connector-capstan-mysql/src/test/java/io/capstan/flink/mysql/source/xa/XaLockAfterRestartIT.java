package io.capstan.flink.mysql.source.xa;

import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server behaviour ADR 0008 rests on, across a server restart: a prepared XA transaction the
 * server recovered still makes the snapshot's {@code LOCK TABLES … READ} wait until its outcome, so
 * no chunk of its table can be read between its prepare and its commit. If a server stopped doing
 * so, the commit of an XID prepared before a snapshot's handoff would not be in the chunks, and
 * this test fails first.
 */
class XaLockAfterRestartIT {

    private static MySqlServer server;

    @BeforeAll
    static void startServer() {
        server = MySqlServer.startEmbedded(ServerOptions.defaults());
        server.executeAsRoot(
                "CREATE DATABASE xarestart", "CREATE TABLE xarestart.t (id INT PRIMARY KEY)");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRecoveredPreparedTransactionStillHoldsOffTheSnapshotLock() throws Exception {
        try (Connection c = server.openRootConnection();
                Statement s = c.createStatement()) {
            s.execute("XA START 'restart-1'");
            s.execute("INSERT INTO xarestart.t VALUES (1)");
            s.execute("XA END 'restart-1'");
            s.execute("XA PREPARE 'restart-1'");
        }
        server.restart();

        try (Connection c = server.openRootConnection();
                Statement s = c.createStatement()) {
            assertThat(recovered(s)).as("the prepared transaction survived the restart").isTrue();
            s.execute("SET SESSION lock_wait_timeout = 2");
            assertThatThrownBy(() -> s.execute("LOCK TABLES xarestart.t READ"))
                    .as("the snapshot's lock waits for the recovered transaction")
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Lock wait timeout");

            s.execute("XA COMMIT 'restart-1'");
            s.execute("LOCK TABLES xarestart.t READ");
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM xarestart.t")) {
                r.next();
                assertThat(r.getInt(1)).as("the lock taken after the commit sees its row").isOne();
            }
            s.execute("UNLOCK TABLES");
        }
    }

    private static boolean recovered(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("XA RECOVER")) {
            while (r.next()) {
                if ("restart-1".equals(r.getString("data"))) {
                    return true;
                }
            }
            return false;
        }
    }
}

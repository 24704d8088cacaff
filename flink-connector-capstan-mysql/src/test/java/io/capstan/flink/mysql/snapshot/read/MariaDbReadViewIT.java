package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.binlog.BinlogFiles;
import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.ConnectorConfigs;
import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chunk's read view on a real MariaDB (Debian's {@code mariadbd}): G is the position axis of the
 * server's own identity, every position before {@code SHOW MASTER STATUS}'s under the lock, and the
 * bounded wait for the metadata lock (a DDL queued behind the table lock) gives up as a statement
 * timeout instead of waiting for the lock holder, which waits for it.
 */
class MariaDbReadViewIT {

    @RegisterExtension
    static final MySqlTestDatabase DB =
            MySqlTestDatabase.onServerOfItsOwn(() -> MariaDbServer.startForCapture(31));

    private MySqlConnectionConfig multiStatements() {
        return ConnectorConfigs.connectorConfig(DB).toBuilder()
                .jdbcProperty("allowMultiQueries", "true")
                .build();
    }

    @Test
    void theReadViewUnderTheLockIsEveryPositionBeforeTheServersCurrentOne() throws Exception {
        DB.execute("CREATE TABLE rv (id INT PRIMARY KEY, v INT)", "INSERT INTO rv VALUES (1, 1)");
        TableId table = new TableId(DB.name(), "rv");
        try (Connection a = JdbcConnections.open(ConnectorConfigs.connectorConfig(DB));
                Connection b = JdbcConnections.open(multiStatements());
                Statement lock = a.createStatement()) {
            lock.execute("LOCK TABLES " + table.quoted() + " READ");
            BinlogFiles files = ServerGtidState.read(b).files();
            assertThat(files).as("MariaDB runs on positions").isNotNull();
            ReadView view = ReadViewStatements.open(b, table);
            assertThat(view.gtidSet()).isEqualTo(files.written());
            assertThat(BinlogPositionAxis.isPositionSet(view.gtidSet())).isTrue();
            assertThat(view.definition()).contains("CREATE TABLE");
            lock.execute("UNLOCK TABLES");
        }
    }

    @Test
    void aDdlQueuedBehindTheLockMakesTheReadViewGiveUpAsAStatementTimeout() throws Exception {
        DB.execute("CREATE TABLE queued (id INT PRIMARY KEY)");
        TableId table = new TableId(DB.name(), "queued");
        // root (the ALTER's) is closed last: its close waits for the ALTER, which waits for A
        try (Connection root = DB.openRootConnection();
                Connection a = JdbcConnections.open(ConnectorConfigs.connectorConfig(DB));
                Connection b = JdbcConnections.open(multiStatements());
                Statement lock = a.createStatement()) {
            lock.execute("LOCK TABLES " + table.quoted() + " READ");
            CompletableFuture<Void> ddl =
                    CompletableFuture.runAsync(
                            () -> {
                                try (Statement s = root.createStatement()) {
                                    s.execute("ALTER TABLE queued ADD COLUMN z INT");
                                } catch (SQLException e) {
                                    throw new IllegalStateException(e);
                                }
                            });
            try {
                Thread.sleep(500); // the ALTER now waits for A's lock, ahead of B
                long started = System.nanoTime();
                assertThatThrownBy(() -> ReadViewStatements.open(b, table))
                        .isInstanceOfSatisfying(
                                SQLException.class,
                                e ->
                                        assertThat(SqlErrors.isStatementTimeout(e))
                                                .as(
                                                        "a statement timeout: error %s",
                                                        e.getErrorCode())
                                                .isTrue());
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                        .as("gave up after its patience, not the server's lock_wait_timeout")
                        .isLessThan(10_000);
            } finally {
                lock.execute("UNLOCK TABLES");
                ddl.get(30, TimeUnit.SECONDS);
            }
        }
    }
}

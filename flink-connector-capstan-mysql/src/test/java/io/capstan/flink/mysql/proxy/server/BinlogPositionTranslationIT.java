package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A binlog file and position translated on a real server: the GTID set equals the server's {@code
 * gtid_executed} at the moment {@code SHOW MASTER STATUS} gave that position, whether the position
 * is still the file's end or later transactions follow it; a position inside a transaction halts
 * ({@code invalid_start_position}), a file the server does not have halts ({@code data_gap}).
 */
class BinlogPositionTranslationIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private record Status(String file, long pos, GtidSet executed) {}

    private static Status masterStatus() throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            return new Status(
                    rs.getString("File"),
                    rs.getLong("Position"),
                    GtidSet.parse(rs.getString("Executed_Gtid_Set").replaceAll("\\s", "")));
        }
    }

    private static MySqlConnectionConfig connection() {
        MySqlAccount a = DB.connectorAccount();
        return MySqlConnectionConfig.builder()
                .hostname(a.hostname())
                .port(a.port())
                .username(a.username())
                .password(a.password())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static GtidSet translate(String file, long pos) throws Exception {
        try (ServerJdbcProxy proxy = new ServerJdbcProxy(connection())) {
            return proxy.gtidSetBefore(file, pos);
        }
    }

    @Test
    void aPositionFromShowMasterStatusIsTheGtidSetExecutedThen() throws Exception {
        DB.execute(
                "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO t VALUES (1, 1)",
                "INSERT INTO t VALUES (2, 2)");
        Status first = masterStatus();
        assertThat(translate(first.file(), first.pos())).isEqualTo(first.executed());

        DB.execute("INSERT INTO t VALUES (3, 3)", "UPDATE t SET v = 9 WHERE id = 1");
        Status second = masterStatus();
        assertThat(second.file()).isEqualTo(first.file());
        assertThat(second.executed()).isNotEqualTo(first.executed());
        // the first position now starts the next transaction; the second is the file's end
        assertThat(translate(first.file(), first.pos())).isEqualTo(first.executed());
        assertThat(translate(second.file(), second.pos())).isEqualTo(second.executed());
    }

    /** Position 4, a file's start (mysql-cdc's examples use it): the file's Previous-GTIDs. */
    @Test
    void positionFourIsTheStartOfTheFile() throws Exception {
        DB.execute("FLUSH BINARY LOGS");
        Status atStart = masterStatus();
        DB.execute("CREATE TABLE w (id INT PRIMARY KEY)", "INSERT INTO w VALUES (1)");
        assertThat(translate(atStart.file(), 4)).isEqualTo(atStart.executed());
        assertThat(translate(atStart.file(), atStart.pos())).isEqualTo(atStart.executed());
    }

    @Test
    void aPositionInsideATransactionOrAFileTheServerLacksIsRefused() throws Exception {
        DB.execute("CREATE TABLE u (id INT PRIMARY KEY)", "INSERT INTO u VALUES (1)");
        Status status = masterStatus();
        long insideTransaction = -1;
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW BINLOG EVENTS IN '" + status.file() + "'")) {
            while (rs.next()) {
                if (rs.getString("Event_type").equals("Table_map")) {
                    insideTransaction = rs.getLong("Pos");
                }
            }
        }
        assertThat(insideTransaction).isPositive();
        long inside = insideTransaction;
        assertThatThrownBy(() -> translate(status.file(), inside))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_START_POSITION))
                .hasMessageContaining("inside a transaction")
                .hasMessageContaining("scan.startup.specific-offset.gtid-set");
        assertThatThrownBy(() -> translate("binlog.999999", 4))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP))
                .hasMessageContaining("not on the server any more");
    }
}

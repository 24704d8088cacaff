package io.capstan.flink.mysql.connect;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerDialectTest {

    @Test
    void aMySqlServerUuidIsTheIdentityAsItIs() throws SQLException {
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        assertThat(ServerDialect.serverIdentity(uuid)).isEqualTo(uuid);
    }

    @Test
    void aMariaDbIdentityIsANameBasedUuidOfServerIdAndBinlogBaseName() throws SQLException {
        String a = ServerDialect.serverIdentity("mariadb:7:/var/lib/mysql/mariadb-bin");
        assertThat(UUID.fromString(a).version()).isEqualTo(3);
        assertThat(ServerDialect.serverIdentity("mariadb:7:/var/lib/mysql/mariadb-bin"))
                .as("stable")
                .isEqualTo(a);
        assertThat(ServerDialect.serverIdentity("mariadb:8:/var/lib/mysql/mariadb-bin"))
                .as("a promoted replica has another server_id")
                .isNotEqualTo(a);
        assertThat(ServerDialect.serverIdentity("mariadb:7:/data/other-bin"))
                .as("another binary log")
                .isNotEqualTo(a);
    }

    @Test
    void aMissingIdentityFailsAsARead() {
        assertThatThrownBy(() -> ServerDialect.serverIdentity(null))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("binary log is off");
    }

    @Test
    void mariaDbReadsItsBinlogStateAndRunsOnGtidsOnlyUnderStrictMode() {
        assertThat(ServerDialect.MARIADB.gtidExecuted()).isEqualTo("@@global.gtid_binlog_state");
        assertThat(ServerDialect.MARIADB.gtidPurged()).isEqualTo("''");
        assertThat(ServerDialect.MARIADB.gtidMode())
                .contains("@@global.gtid_strict_mode")
                .contains(ServerDialect.MARIADB_STRICT_GTID_MODE, ServerDialect.MARIADB_GTID_MODE);
        assertThat(ServerDialect.gtidsOn(ServerDialect.MARIADB_STRICT_GTID_MODE)).isTrue();
        assertThat(ServerDialect.gtidsOn(ServerDialect.MARIADB_GTID_MODE)).isFalse();
        assertThat(ServerDialect.isMariaDb(ServerDialect.MARIADB_GTID_MODE)).isTrue();
        assertThat(ServerDialect.isMariaDb("ON")).isFalse();
        assertThat(ServerDialect.MARIADB.gtidSet("0-1-5,0-2-9"))
                .isEqualTo(MariaDbGtidAxes.ofState("0-2-9,0-1-5"));
        assertThat(ServerDialect.MYSQL.gtidSet(null)).isEqualTo(GtidSet.empty());
        assertThat(ServerDialect.MYSQL.serverIdentityExpression())
                .isEqualTo("@@global.server_uuid");
    }

    @Test
    void theBoundedTouchUsesEachServersOwnStatementTimeout() {
        assertThat(ServerDialect.MYSQL.boundedTableTouch("`d`.`t`", Duration.ofMillis(100)))
                .isEqualTo("SELECT /*+ MAX_EXECUTION_TIME(100) */ 1 FROM `d`.`t` LIMIT 0");
        // MariaDB ignores MySQL's optimizer hints: only its own statement timeout bounds the wait
        assertThat(ServerDialect.MARIADB.boundedTableTouch("`d`.`t`", Duration.ofMillis(100)))
                .isEqualTo(
                        "SET STATEMENT max_statement_time = 0.100 FOR SELECT 1 FROM `d`.`t` LIMIT"
                                + " 0");
    }
}

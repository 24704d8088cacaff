package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link PreflightRules} on MariaDB: position mode, MariaDB's settings, grants and syntax. */
class PreflightRulesMariaDbTest {

    private static final ServerVersion MARIADB_10_11 =
            ServerVersion.parse("10.11.19-MariaDB-0+deb12u1-log", "Debian 12");
    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final TableId ITEMS = TableId.of("shop", "items");
    private static final String[] LEAST_PRIVILEGE = {
        "GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO `capstan`@`%` IDENTIFIED BY PASSWORD"
                + " '*7648E52EC79D4BB879B7B913F0B8BBF8DC4AB6CC'",
        "GRANT SELECT, LOCK TABLES ON `shop`.* TO `capstan`@`%`"
    };

    /** What a well-configured MariaDB 10.11 shows: no gtid_mode, no MySQL-only variables. */
    private static Map<String, String> safeVariables() {
        Map<String, String> v = new HashMap<>();
        v.put("log_bin", "ON");
        v.put("binlog_format", "ROW");
        v.put("binlog_row_image", "FULL");
        v.put("binlog_row_metadata", "FULL");
        v.put("log_bin_compress", "OFF");
        v.put("log_slave_updates", "OFF");
        v.put("lower_case_table_names", "0");
        return v;
    }

    private static ServerFacts facts(
            ServerVersion version, Map<String, String> v, boolean replica, String... grants) {
        return new ServerFacts(
                version,
                v,
                new AccountPrivileges(
                        "capstan", "%", GrantParser.parseAll(List.of(grants)), true, false),
                replica);
    }

    private static List<PreflightFailure> check(Map<String, String> v, String... grants) {
        return PreflightRules.check(
                facts(MARIADB_10_11, v, false, grants),
                List.of(ORDERS, ITEMS),
                CaptureScope.SNAPSHOT_AND_BINLOG);
    }

    private static PreflightFailure single(List<PreflightFailure> failures, HaltReason reason) {
        assertThat(failures).extracting(PreflightFailure::reason).containsExactly(reason);
        return failures.get(0);
    }

    private static List<PreflightFailure> withVariable(String name, String value) {
        Map<String, String> v = safeVariables();
        v.put(name, value);
        return check(v, LEAST_PRIVILEGE);
    }

    @Test
    void aWellConfiguredMariaDbWithTheLeastPrivilegedAccountPassesInPositionMode() {
        assertThat(check(safeVariables(), LEAST_PRIVILEGE)).isEmpty();
        assertThat(check(safeVariables(), "GRANT ALL PRIVILEGES ON *.* TO `capstan`@`%`"))
                .isEmpty();
        ServerFacts facts = facts(MARIADB_10_11, safeVariables(), false, LEAST_PRIVILEGE);
        assertThat(PreflightRules.positionMode(facts)).isTrue();
        Map<String, String> strict = new HashMap<>(safeVariables());
        strict.put("gtid_strict_mode", "ON");
        assertThat(
                        PreflightRules.positionMode(
                                facts(MARIADB_10_11, strict, false, LEAST_PRIVILEGE)))
                .as("gtid_strict_mode = ON: on MariaDB's GTIDs")
                .isFalse();
        for (ServerVersion v :
                List.of(ServerVersion.mariaDb(10, 11, 0), ServerVersion.mariaDb(11, 4, 2))) {
            assertThat(
                            PreflightRules.check(
                                    facts(v, safeVariables(), false, LEAST_PRIVILEGE),
                                    List.of(ORDERS),
                                    CaptureScope.SNAPSHOT_AND_BINLOG))
                    .isEmpty();
        }
    }

    @Test
    void mariaDbBefore1011IsUnsupportedNamingTheFirstSupportedVersion() {
        PreflightFailure f =
                single(
                        PreflightRules.check(
                                facts(ServerVersion.parse("10.6.16-MariaDB", ""), Map.of(), false),
                                List.of(ORDERS),
                                CaptureScope.SNAPSHOT_AND_BINLOG),
                        HaltReason.UNSUPPORTED_SERVER_VERSION);
        assertThat(f.found()).contains("MariaDB 10.6.16", "10.11");
        assertThat(f.remedy()).contains("MariaDB 10.11 or later").doesNotContain("MySQL");
    }

    @Test
    void binlogDisabledNamesMariaDbsConfigSection() {
        PreflightFailure f = single(withVariable("log_bin", "OFF"), HaltReason.BINLOG_DISABLED);
        assertThat(f.remedy()).contains("[mariadb]", "log_bin", "server_id", "restart mariadbd");
        assertThat(f.remedy()).doesNotContain("[mysqld]", "PERSIST");
    }

    @Test
    void binlogFormatAndRowImageNeedRowAndFull() {
        PreflightFailure format =
                single(withVariable("binlog_format", "MIXED"), HaltReason.BINLOG_FORMAT_NOT_ROW);
        assertThat(format.found()).contains("'MIXED'", "ROW");
        assertThat(format.remedy())
                .contains("SET GLOBAL binlog_format = ROW", "[mariadb]", "'binlog_format = ROW'")
                .doesNotContain("PERSIST");
        PreflightFailure image =
                single(
                        withVariable("binlog_row_image", "MINIMAL"),
                        HaltReason.BINLOG_ROW_IMAGE_NOT_FULL);
        assertThat(image.remedy()).contains("SET GLOBAL binlog_row_image = FULL", "[mariadb]");
    }

    @Test
    void rowMetadataDefaultNoLogIsRefusedWithSetGlobalAndTheConfigLine() {
        PreflightFailure f =
                single(
                        withVariable("binlog_row_metadata", "NO_LOG"),
                        HaltReason.BINLOG_ROW_METADATA_NOT_FULL);
        assertThat(f.subject()).isEqualTo("binlog_row_metadata");
        assertThat(f.found()).contains("'NO_LOG'", "FULL");
        assertThat(f.remedy())
                .contains(
                        "SET GLOBAL binlog_row_metadata = FULL",
                        "under [mariadb] 'binlog_row_metadata = FULL'",
                        "survives a restart")
                .doesNotContain("SET PERSIST");
    }

    @Test
    void compressedBinlogIsRefused() {
        PreflightFailure f =
                single(withVariable("log_bin_compress", "ON"), HaltReason.BINLOG_COMPRESSION_ON);
        assertThat(f.subject()).isEqualTo("log_bin_compress");
        assertThat(f.found()).contains("'ON'", "OFF");
        assertThat(f.remedy()).contains("SET GLOBAL log_bin_compress = OFF", "[mariadb]");
    }

    @Test
    void unreadableSettingsFailClosed() {
        Map<String, String> v = new HashMap<>();
        v.put("lower_case_table_names", "0");
        assertThat(check(v, LEAST_PRIVILEGE))
                .extracting(PreflightFailure::reason)
                .containsExactly(
                        HaltReason.BINLOG_DISABLED,
                        HaltReason.BINLOG_FORMAT_NOT_ROW,
                        HaltReason.BINLOG_ROW_IMAGE_NOT_FULL,
                        HaltReason.BINLOG_ROW_METADATA_NOT_FULL,
                        HaltReason.BINLOG_COMPRESSION_ON);
    }

    @Test
    void mySqlOnlyRulesStaySilent() {
        // what a MySQL server would be refused for must not be asked of MariaDB
        Map<String, String> v = safeVariables();
        v.put("gtid_executed", "3E11FA47-71CA-11E1-9E33-C80AA9429562:tag:1-5");
        assertThat(check(v, LEAST_PRIVILEGE)).isEmpty();
    }

    @Test
    void aReplicaNeedsLogSlaveUpdatesInMariaDbsSyntax() {
        ServerFacts replica = facts(MARIADB_10_11, safeVariables(), true, LEAST_PRIVILEGE);
        PreflightFailure f =
                single(
                        PreflightRules.check(
                                replica, List.of(ORDERS), CaptureScope.SNAPSHOT_AND_BINLOG),
                        HaltReason.LOG_REPLICA_UPDATES_OFF);
        assertThat(f.subject()).isEqualTo("log_slave_updates");
        assertThat(f.remedy())
                .contains("'log_slave_updates = ON'", "[mariadb]", "restart mariadbd")
                .doesNotContain("PERSIST", "[mysqld]", "log_replica_updates");
        Map<String, String> on = safeVariables();
        on.put("log_slave_updates", "ON");
        assertThat(
                        PreflightRules.check(
                                facts(MARIADB_10_11, on, true, LEAST_PRIVILEGE),
                                List.of(ORDERS),
                                CaptureScope.SNAPSHOT_AND_BINLOG))
                .isEmpty();
    }

    @Test
    void binlogMonitorIsAlsoGrantedByItsOldNameOrBySuper() {
        for (String global :
                List.of(
                        "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `capstan`@`%`",
                        "GRANT SUPER, REPLICATION SLAVE ON *.* TO `capstan`@`%`")) {
            assertThat(check(safeVariables(), global, LEAST_PRIVILEGE[1])).isEmpty();
        }
    }

    @Test
    void missingGrantsAreNamedWithTheMariaDbGrantStatement() {
        List<PreflightFailure> failures =
                check(safeVariables(), "GRANT USAGE ON *.* TO `capstan`@`%`");
        assertThat(failures)
                .extracting(PreflightFailure::remedy)
                .containsExactly(
                        "GRANT REPLICATION SLAVE ON *.* TO 'capstan'@'%';",
                        "GRANT BINLOG MONITOR ON *.* TO 'capstan'@'%';",
                        "GRANT SELECT ON `shop`.`items` TO 'capstan'@'%';",
                        "GRANT SELECT ON `shop`.`orders` TO 'capstan'@'%';",
                        "GRANT LOCK TABLES ON `shop`.* TO 'capstan'@'%';");
        assertThat(failures)
                .extracting(PreflightFailure::reason)
                .containsOnly(HaltReason.MISSING_PRIVILEGE);
        // RELOAD is never asked for
        assertThat(failures).noneMatch(f -> f.describe().contains("RELOAD"));
    }

    @Test
    void privilegesFromRolesCount() {
        // MariaDB's SHOW GRANTS, with the default role active: the role's grants follow
        List<PreflightFailure> failures =
                check(
                        safeVariables(),
                        "GRANT `capstan_role` TO `capstan`@`%`",
                        "GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO `capstan`@`%`",
                        "SET DEFAULT ROLE `capstan_role` FOR `capstan`@`%`",
                        "GRANT USAGE ON *.* TO `capstan_role`",
                        "GRANT SELECT, LOCK TABLES ON `shop`.* TO `capstan_role`");
        assertThat(failures).isEmpty();
    }

    @Test
    void thePasswordHashNeverReachesAMessage() {
        ServerFacts facts =
                facts(MARIADB_10_11, safeVariables(), false, LEAST_PRIVILEGE[0], "GRANT USAGE");
        List<PreflightFailure> failures =
                PreflightRules.check(facts, List.of(ORDERS), CaptureScope.SNAPSHOT_AND_BINLOG);
        PreflightException e = new PreflightException("db.example:3306", failures);
        assertThat(e.getMessage()).doesNotContain("7648E52E", "PASSWORD");
        assertThat(facts.toString()).doesNotContain("7648E52E", "PASSWORD");
    }
}

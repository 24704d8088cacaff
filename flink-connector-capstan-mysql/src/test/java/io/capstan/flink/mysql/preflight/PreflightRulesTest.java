package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class PreflightRulesTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final TableId ITEMS = TableId.of("shop", "items");
    private static final String CONNECTOR_GRANT =
            "GRANT SELECT, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `capstan`@`%`";

    private static Map<String, String> safeVariables() {
        Map<String, String> v = new HashMap<>();
        v.put("log_bin", "ON");
        v.put("binlog_format", "ROW");
        v.put("binlog_row_image", "FULL");
        v.put("binlog_row_metadata", "FULL");
        v.put("binlog_row_value_options", "");
        v.put("gtid_mode", "ON");
        v.put("enforce_gtid_consistency", "ON");
        v.put("partial_revokes", "OFF");
        v.put("lower_case_table_names", "0");
        return v;
    }

    private static ServerFacts facts(
            ServerVersion version, Map<String, String> variables, String... grantLines) {
        return new ServerFacts(
                version,
                variables,
                new AccountPrivileges(
                        "capstan", "%", GrantParser.parseAll(List.of(grantLines)), true, false));
    }

    private static ServerFacts withVariable(String name, String value) {
        Map<String, String> v = safeVariables();
        v.put(name, value);
        return facts(ServerVersion.mysql(8, 0, 15), v, CONNECTOR_GRANT);
    }

    private static List<PreflightFailure> check(ServerFacts facts) {
        return PreflightRules.check(
                facts, List.of(ORDERS, ITEMS), CaptureScope.SNAPSHOT_AND_BINLOG);
    }

    private static PreflightFailure single(List<PreflightFailure> failures, HaltReason reason) {
        assertThat(failures).extracting(PreflightFailure::reason).containsExactly(reason);
        return failures.get(0);
    }

    @Test
    void safeServerAndLeastPrivilegedAccountPass() {
        for (ServerVersion v :
                List.of(
                        ServerVersion.mysql(8, 0, 11),
                        ServerVersion.mysql(8, 0, 15),
                        ServerVersion.mysql(8, 4, 3),
                        ServerVersion.mysql(9, 1, 0))) {
            assertThat(check(facts(v, safeVariables(), CONNECTOR_GRANT))).isEmpty();
        }
    }

    @Test
    void binlogDisabled() {
        PreflightFailure f =
                single(check(withVariable("log_bin", "OFF")), HaltReason.BINLOG_DISABLED);
        assertThat(f.subject()).isEqualTo("log_bin");
        assertThat(f.found()).contains("'OFF'");
        assertThat(f.remedy()).contains("log_bin = binlog").contains("restart");
    }

    @Test
    void binlogFormatNotRow() {
        PreflightFailure f =
                single(
                        check(withVariable("binlog_format", "STATEMENT")),
                        HaltReason.BINLOG_FORMAT_NOT_ROW);
        assertThat(f.found()).isEqualTo("is 'STATEMENT', must be ROW");
        assertThat(f.remedy()).startsWith("SET PERSIST binlog_format = 'ROW';");
        single(check(withVariable("binlog_format", "MIXED")), HaltReason.BINLOG_FORMAT_NOT_ROW);
    }

    @Test
    void rowImageNotFull() {
        PreflightFailure f =
                single(
                        check(withVariable("binlog_row_image", "MINIMAL")),
                        HaltReason.BINLOG_ROW_IMAGE_NOT_FULL);
        assertThat(f.remedy()).isEqualTo("SET PERSIST binlog_row_image = 'FULL';");
        single(
                check(withVariable("binlog_row_image", "NOBLOB")),
                HaltReason.BINLOG_ROW_IMAGE_NOT_FULL);
    }

    @Test
    void rowMetadataNotFull() {
        PreflightFailure f =
                single(
                        check(withVariable("binlog_row_metadata", "MINIMAL")),
                        HaltReason.BINLOG_ROW_METADATA_NOT_FULL);
        assertThat(f.remedy()).isEqualTo("SET PERSIST binlog_row_metadata = 'FULL';");
    }

    @Test
    void rowValueOptionsSet() {
        PreflightFailure f =
                single(
                        check(withVariable("binlog_row_value_options", "PARTIAL_JSON")),
                        HaltReason.BINLOG_ROW_VALUE_OPTIONS_SET);
        assertThat(f.found()).contains("'PARTIAL_JSON'").contains("partial JSON");
        assertThat(f.remedy()).isEqualTo("SET PERSIST binlog_row_value_options = '';");
    }

    @Test
    void aServerWithoutGtidsRunsOnPositionsWhateverItsConsistencySetting() {
        for (String mode : List.of("OFF", "OFF_PERMISSIVE", "ON_PERMISSIVE")) {
            Map<String, String> v = safeVariables();
            v.put("gtid_mode", mode);
            v.put("enforce_gtid_consistency", "OFF");
            ServerFacts facts = facts(ServerVersion.mysql(8, 0, 15), v, CONNECTOR_GRANT);
            assertThat(check(facts)).as(mode).isEmpty();
            assertThat(PreflightRules.positionMode(facts)).as(mode).isTrue();
        }
        assertThat(PreflightRules.positionMode(withVariable("gtid_mode", "ON"))).isFalse();
    }

    @Test
    void theWayToGtidsGivesTheStepsFromTheCurrentMode() {
        assertThat(PreflightRules.gtidModeRemedy("OFF_PERMISSIVE", true))
                .doesNotContain("gtid_mode = OFF_PERMISSIVE")
                .contains("SET PERSIST gtid_mode = ON_PERMISSIVE;")
                .contains("SET PERSIST gtid_mode = ON;")
                .doesNotContain("enforce_gtid_consistency = ON;");
        assertThat(PreflightRules.gtidModeRemedy("ON_PERMISSIVE", true))
                .doesNotContain("ON_PERMISSIVE;")
                .contains("Ongoing_anonymous_transaction_count")
                .contains("SET PERSIST gtid_mode = ON;");
        assertThat(PreflightRules.gtidModeRemedy("OFF", false))
                .startsWith(
                        "SET PERSIST enforce_gtid_consistency = ON; SET PERSIST gtid_mode ="
                                + " OFF_PERMISSIVE; SET PERSIST gtid_mode = ON_PERMISSIVE;");
    }

    @Test
    void enforceGtidConsistencyNotOn() {
        PreflightFailure f =
                single(
                        check(withVariable("enforce_gtid_consistency", "WARN")),
                        HaltReason.ENFORCE_GTID_CONSISTENCY_NOT_ON);
        assertThat(f.found()).isEqualTo("is 'WARN', must be ON");
        assertThat(f.remedy()).contains("SET PERSIST enforce_gtid_consistency = ON;");
    }

    @Test
    void missingVariablesFailExceptTheDeprecatedBinlogFormat() {
        Map<String, String> v = safeVariables();
        v.remove("binlog_row_metadata");
        v.remove("binlog_format");
        PreflightFailure f =
                single(
                        check(facts(ServerVersion.mysql(9, 0, 0), v, CONNECTOR_GRANT)),
                        HaltReason.BINLOG_ROW_METADATA_NOT_FULL);
        assertThat(f.found()).contains("not a variable of this server");
    }

    @Test
    void missingGlobalPrivilegesAreNamedWithTheirGrant() {
        List<PreflightFailure> failures =
                check(
                        facts(
                                ServerVersion.mysql(8, 0, 15),
                                safeVariables(),
                                "GRANT SELECT, LOCK TABLES ON *.* TO `capstan`@`%`"));
        assertThat(failures)
                .extracting(PreflightFailure::reason)
                .containsOnly(HaltReason.MISSING_PRIVILEGE);
        assertThat(failures)
                .extracting(PreflightFailure::remedy)
                .containsExactly(
                        "GRANT REPLICATION SLAVE ON *.* TO 'capstan'@'%';",
                        "GRANT REPLICATION CLIENT ON *.* TO 'capstan'@'%';");
    }

    @Test
    void missingSelectIsPerTableAndLockTablesPerSchema() {
        List<PreflightFailure> failures =
                check(
                        facts(
                                ServerVersion.mysql(8, 4, 0),
                                safeVariables(),
                                "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `capstan`@`%`",
                                "GRANT SELECT ON `shop`.`orders` TO `capstan`@`%`"));
        assertThat(failures)
                .extracting(PreflightFailure::subject)
                .containsExactly("table shop.items", "schema shop (tables items, orders)");
        assertThat(failures)
                .extracting(PreflightFailure::remedy)
                .containsExactly(
                        "GRANT SELECT ON `shop`.`items` TO 'capstan'@'%';",
                        "GRANT LOCK TABLES ON `shop`.* TO 'capstan'@'%';");
    }

    @Test
    void mySql57AndUnverifiedMajorsAreUnsupported() {
        single(
                check(
                        facts(
                                ServerVersion.parse("5.7.44-log", ""),
                                safeVariables(),
                                CONNECTOR_GRANT)),
                HaltReason.UNSUPPORTED_SERVER_VERSION);
        single(
                check(facts(ServerVersion.mysql(8, 0, 10), safeVariables(), CONNECTOR_GRANT)),
                HaltReason.UNSUPPORTED_SERVER_VERSION);
        single(
                check(facts(ServerVersion.mysql(10, 0, 0), safeVariables(), CONNECTOR_GRANT)),
                HaltReason.UNSUPPORTED_SERVER_VERSION);
    }

    @Test
    void everyFailureIsReportedTogether() {
        Map<String, String> v = new HashMap<>();
        v.put("log_bin", "OFF");
        v.put("binlog_format", "MIXED");
        v.put("binlog_row_image", "MINIMAL");
        v.put("binlog_row_metadata", "MINIMAL");
        v.put("binlog_row_value_options", "PARTIAL_JSON");
        v.put("gtid_mode", "ON");
        v.put("enforce_gtid_consistency", "OFF");
        List<PreflightFailure> failures =
                check(
                        facts(
                                ServerVersion.mysql(8, 0, 15),
                                v,
                                "GRANT USAGE ON *.* TO `capstan`@`%`"));
        Set<HaltReason> reasons =
                failures.stream().map(PreflightFailure::reason).collect(Collectors.toSet());
        Set<HaltReason> preflightReasons =
                EnumSet.range(HaltReason.BINLOG_DISABLED, HaltReason.MISSING_PRIVILEGE);
        preflightReasons.remove(HaltReason.GTID_MODE_NOT_ON); // gtid_mode OFF: position mode
        assertThat(reasons).isEqualTo(preflightReasons);
        // 6 settings + 2 global privileges + SELECT on 2 tables + LOCK TABLES on 1 schema
        assertThat(failures).hasSize(11);

        PreflightException e = new PreflightException("db.example:3306", failures);
        assertThat(e.reason()).isEqualTo(HaltReason.BINLOG_DISABLED);
        assertThat(e.failures()).isEqualTo(failures);
        assertThat(e.getMessage().lines())
                .hasSize(12)
                .first()
                .asString()
                .startsWith("[binlog_disabled] server db.example:3306 is not safe");
        for (PreflightFailure f : failures) {
            assertThat(e.getMessage()).contains(f.describe());
        }
    }

    @Test
    void lockTablesIsRequiredOnlyWhereASnapshotIsRead() {
        ServerFacts noLock =
                facts(
                        ServerVersion.mysql(8, 0, 15),
                        safeVariables(),
                        "GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `capstan`@`%`");
        List<TableId> tables = List.of(ORDERS, ITEMS);
        assertThat(PreflightRules.check(noLock, tables, CaptureScope.BINLOG_ONLY)).isEmpty();
        assertThat(
                        single(
                                        PreflightRules.check(
                                                noLock, tables, CaptureScope.SNAPSHOT_AND_BINLOG),
                                        HaltReason.MISSING_PRIVILEGE)
                                .remedy())
                .isEqualTo("GRANT LOCK TABLES ON `shop`.* TO 'capstan'@'%';");
    }

    // ---- a replica source and tagged GTIDs ----

    private static ServerFacts replica(Map<String, String> variables) {
        return new ServerFacts(
                ServerVersion.mysql(8, 0, 15),
                variables,
                facts(ServerVersion.mysql(8, 0, 15), variables, CONNECTOR_GRANT).privileges(),
                true);
    }

    @Test
    void aReplicaWithoutLogSlaveUpdatesIsRefusedByName() {
        Map<String, String> v = safeVariables();
        v.put("log_slave_updates", "OFF");
        PreflightFailure f = single(check(replica(v)), HaltReason.LOG_REPLICA_UPDATES_OFF);
        assertThat(f.subject()).isEqualTo("log_slave_updates");
        assertThat(f.found()).contains("'OFF'", "replica");
        assertThat(f.remedy())
                .contains("read-only", "'log_slave_updates = ON' in my.cnf", "restart");

        // the same setting on a server that replicates from nobody is fine
        assertThat(check(facts(ServerVersion.mysql(8, 0, 15), v, CONNECTOR_GRANT))).isEmpty();
        v.put("log_slave_updates", "ON");
        assertThat(check(replica(v))).isEmpty();
    }

    @Test
    void aReplicaIsJudgedByTheNewNameWhereTheServerHasIt() {
        Map<String, String> v = safeVariables();
        v.put("log_slave_updates", "ON"); // the deprecated alias, if a server still showed it
        v.put("log_replica_updates", "OFF");
        PreflightFailure f = single(check(replica(v)), HaltReason.LOG_REPLICA_UPDATES_OFF);
        assertThat(f.subject()).isEqualTo("log_replica_updates");
        assertThat(f.remedy()).contains("'log_replica_updates = ON' in my.cnf");
    }

    @Test
    void taggedGtidsAreRefusedByNameWithTheirTags() {
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        PreflightFailure f =
                single(
                        check(
                                withVariable(
                                        "gtid_executed",
                                        uuid
                                                + ":1-100:etl:1-5,\n"
                                                + uuid.replace('3', '4')
                                                + ":1-3:audit_2:7")),
                        HaltReason.TAGGED_GTIDS_UNSUPPORTED);
        assertThat(f.found()).contains("audit_2, etl");
        assertThat(f.remedy()).contains("AUTOMATIC:<tag>");

        assertThat(
                        check(
                                withVariable(
                                        "gtid_executed",
                                        uuid + ":1-100,\n" + uuid.replace('3', '4') + ":7")))
                .isEmpty();
        assertThat(check(withVariable("gtid_executed", ""))).isEmpty();
    }
}

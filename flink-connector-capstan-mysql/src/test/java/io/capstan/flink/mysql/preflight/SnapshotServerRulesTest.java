package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotServerRulesTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final String PRIMARY_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String REPLICA_UUID = "4f22fb58-82db-22f2-af44-d91bb0530673";
    private static final GtidSet PRIMARY = GtidSet.parse(PRIMARY_UUID + ":1-100");

    /** A read-only replica without a binlog: nothing the binlog needs is asked of it. */
    private static ServerFacts replica(String gtidMode, String executed, String grant) {
        Map<String, String> v = new HashMap<>();
        v.put("gtid_mode", gtidMode);
        v.put("gtid_executed", executed);
        v.put("log_bin", "OFF");
        v.put("binlog_format", "STATEMENT");
        v.put("log_slave_updates", "OFF");
        v.put("read_only", "ON");
        return new ServerFacts(
                ServerVersion.mysql(8, 0, 15),
                v,
                new AccountPrivileges(
                        "capstan", "%", GrantParser.parseAll(List.of(grant)), true, false),
                true);
    }

    private static final GtidSet PURGED = GtidSet.parse(PRIMARY_UUID + ":1-30");

    private static List<PreflightFailure> check(ServerFacts facts) {
        return SnapshotServerRules.check(facts, PRIMARY, PURGED, "primary:3306", List.of(ORDERS));
    }

    @Test
    void theReplicasExecutedSetIsReadAcrossLineBreaksAndEmptyWhenUnreadable() {
        assertThat(
                        SnapshotServerRules.executedOrEmpty(
                                replica("ON", PRIMARY_UUID + ":1-40,\n" + REPLICA_UUID + ":1", "")))
                .isEqualTo(GtidSet.parse(PRIMARY_UUID + ":1-40," + REPLICA_UUID + ":1"));
        assertThat(SnapshotServerRules.executedOrEmpty(replica("ON", "not a set", "")))
                .isEqualTo(GtidSet.empty());
    }

    @Test
    void aLaggingGtidReplicaWithSelectAndLockTablesPasses() {
        assertThat(
                        check(
                                replica(
                                        "ON",
                                        PRIMARY_UUID + ":1-40",
                                        "GRANT SELECT, LOCK TABLES ON *.* TO `capstan`@`%`")))
                .isEmpty();
    }

    @Test
    void aSnapshotFromAReplicaIsRefusedOnMariaDbNamingTheOption() {
        PreflightFailure primary =
                SnapshotServerRules.checkPrimary(ServerVersion.mariaDb(10, 11, 6)).orElseThrow();
        assertThat(primary.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION);
        assertThat(primary.subject()).isEqualTo("scan.snapshot.hostname");
        assertThat(primary.found()).contains("MariaDB 10.11.6", "not supported");
        assertThat(primary.remedy()).contains("remove scan.snapshot.hostname", "primary");
        assertThat(SnapshotServerRules.checkPrimary(ServerVersion.mysql(8, 0, 15))).isEmpty();

        ServerFacts mariaDbReplica =
                new ServerFacts(
                        ServerVersion.mariaDb(10, 11, 6),
                        Map.of(),
                        new AccountPrivileges("capstan", "%", List.of(), true, false),
                        true);
        assertThat(check(mariaDbReplica))
                .extracting(PreflightFailure::reason)
                .containsExactly(HaltReason.INVALID_CONFIGURATION);
    }

    @Test
    void aReplicaHoldingATransactionThePrimaryLacksIsRefusedByName() {
        List<PreflightFailure> failures =
                check(
                        replica(
                                "ON",
                                PRIMARY_UUID + ":1-100,\n" + REPLICA_UUID + ":1-2",
                                "GRANT SELECT, LOCK TABLES ON *.* TO `capstan`@`%`"));
        assertThat(failures)
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.reason()).isEqualTo(HaltReason.SNAPSHOT_SERVER_DIVERGED);
                            assertThat(f.found()).contains(REPLICA_UUID + ":1-2", "primary:3306");
                            assertThat(f.remedy()).contains("scan.snapshot.hostname");
                        });
    }

    @Test
    void aReplicaLackingTransactionsThePrimaryPurgedIsRefusedAsADataGap() {
        List<PreflightFailure> failures =
                check(
                        replica(
                                "ON",
                                PRIMARY_UUID + ":1-20",
                                "GRANT SELECT, LOCK TABLES ON *.* TO `capstan`@`%`"));
        assertThat(failures)
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.reason()).isEqualTo(HaltReason.DATA_GAP);
                            assertThat(f.found()).contains(PRIMARY_UUID + ":21-30", "purged");
                            assertThat(f.remedy()).contains("catch up");
                        });
    }

    @Test
    void gtidsOffAndMissingGrantsAreEachNamedWithTheirRemedy() {
        List<PreflightFailure> failures =
                check(
                        replica(
                                "OFF",
                                PRIMARY_UUID + ":1-50",
                                "GRANT SELECT ON `other`.* TO `capstan`@`%`"));
        assertThat(failures)
                .extracting(PreflightFailure::reason)
                .containsExactly(
                        HaltReason.GTID_MODE_NOT_ON,
                        HaltReason.MISSING_PRIVILEGE,
                        HaltReason.MISSING_PRIVILEGE);
        assertThat(failures.get(0).remedy()).contains("SET PERSIST gtid_mode = OFF_PERMISSIVE;");
        assertThat(failures.get(1).remedy())
                .isEqualTo("GRANT SELECT ON `shop`.`orders` TO 'capstan'@'%';");
        assertThat(failures.get(2).remedy()).startsWith("GRANT LOCK TABLES ON `shop`.* TO");
    }

    @Test
    void aWritableReplicaIsWarnedAboutAndASuperReadOnlyOneIsNot() {
        ServerFacts writable = replica("ON", PRIMARY_UUID + ":1-40", "GRANT SELECT ON *.* TO x");
        assertThat(SnapshotServerRules.writableWarning(writable, "replica:3306"))
                .hasValueSatisfying(w -> assertThat(w).contains("replica:3306", "super_read_only"));
        Map<String, String> v = new HashMap<>(writable.variables());
        v.put("super_read_only", "ON");
        ServerFacts locked = new ServerFacts(writable.version(), v, writable.privileges(), true);
        assertThat(SnapshotServerRules.writableWarning(locked, "replica:3306")).isEmpty();
    }

    @Test
    void aChunkPositionWithinThePrimarysSetPasses() {
        SnapshotServerRules.requireContained(
                "shop.orders#3",
                GtidSet.parse(PRIMARY_UUID + ":1-99"),
                PRIMARY,
                "replica:3306",
                "primary:3306");
    }

    @Test
    void aChunkPositionBeyondThePrimarysSetHaltsNamingTheChunkAndTheExtraGtids() {
        assertThatThrownBy(
                        () ->
                                SnapshotServerRules.requireContained(
                                        "shop.orders#3",
                                        GtidSet.parse(
                                                PRIMARY_UUID + ":1-99," + REPLICA_UUID + ":7"),
                                        PRIMARY,
                                        "replica:3306",
                                        "primary:3306"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SNAPSHOT_SERVER_DIVERGED);
                            assertThat(e.getMessage())
                                    .startsWith("[snapshot_server_diverged]")
                                    .contains(
                                            "shop.orders#3",
                                            REPLICA_UUID + ":7",
                                            "replica:3306",
                                            "Remedy");
                        });
    }

    @Test
    void anotherServerBehindTheReplicasAddressHaltsNamingBothUuids() {
        SnapshotServerRules.requireSameServer(REPLICA_UUID, REPLICA_UUID, "ON", "replica:3306");
        assertThatThrownBy(
                        () ->
                                SnapshotServerRules.requireSameServer(
                                        REPLICA_UUID, PRIMARY_UUID, "ON", "replica:3306"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SNAPSHOT_SERVER_CHANGED);
                            assertThat(e.getMessage())
                                    .contains(REPLICA_UUID, PRIMARY_UUID, "Remedy");
                        });
        assertThatThrownBy(
                        () ->
                                SnapshotServerRules.requireSameServer(
                                        REPLICA_UUID,
                                        REPLICA_UUID,
                                        "ON_PERMISSIVE",
                                        "replica:3306"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.GTID_MODE_NOT_ON));
    }
}

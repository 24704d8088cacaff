package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * Preflight against the real shared server: the healthy server passes for the least-privileged
 * connector user; each dynamic setting, set wrong with SET GLOBAL (then restored), is refused with
 * its own reason; missing privileges are named, and applying the printed GRANTs fixes them.
 */
class PreflightIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    /** Distinctive, so that a leak into any message is unmistakable. */
    private static final String LIMITED_PASSWORD = "Pw-Zebra-7781-NeverPrinted";

    private static final String LIMITED_USER = "capstan_pf_limited";
    private static final String ROLE_USER = "capstan_pf_roles";
    private static final String ROLE = "capstan_pf_lock_role";

    private static List<TableId> tables;

    @BeforeAll
    static void createTables() {
        DB.execute(
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, note VARCHAR(20))",
                "CREATE TABLE items (id BIGINT PRIMARY KEY, qty INT)");
        tables = List.of(TableId.of(DB.name(), "orders"), TableId.of(DB.name(), "items"));
    }

    @AfterAll
    static void dropAccounts() {
        DB.server()
                .executeAsRoot(
                        "DROP USER IF EXISTS '" + LIMITED_USER + "'@'%'",
                        "DROP USER IF EXISTS '" + ROLE_USER + "'@'%'",
                        "DROP ROLE IF EXISTS '" + ROLE + "'");
    }

    static PreflightException refusal(MySqlConnectionConfig config, Collection<TableId> tables)
            throws SQLException {
        try {
            Preflight.verify(config, tables, CaptureScope.SNAPSHOT_AND_BINLOG);
        } catch (PreflightException e) {
            return e;
        }
        return fail("preflight passed but was expected to refuse");
    }

    @Test
    void healthyServerPassesForTheLeastPrivilegedConnectorUser() throws SQLException {
        Preflight.verify(connectorConfig(DB), tables, CaptureScope.SNAPSHOT_AND_BINLOG);
    }

    @Test
    void binlogFormatStatementIsRefused() throws SQLException {
        assertDynamicSettingRefused(
                "binlog_format", "'STATEMENT'", HaltReason.BINLOG_FORMAT_NOT_ROW);
    }

    @Test
    void binlogFormatMixedIsRefused() throws SQLException {
        assertDynamicSettingRefused("binlog_format", "'MIXED'", HaltReason.BINLOG_FORMAT_NOT_ROW);
    }

    @Test
    void minimalRowImageIsRefused() throws SQLException {
        assertDynamicSettingRefused(
                "binlog_row_image", "'MINIMAL'", HaltReason.BINLOG_ROW_IMAGE_NOT_FULL);
    }

    @Test
    void minimalRowMetadataIsRefused() throws SQLException {
        assertDynamicSettingRefused(
                "binlog_row_metadata", "'MINIMAL'", HaltReason.BINLOG_ROW_METADATA_NOT_FULL);
    }

    @Test
    void partialJsonIsRefused() throws SQLException {
        assertDynamicSettingRefused(
                "binlog_row_value_options",
                "'PARTIAL_JSON'",
                HaltReason.BINLOG_ROW_VALUE_OPTIONS_SET);
    }

    /**
     * SET GLOBAL changes the global value at once (what preflight reads) but only new sessions use
     * it; the original is restored in a finally so later tests see a safe server.
     */
    private static void assertDynamicSettingRefused(
            String variable, String badValue, HaltReason reason) throws SQLException {
        String original = DB.server().queryStringAsRoot("SELECT @@global." + variable);
        try {
            DB.server().executeAsRoot("SET GLOBAL " + variable + " = " + badValue);
            PreflightException e = refusal(connectorConfig(DB), tables);
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.failures()).extracting(PreflightFailure::reason).containsExactly(reason);
            assertThat(e.failures().get(0).subject()).isEqualTo(variable);
            assertThat(e.getMessage())
                    .contains("[" + reason.code() + "] " + variable + ": is " + badValue);
        } finally {
            DB.server()
                    .executeAsRoot(
                            "SET GLOBAL " + variable + " = '" + original.replace("'", "''") + "'");
        }
        Preflight.verify(connectorConfig(DB), tables, CaptureScope.SNAPSHOT_AND_BINLOG);
    }

    @Test
    void missingPrivilegesAreEachNamedAndThePrintedGrantsFixThem() throws SQLException {
        DB.server()
                .executeAsRoot(
                        "CREATE USER '"
                                + LIMITED_USER
                                + "'@'%' IDENTIFIED BY '"
                                + LIMITED_PASSWORD
                                + "'",
                        "GRANT SELECT ON `"
                                + DB.name()
                                + "`.`orders` TO '"
                                + LIMITED_USER
                                + "'@'%'");
        MySqlConnectionConfig limited =
                connectorConfig(DB).toBuilder()
                        .username(LIMITED_USER)
                        .password(LIMITED_PASSWORD)
                        .build();

        PreflightException e = refusal(limited, tables);

        assertThat(e.reason()).isEqualTo(HaltReason.MISSING_PRIVILEGE);
        assertThat(e.failures())
                .extracting(PreflightFailure::reason)
                .containsOnly(HaltReason.MISSING_PRIVILEGE);
        String account = "'" + LIMITED_USER + "'@'%'";
        assertThat(e.failures())
                .extracting(PreflightFailure::remedy)
                .containsExactly(
                        "GRANT REPLICATION SLAVE ON *.* TO " + account + ";",
                        "GRANT REPLICATION CLIENT ON *.* TO " + account + ";",
                        "GRANT SELECT ON `" + DB.name() + "`.`items` TO " + account + ";",
                        "GRANT LOCK TABLES ON `" + DB.name() + "`.* TO " + account + ";");
        assertNoSecret(e);

        // The remedies are real SQL: applying them makes the same account pass.
        for (PreflightFailure f : e.failures()) {
            DB.server().executeAsRoot(f.remedy());
        }
        Preflight.verify(limited, tables, CaptureScope.SNAPSHOT_AND_BINLOG);
    }

    @Test
    void aStreamOnlySourceNeedsNoLockTables() throws SQLException {
        String user = LIMITED_USER + "_s";
        DB.server()
                .executeAsRoot(
                        "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + LIMITED_PASSWORD + "'",
                        "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + user + "'@'%'",
                        "GRANT SELECT ON `" + DB.name() + "`.* TO '" + user + "'@'%'");
        try {
            MySqlConnectionConfig streamOnly =
                    connectorConfig(DB).toBuilder()
                            .username(user)
                            .password(LIMITED_PASSWORD)
                            .build();
            Preflight.verify(streamOnly, tables, CaptureScope.BINLOG_ONLY);
            PreflightException e =
                    catchThrowableOfType(
                            () ->
                                    Preflight.verify(
                                            streamOnly, tables, CaptureScope.SNAPSHOT_AND_BINLOG),
                            PreflightException.class);
            assertThat(e.failures())
                    .extracting(PreflightFailure::remedy)
                    .containsExactly(
                            "GRANT LOCK TABLES ON `" + DB.name() + "`.* TO '" + user + "'@'%';");
        } finally {
            DB.server().executeAsRoot("DROP USER IF EXISTS '" + user + "'@'%'");
        }
    }

    @Test
    void privilegesOfDefaultRolesCount() throws SQLException {
        DB.server()
                .executeAsRoot(
                        "CREATE ROLE '" + ROLE + "'",
                        "GRANT LOCK TABLES, SELECT ON `" + DB.name() + "`.* TO '" + ROLE + "'",
                        "CREATE USER '"
                                + ROLE_USER
                                + "'@'%' IDENTIFIED BY '"
                                + LIMITED_PASSWORD
                                + "'",
                        "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '"
                                + ROLE_USER
                                + "'@'%'",
                        "GRANT '" + ROLE + "' TO '" + ROLE_USER + "'@'%'");
        MySqlConnectionConfig roleUser =
                connectorConfig(DB).toBuilder()
                        .username(ROLE_USER)
                        .password(LIMITED_PASSWORD)
                        .build();

        // Granted but not active at login: the connector's sessions would lack these privileges.
        PreflightException e = refusal(roleUser, tables);
        assertThat(e.failures())
                .extracting(PreflightFailure::found)
                .containsExactly(
                        "SELECT not granted to '" + ROLE_USER + "'@'%'",
                        "SELECT not granted to '" + ROLE_USER + "'@'%'",
                        "LOCK TABLES not granted to '"
                                + ROLE_USER
                                + "'@'%' (needed for the snapshot's brief table lock)");
        assertNoSecret(e);

        DB.server().executeAsRoot("SET DEFAULT ROLE ALL TO '" + ROLE_USER + "'@'%'");
        Preflight.verify(roleUser, tables, CaptureScope.SNAPSHOT_AND_BINLOG);
    }

    static void assertNoSecret(PreflightException e) {
        assertThat(e.getMessage()).doesNotContain(LIMITED_PASSWORD);
        assertThat(e.toString()).doesNotContain(LIMITED_PASSWORD);
        for (PreflightFailure f : e.failures()) {
            assertThat(f.toString()).doesNotContain(LIMITED_PASSWORD);
        }
    }
}

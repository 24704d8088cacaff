package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One extra server started with every setting wrong, including one that cannot change online
 * ({@code log_bin}). The rules are independent, so one server shows every settings reason at once,
 * and one startup is paid instead of five. ({@code gtid_mode} other than ON is no refusal: the job
 * runs on binlog positions.)
 */
class PreflightMisconfiguredServerIT {

    private static final Pattern SET_PERSIST = Pattern.compile("SET PERSIST [^;]+;");

    private static MySqlServer server;
    private static List<TableId> tables;

    @BeforeAll
    static void startMisconfiguredServer() {
        server =
                MySqlServer.startEmbedded(
                        ServerOptions.defaults()
                                .withFlag(
                                        "--disable-log-bin"
                                                + " --binlog-format=STATEMENT --binlog-row-image=MINIMAL"
                                                + " --binlog-row-metadata=MINIMAL"
                                                + " --binlog-row-value-options=PARTIAL_JSON"));
        server.executeAsRoot(
                "CREATE DATABASE preflight_bad",
                "CREATE TABLE preflight_bad.orders (id BIGINT PRIMARY KEY)");
        tables = List.of(TableId.of("preflight_bad", "orders"));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyBadSettingIsReportedTogetherAndTheDynamicRemediesWork() throws SQLException {
        PreflightException e = PreflightIT.refusal(connectorConfig(server), tables);

        assertThat(e.failures())
                .extracting(PreflightFailure::reason)
                .containsExactly(
                        HaltReason.BINLOG_DISABLED,
                        HaltReason.BINLOG_FORMAT_NOT_ROW,
                        HaltReason.BINLOG_ROW_IMAGE_NOT_FULL,
                        HaltReason.BINLOG_ROW_METADATA_NOT_FULL,
                        HaltReason.BINLOG_ROW_VALUE_OPTIONS_SET);
        assertThat(e.reason()).isEqualTo(HaltReason.BINLOG_DISABLED);
        assertThat(e.getMessage().lines()).hasSize(1 + 5);
        assertThat(e.getMessage())
                .contains("[binlog_row_image_not_full] binlog_row_image: is 'MINIMAL'")
                .doesNotContain(server.connectorAccount().password());

        // Every SET PERSIST the remedies print, in the order printed, fixes all but log_bin,
        // which is not dynamic.
        List<String> statements = new ArrayList<>();
        for (PreflightFailure f : e.failures()) {
            Matcher m = SET_PERSIST.matcher(f.remedy());
            while (m.find()) {
                statements.add(m.group());
            }
        }
        assertThat(statements).hasSizeGreaterThanOrEqualTo(4);
        server.executeAsRoot(statements.toArray(new String[0]));

        PreflightException after = PreflightIT.refusal(connectorConfig(server), tables);
        assertThat(after.failures())
                .extracting(PreflightFailure::reason)
                .containsExactly(HaltReason.BINLOG_DISABLED);
    }
}

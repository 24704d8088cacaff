package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupOptions;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * mysql-cdc's file/position start is kept as given: planning never asks the server (the job
 * translates it when a new job plans its binlog split), so planning a restore never depends on the
 * file.
 */
class FilePositionStartTest {

    private static Map<String, String> options(String mode, Map<String, String> extra) {
        Map<String, String> o = TableFixtures.validOptions();
        o.remove("connector");
        o.put("scan.startup.mode", mode);
        o.putAll(extra);
        return o;
    }

    private static StartupOptions translate(Map<String, String> o) {
        return FilePositionStart.startupOptions(Configuration.fromMap(o));
    }

    @Test
    void aFileAndPositionAreKeptAsGiven() {
        Map<String, String> o =
                options(
                        "specific-offset",
                        Map.of(
                                "scan.startup.specific-offset.file", "mysql-bin.000003",
                                "scan.startup.specific-offset.pos", "4711"));
        StartupOptions start = translate(o);
        assertThat(start).isEqualTo(StartupOptions.specificOffset("mysql-bin.000003", 4711));
        assertThat(start.binlogFile()).isEqualTo("mysql-bin.000003");
        assertThat(start.binlogPosition()).isEqualTo(4711L);
        assertThat(start.gtidSet()).isNull();
        assertThat(start).hasToString("binlog-position[mysql-bin.000003:4711]");
    }

    /** 4, the file's start, as mysql-cdc's examples use it; below 4 is no position. */
    @Test
    void positionFourIsAcceptedAndBelowIsRefusedNamingTheOption() {
        Map<String, String> o =
                options(
                        "specific-offset",
                        Map.of(
                                "scan.startup.specific-offset.file", "mysql-bin.000003",
                                "scan.startup.specific-offset.pos", "4"));
        assertThat(translate(o).binlogPosition()).isEqualTo(4L);
        o.put("scan.startup.specific-offset.pos", "3");
        assertThatThrownBy(() -> translate(o))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scan.startup.specific-offset.pos");
        o.put("scan.startup.specific-offset.pos", "4");
        o.put("scan.startup.specific-offset.file", "x'; DROP");
        assertThatThrownBy(() -> translate(o))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scan.startup.specific-offset.file");
    }

    @Test
    void otherModesLeaveTheOptionsToTheModeScopedWarning() {
        Map<String, String> o =
                options(
                        "latest-offset",
                        Map.of(
                                "scan.startup.specific-offset.file", "mysql-bin.000003",
                                "scan.startup.specific-offset.pos", "4711"));
        assertThat(translate(o)).isEqualTo(StartupOptions.latest());
        assertThat(
                        ModeScopedOptions.ignoredIn(
                                io.capstan.flink.mysql.StartupMode.LATEST,
                                Configuration.fromMap(o)))
                .extracting(option -> option.key())
                .contains("scan.startup.specific-offset.file", "scan.startup.specific-offset.pos");
    }

    @Test
    void halfAnOffsetOrTwoOffsetsAreRefused() {
        assertThatThrownBy(
                        () ->
                                translate(
                                        options(
                                                "specific-offset",
                                                Map.of(
                                                        "scan.startup.specific-offset.file",
                                                        "mysql-bin.000003"))))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("go together");
        assertThatThrownBy(
                        () ->
                                translate(
                                        options(
                                                "specific-offset",
                                                Map.of(
                                                        "scan.startup.specific-offset.file",
                                                        "mysql-bin.000003",
                                                        "scan.startup.specific-offset.pos",
                                                        "4",
                                                        "scan.startup.specific-offset.gtid-set",
                                                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1"))))
                .hasMessageContaining("not both");
    }
}

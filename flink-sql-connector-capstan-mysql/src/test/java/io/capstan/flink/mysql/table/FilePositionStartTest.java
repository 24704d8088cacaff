package io.capstan.flink.mysql.table;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** mysql-cdc's file/position start becomes the GTID set the server translates it to. */
class FilePositionStartTest {

    private final List<String> asked = new ArrayList<>();
    private final BinlogPositionTranslator server =
            (connection, file, pos) -> {
                asked.add(connection.hostname() + " " + file + " " + pos);
                return "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23";
            };

    private static Map<String, String> options(String mode, Map<String, String> extra) {
        Map<String, String> o = TableFixtures.validOptions();
        o.remove("connector");
        o.put("scan.startup.mode", mode);
        o.putAll(extra);
        return o;
    }

    private ReadableConfig translate(Map<String, String> o) {
        return FilePositionStart.translate(Configuration.fromMap(o), o, server);
    }

    @Test
    void aFileAndPositionBecomeTheGtidSetTheServerSaysTheyDenote() {
        Map<String, String> o =
                options(
                        "specific-offset",
                        Map.of(
                                "scan.startup.specific-offset.file", "mysql-bin.000003",
                                "scan.startup.specific-offset.pos", "4711"));
        Map<String, String> translated = translate(o).toMap();
        assertThat(asked).containsExactly("127.0.0.1 mysql-bin.000003 4711");
        assertThat(translated)
                .containsEntry(
                        "scan.startup.specific-offset.gtid-set",
                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23")
                .doesNotContainKeys(
                        "scan.startup.specific-offset.file", "scan.startup.specific-offset.pos");
    }

    @Test
    void otherModesLeaveTheOptionsToTheModeScopedWarning() {
        Map<String, String> o =
                options(
                        "latest-offset",
                        Map.of(
                                "scan.startup.specific-offset.file", "mysql-bin.000003",
                                "scan.startup.specific-offset.pos", "4711"));
        assertThat(translate(o).toMap()).containsKey("scan.startup.specific-offset.file");
        assertThat(asked).isEmpty();
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
        assertThat(asked).isEmpty();
    }
}

package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.ValidationException;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each debezium.* key is mapped, ignored with one warning, or refused with a remedy. */
class DebeziumPassThroughOptionsTest {

    private final List<String> warnings = new ArrayList<>();

    private Map<String, String> check(Map<String, String> raw) {
        return DebeziumPassThroughOptions.check(raw, warnings::add);
    }

    @Test
    void harmlessValuesAreIgnoredWithOneWarningEach() {
        assertThat(
                        check(
                                Map.of(
                                        "debezium.snapshot.mode", "initial",
                                        "debezium.decimal.handling.mode", "PRECISE",
                                        "debezium.bigint.unsigned.handling.mode", "precise",
                                        "debezium.time.precision.mode",
                                                "adaptive_time_microseconds",
                                        "debezium.snapshot.locking.mode", "none",
                                        "hostname", "db")))
                .isEmpty();
        assertThat(warnings).hasSize(5).allMatch(w -> w.contains("is ignored by capstan"));
        assertThat(warnings)
                .anyMatch(w -> w.contains("'debezium.snapshot.locking.mode'"))
                .anyMatch(w -> w.contains("'debezium.decimal.handling.mode' = 'precise'"));
    }

    @Test
    void valuesThatWouldChangeWhatIsReadAreRefusedWithWhatToWriteInstead() {
        assertThatThrownBy(() -> check(Map.of("debezium.decimal.handling.mode", "double")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'debezium.decimal.handling.mode' = 'double'")
                .hasMessageContaining("CAST");
        assertThatThrownBy(() -> check(Map.of("debezium.bigint.unsigned.handling.mode", "long")))
                .hasMessageContaining("DECIMAL(20, 0)");
        assertThatThrownBy(() -> check(Map.of("debezium.skipped.operations", "d")))
                .hasMessageContaining("row_kind");
        assertThatThrownBy(() -> check(Map.of("debezium.time.precision.mode", "connect")))
                .hasMessageContaining("TIMESTAMP(3)");
        assertThatThrownBy(
                        () ->
                                check(
                                        Map.of(
                                                "debezium.event.processing.failure.handling.mode",
                                                "skip")))
                .hasMessageContaining("halts");
        assertThatThrownBy(() -> check(Map.of("debezium.database.serverTimezone", "UTC")))
                .hasMessageContaining("'server-time-zone'");
        assertThatThrownBy(
                        () -> check(Map.of("debezium.database.ssl.truststore.password", "s3cr3t")))
                .hasMessageContaining("'debezium.database.ssl.truststore.password'")
                .hasMessageNotContaining("s3cr3t");
        assertThatThrownBy(() -> check(Map.of("debezium.unknown.key", "1")))
                .hasMessageContaining("'debezium.unknown.key'")
                .hasMessageContaining("does not use Debezium");
        assertThat(warnings).isEmpty();
    }

    @Test
    void mappedKeysSetTheirCapstanOption() {
        assertThat(
                        check(
                                Map.of(
                                        "debezium.database.ssl.mode", "VERIFY_IDENTITY",
                                        "debezium.heartbeat.interval.ms", "5000",
                                        "debezium.connect.timeout.ms", "1500")))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "ssl.mode", "verify-identity",
                                "heartbeat.interval", "5000 ms",
                                "connect.timeout", "1500 ms"));
        assertThat(
                        check(
                                Map.of(
                                        "debezium.database.ssl.mode", "required",
                                        "ssl.mode", "REQUIRED")))
                .containsEntry("ssl.mode", "required");
        assertThatThrownBy(
                        () ->
                                check(
                                        Map.of(
                                                "debezium.database.ssl.mode", "required",
                                                "ssl.mode", "disabled")))
                .hasMessageContaining("contradicts 'ssl.mode'");
    }
}

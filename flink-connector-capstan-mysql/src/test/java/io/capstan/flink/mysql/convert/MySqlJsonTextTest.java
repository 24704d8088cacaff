package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Doubles printed as MySQL prints them in JSON (values observed on MySQL 8.0.15). */
@Tag(FlinkLines.NEUTRAL)
class MySqlJsonTextTest {

    @ParameterizedTest
    @CsvSource({
        "1.0, 1.0",
        "1.5, 1.5",
        "100, 100.0",
        "-125, -125.0",
        "0.1, 0.1",
        "-0.0, -0.0",
        "0, 0.0",
        "1e14, 100000000000000.0",
        "1e15, 1e15",
        "1.5e15, 1.5e15",
        "-1.25e15, -1.25e15",
        "1234567890123456.8, 1234567890123456.8",
        "1.2345678901234568e16, 1.2345678901234568e16",
        "1e-15, 0.000000000000001",
        "1.2345678901234568e-15, 0.0000000000000012345678901234568",
        "1e-16, 1e-16",
        "1.5e-22, 1.5e-22",
        "1e-7, 0.0000001",
        "0.30000000000000004, 0.30000000000000004",
        "1.7976931348623157e308, 1.7976931348623157e308",
        "4.9e-324, 5e-324",
        "1e100, 1e100",
        "123456.78901234567, 123456.78901234567"
    })
    void doubles(double value, String expected) {
        StringBuilder sb = new StringBuilder();
        MySqlDoubleText.append(sb, value);
        assertThat(sb.toString()).isEqualTo(expected);
    }
}

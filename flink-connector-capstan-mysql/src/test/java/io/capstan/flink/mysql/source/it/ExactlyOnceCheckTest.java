package io.capstan.flink.mysql.source.it;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The IT's check itself must see a single duplicate, gap, stray or reordering. */
class ExactlyOnceCheckTest {
    private static final List<String> EXPECTED =
            List.of("t|c|1|1", "t|c|2|1", "t|u|1|1>2|1>1000001", "t|d|2|1");

    @Test
    void acceptsExactlyTheExpectedChanges() {
        assertThatCode(() -> ExactlyOnceCheck.assertExactlyOnce(EXPECTED, EXPECTED))
                .doesNotThrowAnyException();
        // Changes of different rows may interleave differently.
        assertThatCode(
                        () ->
                                ExactlyOnceCheck.assertExactlyOnce(
                                        EXPECTED,
                                        List.of(
                                                "t|c|2|1",
                                                "t|c|1|1",
                                                "t|d|2|1",
                                                "t|u|1|1>2|1>1000001")))
                .doesNotThrowAnyException();
    }

    @Test
    void seesADuplicateAGapAStrayAndAReordering() {
        assertThatThrownBy(
                        () ->
                                ExactlyOnceCheck.assertExactlyOnce(
                                        EXPECTED,
                                        List.of(
                                                "t|c|1|1",
                                                "t|c|2|1",
                                                "t|u|1|1>2|1>1000001",
                                                "t|u|1|1>2|1>1000001",
                                                "t|d|2|1")))
                .hasMessageContaining("duplicated");
        assertThatThrownBy(
                        () ->
                                ExactlyOnceCheck.assertExactlyOnce(
                                        EXPECTED, List.of("t|c|1|1", "t|c|2|1", "t|d|2|1")))
                .hasMessageContaining("missing");
        assertThatThrownBy(
                        () ->
                                ExactlyOnceCheck.assertExactlyOnce(
                                        EXPECTED,
                                        List.of(
                                                "t|c|1|1",
                                                "t|c|2|1",
                                                "t|u|1|1>2|1>1000001",
                                                "t|d|2|1",
                                                "t|c|3|1")))
                .hasMessageContaining("unexpected");
        assertThatThrownBy(
                        () ->
                                ExactlyOnceCheck.assertExactlyOnce(
                                        EXPECTED,
                                        List.of(
                                                "t|u|1|1>2|1>1000001",
                                                "t|c|2|1",
                                                "t|c|1|1",
                                                "t|d|2|1")))
                .isInstanceOf(AssertionError.class);
    }
}

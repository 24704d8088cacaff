package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.event.Operation;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate's verdict on a row change names the operation and images, never a value (Rule 1). */
class GatedChangeTest {

    @Test
    void toStringShowsNoValue() {
        GatedChange c =
                new GatedChange(
                        Operation.UPDATE,
                        GenericRowData.of(7L, StringData.fromString("secret-before")),
                        GenericRowData.of(7L, StringData.fromString("secret-after")));
        assertThat(c.toString()).contains("UPDATE").doesNotContain("secret").doesNotContain("7");
        assertThat(GatedChange.SUPPRESSED.isSuppressed()).isTrue();
        assertThat(c.isSuppressed()).isFalse();
    }
}

package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.table.data.GenericRowData;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A row's chunk key; a NULL in it (the column made nullable by an ALTER) halts by name. */
class KeyExtractorTest {

    @Test
    void aNullInTheChunkKeyHaltsByNameNotWithAnIllegalState() {
        ChunkKey key = TestKeys.bigint();
        KeyExtractor extractor = KeyExtractor.of(key);
        assertThat(extractor.extract(GenericRowData.of(7L))).isEqualTo(KeyTuple.of(7L));
        assertThatThrownBy(() -> extractor.extract(GenericRowData.of((Object) null)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED);
                            assertThat(e.getMessage())
                                    .contains(key.table().toString())
                                    .contains("`id`");
                        });
    }
}

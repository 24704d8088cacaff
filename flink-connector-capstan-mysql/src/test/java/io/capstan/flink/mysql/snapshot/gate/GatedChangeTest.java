package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gate's verdict on a row change names the operation and images, never a value (the no-values
 * rule).
 */
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

    /**
     * A chunk key column beside the primary key: the gate holds chunks (-inf, 10) and [10, +inf).
     */
    private static CursorGate twoChunks(ChunkKey.Source source) {
        ChunkKey key =
                new ChunkKey(
                        TestKeys.TABLE,
                        List.of(TestKeys.column("no", 1, KeyKind.INTEGER, 0, "bigint")),
                        source);
        KeyTuple ten = KeyTuple.of(10L);
        return CursorGate.of(
                Map.of(
                        key,
                        List.of(
                                new FinishedChunk(ChunkRange.of(null, ten), BEFORE),
                                new FinishedChunk(ChunkRange.of(ten, null), AFTER))));
    }

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final GtidSet BEFORE = GtidSet.parse(UUID + ":1-4");
    private static final GtidSet AFTER = GtidSet.parse(UUID + ":1-5");

    private static RowChange moveFrom5To50() {
        return new RowChange(
                TestKeys.TABLE,
                null,
                Operation.UPDATE,
                GenericRowData.of(1L, 5L),
                GenericRowData.of(1L, 50L),
                Gtid.of(UUID, 5),
                0,
                0);
    }

    @Test
    void aRowMovedToAChunkReadAfterItsUpdateHaltsWhereTheChunkKeyIsBesideThePrimaryKey() {
        assertThatThrownBy(
                        () ->
                                GatedChange.of(
                                        twoChunks(
                                                ChunkKey.Source
                                                        .CHUNK_KEY_COLUMN_BESIDE_PRIMARY_KEY),
                                        moveFrom5To50()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.ROW_MOVED_BETWEEN_CHUNKS))
                .hasMessageContaining("db.t")
                .hasMessageContaining("column no")
                .hasMessageNotContaining("50");
        // Where the chunk key is the row's identity, the old and new keys are two rows: the
        // DELETE of the old one is exact.
        GatedChange exact = GatedChange.of(twoChunks(ChunkKey.Source.PRIMARY_KEY), moveFrom5To50());
        assertThat(exact.operation()).isEqualTo(Operation.DELETE);
    }
}

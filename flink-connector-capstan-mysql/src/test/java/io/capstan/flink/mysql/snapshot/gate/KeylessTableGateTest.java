package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeySerializer;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate of a table without a key: one chunk over all rows at one G, so every change of the table
 * is before G (in the snapshot: suppressed) or after it (forwarded), whatever its row holds.
 */
class KeylessTableGateTest {
    private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final TableId LOG = TableId.of("shop", "log");
    private static final GtidSet G = GtidSet.builder().addRange(U, "", 1, 10).build();

    private static CursorGate gate() {
        return CursorGate.of(
                Map.of(ChunkKey.keyless(LOG), List.of(new FinishedChunk(ChunkRange.all(), G))));
    }

    @Test
    void aChangeIsSuppressedExactlyWhenTheOneChunksGHoldsItsTransaction() {
        CursorGate gate = gate();
        GenericRowData row = GenericRowData.of(7L, StringData.fromString("x"));
        GenericRowData duplicate = GenericRowData.of(7L, StringData.fromString("x"));
        assertThat(gate.suppress(LOG, row, Gtid.of(U, 10))).isTrue();
        assertThat(gate.suppress(LOG, duplicate, Gtid.of(U, 1))).isTrue();
        assertThat(gate.suppress(LOG, row, Gtid.of(U, 11))).isFalse();
        assertThat(gate.suppress(LOG, GenericRowData.of(null, null), Gtid.of(U, 12)))
                .as("no key column: NULLs anywhere in the row are fine")
                .isFalse();
        assertThat(gate.startPosition()).contains(G);
        assertThat(gate.retire(G).isGated(LOG)).isFalse();
    }

    @Test
    void survivesTheCheckpointRoundTrip() throws Exception {
        CursorGate back = CursorGateSerializer.fromBytes(CursorGateSerializer.toBytes(gate()));
        assertThat(back.key(LOG)).contains(ChunkKey.keyless(LOG));
        assertThat(back.suppress(LOG, GenericRowData.of(1L, null), Gtid.of(U, 3))).isTrue();
        assertThat(back.suppress(LOG, GenericRowData.of(1L, null), Gtid.of(U, 30))).isFalse();

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChunkKeySerializer.write(ChunkKey.keyless(LOG), new DataOutputStream(bytes));
        assertThat(
                        ChunkKeySerializer.read(
                                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
                .isEqualTo(ChunkKey.keyless(LOG));
    }
}

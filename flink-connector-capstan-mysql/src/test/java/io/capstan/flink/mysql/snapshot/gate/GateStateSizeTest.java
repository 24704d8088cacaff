package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The state bound stated in docs/snapshot.md: 10,000 chunks, each with its own G. */
class GateStateSizeTest {

    @Test
    void tenThousandChunksWithDistinctGFitInAboutHalfAMegabyte() {
        ChunkKey key = TestKeys.bigint();
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        List<FinishedChunk> chunks = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            chunks.add(
                    new FinishedChunk(
                            ChunkRange.of(
                                    i == 0 ? null : KeyTuple.of(i * 8096L),
                                    i == 9_999 ? null : KeyTuple.of((i + 1) * 8096L)),
                            GtidSet.parse(uuid + ":1-" + (1_000_000 + i * 37))));
        }
        CursorGate gate = CursorGate.of(Map.of(key, chunks));
        int bytes = CursorGateSerializer.toBytes(gate).length;
        System.out.println("cursor gate state, 10,000 chunks with distinct G: " + bytes + " bytes");
        assertThat(bytes).isLessThan(10_000 * 64);
        assertThat(
                        CursorGateSerializer.toBytes(
                                        gate.retire(GtidSet.parse(uuid + ":1-2000000")))
                                .length)
                .isLessThan(8);
    }
}

package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate's size with a writer committing throughout and two source UUIDs (docs/adr/0007): every
 * chunk has its own G. Prints the sizes and times docs/performance.md quotes; 10^6 chunks only with
 * {@code -Dcapstan.gateSize.million=true} (about a minute and 1.5 GB of heap).
 */
@Tag(FlinkLines.NEUTRAL)
class GateSizeTest {

    private static final int DEFAULT_FRAME = 10 * 1024 * 1024;

    @Test
    void aHundredThousandChunksFitInAFewBytesEach() throws Exception {
        Measured m = measure(100_000);
        assertThat(m.oldBytes).isGreaterThan(100_000 * 80); // the text dictionary: ~100 B a chunk
        assertThat(m.newBytes).isLessThan(100_000 * 4);
    }

    @Test
    @EnabledIfSystemProperty(named = "capstan.gateSize.million", matches = "true")
    void aMillionChunksFitTheDefaultFrameWithRoomToSpare() throws Exception {
        Measured m = measure(1_000_000);
        assertThat(m.oldBytes).isGreaterThan(DEFAULT_FRAME);
        assertThat(m.newBytes).isLessThan(DEFAULT_FRAME / 2);
    }

    private record Measured(long oldBytes, long newBytes) {}

    private static Measured measure(int chunks) throws Exception {
        ChunkKey key = TestKeys.bigint();
        CursorGate gate =
                CursorGate.of(
                        Map.of(key, RealisticGates.chunks(RealisticGates.gtidSets(chunks, 42))));
        byte[] old = CursorGateVersion1Writer.toBytes(gate);
        long t0 = System.nanoTime();
        CursorGateSerializer.fromBytes(old);
        long t1 = System.nanoTime();
        byte[] bytes = CursorGateSerializer.encode(gate);
        long t2 = System.nanoTime();
        CursorGate back = CursorGateSerializer.fromBytes(bytes);
        long t3 = System.nanoTime();
        assertThat(CursorGateSerializer.encode(back)).isEqualTo(bytes);
        assertThat(CursorGateSerializer.encode(CursorGateSerializer.fromBytes(old)))
                .isEqualTo(bytes);
        System.out.printf(
                "cursor gate, %,d chunks, distinct G, two UUIDs: version 1 %,d bytes (%.1f a"
                        + " chunk, read %d ms); version 2 %,d bytes (%.2f a chunk, write %d ms,"
                        + " read %d ms)%n",
                chunks,
                old.length,
                old.length / (double) chunks,
                (t1 - t0) / 1_000_000,
                bytes.length,
                bytes.length / (double) chunks,
                (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000);
        return new Measured(old.length, bytes.length);
    }
}

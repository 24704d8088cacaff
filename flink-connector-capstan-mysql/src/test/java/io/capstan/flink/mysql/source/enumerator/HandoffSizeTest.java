package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.CursorGateVersion1Writer;
import io.capstan.flink.mysql.snapshot.gate.RealisticGates;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;
import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The enumerator's checkpoint and the binlog split at the handoff, before (enumerator state 2,
 * split 2) and after docs/adr/0007, with a writer committing throughout and two source UUIDs
 * ({@link RealisticGates}): sizes and the handoff's serialization and deserialization times, the
 * numbers docs/performance.md quotes. 10^6 chunks only with {@code
 * -Dcapstan.gateSize.million=true}.
 */
@Tag(FlinkLines.NEUTRAL)
class HandoffSizeTest {

    private static final CapstanSplitSerializer SPLITS = CapstanSplitSerializer.INSTANCE;
    private static final EnumStateSerializer ENUMS = EnumStateSerializer.INSTANCE;

    @Test
    void aHundredThousandChunks() throws Exception {
        Sizes s = measure(100_000);
        assertThat(s.newEnum).isLessThan(s.oldEnum / 20);
        assertThat(s.newSplit).isLessThan(s.oldSplit / 20);
    }

    @Test
    @EnabledIfSystemProperty(named = "capstan.gateSize.million", matches = "true")
    void aMillionChunks() throws Exception {
        Sizes s = measure(1_000_000);
        assertThat(s.newSplit).isLessThan(10 * 1024 * 1024 / 2);
    }

    private record Sizes(long oldEnum, long newEnum, long oldSplit, long newSplit) {}

    private static Sizes measure(int n) throws Exception {
        ChunkKey key = TestKeys.bigint();
        List<GtidSet> gs = RealisticGates.gtidSets(n, 7);
        SnapshotBook book = new SnapshotBook(List.of(new SnapshotTable(key, 42L)));
        List<SnapshotChunk> chunks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            chunks.add(new SnapshotChunk(key.table(), i, RealisticGates.range(i, n)));
        }
        book.planned(
                chunks,
                List.of(
                        new ChunkPlannerState(
                                key.table(), ChunkPlannerState.Mode.FINISHED, n, null, null)));
        for (int i = 0; i < n; i++) {
            SnapshotChunkSplit s = book.takePending().orElseThrow();
            book.complete(
                    s.withCompletion(
                            new ChunkCompletion(
                                    gs.get(s.chunk().index()), RealisticGates.CHUNK_SIZE)));
        }
        SnapshotProgress progress =
                SnapshotProgress.of(book, OptionalLong.of(5), OptionalLong.of(4));
        EnumState state = new EnumState(null, false, progress);

        long t0 = System.nanoTime();
        byte[] oldEnum = EnumStateVersion2Writer.toBytes(progress);
        long t1 = System.nanoTime();
        byte[] newEnum = ENUMS.serialize(state);
        long t2 = System.nanoTime();
        EnumState back = ENUMS.deserialize(ENUMS.getVersion(), newEnum);
        long t3 = System.nanoTime();
        ENUMS.deserialize(2, oldEnum);
        long t4 = System.nanoTime();
        assertThat(back.snapshot().finished()).isEqualTo(progress.finished());

        GtidSet start = book.binlogStart();
        CursorGate gate = book.gate();
        BinlogSplit split =
                new BinlogSplit(List.of(key.table()), BinlogStartPosition.of(start), gate);
        long t5 = System.nanoTime();
        byte[] oldSplit = oldSplitBytes(split, CursorGateVersion1Writer.toBytes(gate));
        long t6 = System.nanoTime();
        SPLITS.deserialize(2, oldSplit);
        long t7 = System.nanoTime();
        byte[] newSplit = SPLITS.serialize(split);
        long t8 = System.nanoTime();
        BinlogSplit newBack = SPLITS.deserialize(SPLITS.getVersion(), newSplit).asBinlogSplit();
        long t9 = System.nanoTime();
        assertThat(newBack.gate().chunkCount()).isEqualTo(n);
        assertThat(newBack.gate().startPosition()).contains(start);

        System.out.printf(
                "%,d chunks, distinct G, two UUIDs:%n"
                        + "  enumerator checkpoint: before %,d bytes (write %d ms, read %d ms);"
                        + " after %,d bytes (write %d ms, read %d ms)%n"
                        + "  binlog split: before %,d bytes (write %d ms, read %d ms);"
                        + " after %,d bytes (write %d ms, read %d ms)%n",
                n,
                oldEnum.length,
                ms(t0, t1),
                ms(t3, t4),
                newEnum.length,
                ms(t1, t2),
                ms(t2, t3),
                oldSplit.length,
                ms(t5, t6),
                ms(t6, t7),
                newSplit.length,
                ms(t7, t8),
                ms(t8, t9));
        return new Sizes(oldEnum.length, newEnum.length, oldSplit.length, newSplit.length);
    }

    /** The version-2 split: this build's binlog header, then the gate in format 1. */
    private static byte[] oldSplitBytes(BinlogSplit split, byte[] oldGate) throws Exception {
        byte[] header = SPLITS.serialize(split.withStart(split.start(), CursorGate.empty()));
        // the empty gate (length int and two bytes) and the unknown origin (one byte)
        int headerLength = header.length - 4 - 2 - 1;
        return ByteBuffer.allocate(headerLength + 4 + oldGate.length)
                .put(header, 0, headerLength)
                .putInt(oldGate.length)
                .put(oldGate)
                .array();
    }

    private static long ms(long from, long to) {
        return (to - from) / 1_000_000;
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.BinlogSplitState;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpointed sizes with the real serializers after 10,000 finished chunks of a BIGINT-keyed table
 * (the numbers docs/snapshot.md quotes), and the binlog split shrinking when the gate retires.
 * Every chunk read at its own G (the worst case: no G shared between chunks).
 */
class SnapshotStateSizeTest {

    static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    static final int CHUNKS = 10_000;

    @Test
    void enumeratorAndBinlogSplitSizesAfterTenThousandChunks() throws Exception {
        ChunkKey key = TestKeys.bigint();
        SnapshotBook book = new SnapshotBook(List.of(new SnapshotTable(key, 42L)));
        List<SnapshotChunk> chunks = new ArrayList<>();
        for (int i = 0; i < CHUNKS; i++) {
            KeyTuple low = i == 0 ? null : KeyTuple.of(8_096L * i);
            KeyTuple high = i == CHUNKS - 1 ? null : KeyTuple.of(8_096L * (i + 1));
            chunks.add(new SnapshotChunk(key.table(), i, ChunkRange.of(low, high)));
        }
        book.planned(
                chunks,
                List.of(
                        new ChunkPlannerState(
                                key.table(), ChunkPlannerState.Mode.FINISHED, CHUNKS, null, null)));
        for (int i = 0; i < CHUNKS; i++) {
            SnapshotChunkSplit s = book.takePending().orElseThrow();
            // each G differs (writers committed between every two chunks), 1,000,000+ transactions
            GtidSet g = GtidSet.parse(UUID + ":1-" + (1_000_000 + 7L * i));
            book.complete(s.withCompletion(new ChunkCompletion(g, 8_096)));
        }
        assertThat(book.allFinished()).isTrue();

        byte[] enumBytes =
                EnumStateSerializer.INSTANCE.serialize(
                        new EnumState(
                                null,
                                false,
                                SnapshotProgress.of(book, OptionalLong.of(5), OptionalLong.of(4))));
        BinlogSplit binlog =
                new BinlogSplit(
                        List.of(key.table()),
                        BinlogStartPosition.of(book.binlogStart()),
                        book.gate());
        byte[] splitBytes = CapstanSplitSerializer.INSTANCE.serialize(binlog);
        System.out.printf(
                "10,000 finished chunks: enumerator state %,d bytes (%.1f per chunk),"
                        + " binlog split %,d bytes (%.1f per chunk)%n",
                enumBytes.length,
                enumBytes.length / (double) CHUNKS,
                splitBytes.length,
                splitBytes.length / (double) CHUNKS);
        // The bounds docs/snapshot.md states (per chunk, BIGINT key, distinct G per chunk).
        assertThat(enumBytes.length).isLessThan(CHUNKS * 100);
        assertThat(splitBytes.length).isLessThan(CHUNKS * 80);

        // The gate retires once the processed set holds every G: the chunks leave the split.
        GtidSet all = GtidSet.parse(UUID + ":1-" + (1_000_000 + 7L * CHUNKS));
        BinlogSplitState caughtUp =
                new BinlogSplitState(binlog.withStart(BinlogStartPosition.of(all)));
        byte[] retired = CapstanSplitSerializer.INSTANCE.serialize(caughtUp.toSplit());
        System.out.printf("after the gate retired: binlog split %,d bytes%n", retired.length);
        assertThat(caughtUp.gate().chunkCount()).isZero();
        assertThat(retired.length).isLessThan(300);
    }
}

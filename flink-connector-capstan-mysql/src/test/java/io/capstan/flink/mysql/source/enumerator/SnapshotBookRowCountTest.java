package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rows of the finished chunks, kept as completions come, repeat, replace and go. */
class SnapshotBookRowCountTest {

    private static final ChunkKey KEY = TestKeys.bigint();
    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Test
    void countsEachFinishedChunkOnceWithItsLatestRead() {
        SnapshotBook book = new SnapshotBook(List.of(new SnapshotTable(KEY, 42L)));
        book.planned(
                List.of(
                        new SnapshotChunk(KEY.table(), 0, ChunkRange.of(null, KeyTuple.of(10L))),
                        new SnapshotChunk(KEY.table(), 1, ChunkRange.of(KeyTuple.of(10L), null))),
                List.of(
                        new ChunkPlannerState(
                                KEY.table(), ChunkPlannerState.Mode.FINISHED, 2, null, null)));
        SnapshotChunkSplit first = book.takePending().orElseThrow();
        SnapshotChunkSplit second = book.takePending().orElseThrow();
        assertThat(book.rowCount()).isZero();

        book.complete(first.withCompletion(completion(5, 10)));
        book.complete(second.withCompletion(completion(6, 7)));
        book.complete(second.withCompletion(completion(6, 7))); // resent
        assertThat(book.rowCount()).isEqualTo(17);

        book.complete(first.withCompletion(completion(9, 12))); // read again at a later G
        assertThat(book.rowCount()).isEqualTo(19);

        book.dropCompletion(second.splitId()); // its reader reads it again
        assertThat(book.rowCount()).isEqualTo(12);
        assertThat(
                        SnapshotProgress.of(
                                        book,
                                        java.util.OptionalLong.empty(),
                                        java.util.OptionalLong.empty())
                                .toBook()
                                .rowCount())
                .as("a restored book counts the same")
                .isEqualTo(12);
    }

    private static ChunkCompletion completion(long gLast, long rows) {
        return new ChunkCompletion(GtidSet.parse(UUID + ":1-" + gLast), rows);
    }
}

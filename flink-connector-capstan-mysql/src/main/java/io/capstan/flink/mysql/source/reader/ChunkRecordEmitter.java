package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplitState;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.table.data.RowData;

import java.util.List;

/**
 * Emits a whole chunk in one call (task thread): every row as a READ change event (an insert in
 * RowData, "r" in the JSON envelope), timestamped with the chunk's read time, then records the
 * chunk's completion (G, row count) in its split state. One call, so a checkpoint barrier falls
 * before or after the chunk, never inside.
 */
final class ChunkRecordEmitter<T> {

    private final CapstanDeserializer<T> deserializer;
    private final TimestampedCollector<T> collector = new TimestampedCollector<>();

    ChunkRecordEmitter(CapstanDeserializer<T> deserializer) {
        this.deserializer = deserializer;
    }

    void emit(ChunkElement chunk, SourceOutput<T> output, SnapshotChunkSplitState state)
            throws Exception {
        ChunkResult result = chunk.result();
        List<RowData> rows = result.rows();
        collector.output = output;
        collector.timestampMillis = chunk.readTimeMillis();
        long micros = chunk.readTimeMillis() * 1000L;
        for (int i = 0; i < rows.size(); i++) {
            deserializer.deserialize(
                    new ChangeEvent(
                            Operation.READ,
                            null,
                            rows.get(i),
                            chunk.schema(),
                            result.chunk().table(),
                            null,
                            micros,
                            i),
                    collector);
        }
        state.completed(new ChunkCompletion(result.gtidSet(), rows.size()));
    }
}

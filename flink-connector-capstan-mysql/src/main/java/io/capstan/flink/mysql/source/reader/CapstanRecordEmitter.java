package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.source.split.CapstanSplitState;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;

/**
 * The only place split state changes (task thread): a chunk element goes to the {@link
 * ChunkRecordEmitter}, a binlog record to the {@link BinlogRecordEmitter}.
 */
@Internal
public final class CapstanRecordEmitter<T>
        implements RecordEmitter<SourceElement, T, CapstanSplitState> {

    private final ChunkRecordEmitter<T> chunks;
    private final BinlogRecordEmitter<T> binlog;
    private final CapstanReaderMetrics metrics;

    public CapstanRecordEmitter(CapstanDeserializer<T> deserializer, CapstanReaderMetrics metrics) {
        this.chunks = new ChunkRecordEmitter<>(deserializer);
        this.binlog = new BinlogRecordEmitter<>(deserializer, metrics);
        this.metrics = metrics;
    }

    @Override
    public void emitRecord(SourceElement element, SourceOutput<T> output, CapstanSplitState state)
            throws Exception {
        switch (element.kind()) {
            case CHUNK:
                chunks.emit(element.asChunk(), output, state.asSnapshotChunkSplitState());
                metrics.elementEmitted(element.asChunk().result().rowCount());
                metrics.snapshotRowsEmitted(
                        element.asChunk().schema().tableId(),
                        element.asChunk().result().rowCount());
                break;
            case BINLOG_RECORD:
                long emittedBefore = metrics.rowsEmittedCount();
                binlog.emitRecord(
                        element.asBinlogRecord(),
                        element.gateKeys(),
                        output,
                        state.asBinlogSplitState());
                metrics.elementEmitted(metrics.rowsEmittedCount() - emittedBefore);
                break;
            default:
                throw new IllegalArgumentException("unknown element kind " + element.kind());
        }
    }
}

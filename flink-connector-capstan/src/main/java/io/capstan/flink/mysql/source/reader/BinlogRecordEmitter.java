package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.binlog.BinlogRecord;
import io.capstan.flink.mysql.binlog.RowChange;
import io.capstan.flink.mysql.binlog.TransactionEnd;
import io.capstan.flink.mysql.source.split.BinlogSplitState;
import io.capstan.flink.mysql.source.split.CapstanSplitState;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.util.Collector;

/**
 * The only place the binlog split state changes, on the task thread, one element at a time, so a
 * checkpoint barrier falls between two row changes and the state names exactly what was emitted.
 *
 * <p>A row change already covered by the state (its transaction processed, or within the partial
 * transaction's emitted rows) is skipped as defence in depth; otherwise it is deserialized,
 * emitted with its commit time as the record timestamp, and the state advances to it. A
 * transaction end adds the transaction to the processed set.
 */
public final class BinlogRecordEmitter<T> implements RecordEmitter<BinlogRecord, T, CapstanSplitState> {

    private final CapstanDeserializer<T> deserializer;
    private final CapstanReaderMetrics metrics;
    private final TimestampedCollector<T> collector = new TimestampedCollector<>();

    public BinlogRecordEmitter(CapstanDeserializer<T> deserializer, CapstanReaderMetrics metrics) {
        this.deserializer = deserializer;
        this.metrics = metrics;
    }

    @Override
    public void emitRecord(BinlogRecord record, SourceOutput<T> output, CapstanSplitState splitState)
            throws Exception {
        BinlogSplitState state = splitState.asBinlogSplitState();
        if (record instanceof RowChange) {
            emitRowChange((RowChange) record, output, state);
        } else {
            TransactionEnd end = (TransactionEnd) record;
            state.transactionEnded(end.gtid());
            metrics.transactionProcessed();
        }
    }

    private void emitRowChange(RowChange change, SourceOutput<T> output, BinlogSplitState state)
            throws Exception {
        if (state.alreadyEmitted(change.gtid(), change.indexInTransaction())) {
            metrics.rowSkippedOnResume();
            return;
        }
        ChangeEvent event =
                new ChangeEvent(
                        change.operation(),
                        change.before(),
                        change.after(),
                        change.schema(),
                        change.tableId(),
                        change.gtid().toString(),
                        change.commitTimestampMicros(),
                        change.indexInTransaction());
        collector.output = output;
        collector.timestampMillis = change.commitTimestampMicros() / 1000;
        deserializer.deserialize(event, collector);
        state.rowEmitted(change.gtid(), change.indexInTransaction());
        metrics.rowEmitted();
    }

    /** Forwards the deserializer's records to the current output with the change's commit time. */
    private static final class TimestampedCollector<T> implements Collector<T> {
        SourceOutput<T> output;
        long timestampMillis;

        @Override
        public void collect(T record) {
            output.collect(record, timestampMillis);
        }

        @Override
        public void close() {}
    }
}

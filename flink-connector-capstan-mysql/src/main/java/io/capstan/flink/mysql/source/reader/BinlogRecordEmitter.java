package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TableCaptured;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.snapshot.gate.GateKeys;
import io.capstan.flink.mysql.snapshot.gate.GatedChange;
import io.capstan.flink.mysql.source.split.BinlogSplitState;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

/**
 * The only place the binlog split state changes, on the task thread, one element at a time, so a
 * checkpoint barrier falls between two row changes and the state names exactly what was emitted.
 *
 * <p>A row change already covered by the state (its transaction processed, or within the partial
 * transaction's handled rows) is skipped as defence in depth. Otherwise, if its table is gated, it
 * passes the cursor gate ({@link GatedChange}); what passes is deserialized and emitted with its
 * commit time as the record timestamp. Either way the state counts the row as handled: the
 * streamer's resume skips the first N captured rows of the partial transaction, suppressed ones
 * included. A transaction end adds the transaction to the processed set (and may retire gated
 * tables), also when all its rows were suppressed. A table captured from its CREATE on joins the
 * split's tables.
 */
@Internal
public final class BinlogRecordEmitter<T> {

    private final CapstanDeserializer<T> deserializer;
    private final CapstanReaderMetrics metrics;
    private final TimestampedCollector<T> collector = new TimestampedCollector<>();

    /** The text of the last transaction's GTID: rows of one transaction share it. */
    private Gtid lastGtid;

    private String lastGtidText;

    public BinlogRecordEmitter(CapstanDeserializer<T> deserializer, CapstanReaderMetrics metrics) {
        this.deserializer = deserializer;
        this.metrics = metrics;
    }

    /**
     * @param keys the weighed keys of a row change whose table's key needs the server's weights
     *     (see GateKeyWeigher), else null
     */
    public void emitRecord(
            BinlogRecord record,
            @Nullable GateKeys keys,
            SourceOutput<T> output,
            BinlogSplitState state)
            throws Exception {
        if (record instanceof RowChange) {
            emitRowChange((RowChange) record, keys, output, state);
        } else if (record instanceof TableCaptured) {
            // A table created while streaming: captured from here on, also after a restore.
            state.tableCaptured(((TableCaptured) record).table());
        } else {
            state.transactionEnded((TransactionEnd) record);
            metrics.transactionProcessed(state.processed());
        }
    }

    private void emitRowChange(
            RowChange change,
            @Nullable GateKeys keys,
            SourceOutput<T> output,
            BinlogSplitState state)
            throws Exception {
        if (state.alreadyEmitted(change.gtid(), change.indexInTransaction())) {
            metrics.rowSkippedOnResume();
            return;
        }
        ChangeEvent event;
        if (!state.gate().isGated(change.tableId())
                || change.operation() == Operation.TRUNCATE
                || change.operation() == Operation.SCHEMA_CHANGE) {
            // The steady state (after the handoff, every stream-only job): the change as it is. A
            // TRUNCATE reaches here only when no chunk of its table was read after it (the stream
            // passes it over when all were, and halts when some were).
            event = event(change, change.operation(), change.before(), change.after());
        } else {
            GatedChange gated = GatedChange.of(state.gate(), change, keys);
            if (gated.isSuppressed()) {
                state.rowEmitted(change.gtid(), change.indexInTransaction());
                metrics.rowSuppressedByGate();
                return;
            }
            event = event(change, gated.operation(), gated.before(), gated.after());
        }
        collector.output = output;
        collector.timestampMillis = change.commitTimestampMicros() / 1000;
        deserializer.deserialize(event, collector);
        state.rowEmitted(change.gtid(), change.indexInTransaction());
        metrics.rowEmitted();
        metrics.changeEmitted(change.tableId(), event.operation());
    }

    private ChangeEvent event(
            RowChange change,
            Operation operation,
            @Nullable RowData before,
            @Nullable RowData after) {
        return new ChangeEvent(
                operation,
                before,
                after,
                change.schema(),
                change.tableId(),
                gtidText(change.gtid()),
                change.commitTimestampMicros(),
                change.indexInTransaction(),
                change.schemaChangeKind());
    }

    private String gtidText(Gtid gtid) {
        if (!gtid.equals(lastGtid)) {
            lastGtid = gtid;
            lastGtidText = BinlogPositionAxis.readable(gtid);
        }
        return lastGtidText;
    }
}

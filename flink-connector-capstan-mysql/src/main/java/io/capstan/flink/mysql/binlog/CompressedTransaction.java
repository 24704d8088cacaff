package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.ArrayList;

/**
 * A compressed transaction (TRANSACTION_PAYLOAD) whose inner events are decoded one at a time, as
 * the {@link TransactionAssembler} asks for them: a table map inside the payload has reached the
 * {@link TableSchemaCache} before the rows after it are decoded, so rows of uncaptured tables are
 * skipped undecoded as in the plain stream, and at most one inner rows event is decoded at a time.
 * The decompressed bytes of the whole transaction are held meanwhile.
 *
 * <p>Extends the library's payload data because its event deserializer casts to it; the eager list
 * of {@link #getUncompressedEvents()} stays empty.
 */
final class CompressedTransaction extends TransactionPayloadEventData {
    private static final long serialVersionUID = 1L;

    private final transient ByteArrayInputStream events;
    private final transient EventDeserializer deserializer;

    CompressedTransaction(ByteArrayInputStream events, EventDeserializer deserializer) {
        this.events = events;
        this.deserializer = deserializer;
        setUncompressedEvents(new ArrayList<>());
    }

    /** The next inner event, decoded now; null after the last. */
    Event next() throws IOException {
        return deserializer.nextEvent(events);
    }

    @Override
    public String toString() {
        return "CompressedTransaction{uncompressedSize=" + getUncompressedSize() + "}";
    }

    /** A halt for an inner event that could not be decoded (no row values: only its type). */
    static CapstanHaltException undecodable(IOException e, Gtid gtid, GtidSet processed) {
        return new CapstanHaltException(
                HaltReason.UNDECODABLE_COLUMN,
                "an event inside a compressed transaction"
                        + (gtid == null ? "" : " (" + BinlogPositionAxis.readable(gtid) + ")")
                        + " after position "
                        + BinlogPositionAxis.readable(processed)
                        + " could not be decoded ("
                        + e.getClass().getName()
                        + "). Remedy: report this with the captured tables' DDL; restart from the last"
                        + " checkpoint after a fix.");
    }
}

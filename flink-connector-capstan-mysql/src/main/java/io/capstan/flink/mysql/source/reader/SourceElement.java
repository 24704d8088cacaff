package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.snapshot.gate.GateKeys;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

/**
 * What the fetcher hands to the emitter, one element per {@code emitRecord} call: EITHER a whole
 * chunk (so a checkpoint falls before or after it, never inside) OR one binlog record (a row change
 * or a transaction end, never a whole transaction). Told apart by {@link #kind()}.
 */
@Internal
public abstract class SourceElement {

    /** The kinds of element. */
    public enum Kind {
        CHUNK,
        BINLOG_RECORD
    }

    SourceElement() {}

    public abstract Kind kind();

    /** This element as a chunk; IllegalStateException for another kind. */
    public ChunkElement asChunk() {
        throw new IllegalStateException("a " + kind() + " element is not a chunk");
    }

    /** This element's binlog record; IllegalStateException for another kind. */
    public BinlogRecord asBinlogRecord() {
        throw new IllegalStateException("a " + kind() + " element is not a binlog record");
    }

    /**
     * The weighed keys of this binlog row change's images, when its table's key needs the server's
     * weights at the gate; else null.
     */
    @Nullable
    public GateKeys gateKeys() {
        return null;
    }

    public static SourceElement of(BinlogRecord record) {
        return new BinlogElement(record, null);
    }

    /** A row change with the weighed keys the gate places it by. */
    public static SourceElement of(RowChange change, GateKeys keys) {
        return new BinlogElement(change, keys);
    }

    private static final class BinlogElement extends SourceElement {
        private final BinlogRecord record;
        @Nullable private final GateKeys keys;

        BinlogElement(BinlogRecord record, @Nullable GateKeys keys) {
            this.record = record;
            this.keys = keys;
        }

        @Override
        @Nullable
        public GateKeys gateKeys() {
            return keys;
        }

        @Override
        public Kind kind() {
            return Kind.BINLOG_RECORD;
        }

        @Override
        public BinlogRecord asBinlogRecord() {
            return record;
        }

        @Override
        public String toString() {
            return record.toString();
        }
    }
}

package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogRecord;

import org.apache.flink.annotation.Internal;

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

    public static SourceElement of(BinlogRecord record) {
        return new BinlogElement(record);
    }

    private static final class BinlogElement extends SourceElement {
        private final BinlogRecord record;

        BinlogElement(BinlogRecord record) {
            this.record = record;
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

package io.capstan.flink.mysql.stream.event;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * One binlog event as transaction assembly reads it, with the header facts it uses. An event of a
 * type assembly has no record for arrives as {@link Other}, its type name kept, so code that halts
 * on a type still sees it.
 *
 * <p>The records hold what the adapter decoded without copying it (row arrays, column types, XID
 * bytes): callers must not change them. Records holding statement text, rows or XID bytes leave
 * them out of {@code toString()}, as logs and messages never carry them.
 */
@Internal
public sealed interface BinlogEvent {

    /** The facts of the event's header. */
    Header header();

    /**
     * An event's header, shared by every kind.
     *
     * @param timestamp seconds since the epoch (0 for the server's artificial events)
     * @param serverId the id of the server that wrote the event
     * @param position where the event starts in its binlog file
     * @param nextPosition where the next event starts in the file; 0 or less when the server sent
     *     none
     */
    record Header(long timestamp, long serverId, long position, long nextPosition) {}

    /**
     * A GTID event: a transaction starts.
     *
     * @param originalCommitMicros the original commit time in microseconds; 0 when not written
     */
    record Gtid(
            Header header,
            String sourceId,
            long transactionId,
            long originalCommitMicros,
            long lastCommitted,
            long sequenceNumber)
            implements BinlogEvent {}

    /** A QUERY event: a statement, run with {@code database} as the default one (maybe null). */
    record Query(Header header, @Nullable String database, String sql) implements BinlogEvent {
        @Override
        public String toString() {
            return "Query{position=" + header.position() + ", database=" + database + "}";
        }
    }

    /** An XID event: a transaction commits. */
    record Xid(Header header, long xid) implements BinlogEvent {}

    /**
     * A TABLE_MAP event: which table the numeric id names, and its columns' shape.
     *
     * @param metadata the optional metadata (binlog_row_metadata), null when the server wrote none
     */
    record TableMap(
            Header header,
            long tableId,
            String database,
            String table,
            byte[] columnTypes,
            int[] columnMetadata,
            BitSet columnNullability,
            @Nullable TableMapMetadata metadata)
            implements BinlogEvent {
        @Override
        public String toString() {
            return "TableMap{tableId=" + tableId + ", table=" + database + "." + table + "}";
        }
    }

    /** The optional metadata of a table map, kept as the adapter decoded it. */
    interface TableMapMetadata {
        /** Whether {@code other} describes the same columns (names, charsets, keys, ...). */
        boolean sameAs(TableMapMetadata other);
    }

    /** What a rows event does to its rows. */
    enum RowsKind {
        WRITE,
        UPDATE,
        DELETE,
        /** The rows of a table the streamer does not decode: its row bytes were skipped. */
        SKIPPED,
        /**
         * A partial update (JSON diffs, not after images) of a table the streamer does not decode;
         * one it could not skip arrives as {@link Other}, to be refused.
         */
        SKIPPED_PARTIAL_UPDATE
    }

    /**
     * A rows event (v1 or v2) of the table {@code tableId}.
     *
     * @param includedColumns the columns present in each row (after images for updates); null for
     *     skipped rows
     * @param includedColumnsBefore the columns present in an update's before images, else null
     * @param rows the rows written or deleted, as the cell deserializers decoded them; empty for
     *     updates and skipped rows
     * @param updates an update's (before, after) pairs; empty for other kinds
     */
    record Rows(
            Header header,
            RowsKind kind,
            long tableId,
            @Nullable BitSet includedColumns,
            @Nullable BitSet includedColumnsBefore,
            List<Serializable[]> rows,
            List<Map.Entry<Serializable[], Serializable[]>> updates)
            implements BinlogEvent {
        @Override
        public String toString() {
            return "Rows{kind="
                    + kind
                    + ", tableId="
                    + tableId
                    + ", position="
                    + header.position()
                    + "}";
        }
    }

    /** A ROTATE event: the stream goes on in {@code binlogFilename} at {@code binlogPosition}. */
    record Rotate(Header header, String binlogFilename, long binlogPosition)
            implements BinlogEvent {}

    /**
     * An XA_PREPARE event: the XA transaction's part before it is prepared. {@code data} holds the
     * gtrid then the bqual, as written; {@code readable} is false when the library could not decode
     * the event's body.
     */
    record XaPrepare(
            Header header,
            boolean readable,
            boolean onePhase,
            int formatId,
            int gtridLength,
            int bqualLength,
            @Nullable byte[] data)
            implements BinlogEvent {
        @Override
        public String toString() {
            return "XaPrepare{position=" + header.position() + ", onePhase=" + onePhase + "}";
        }
    }

    /**
     * A TRANSACTION_PAYLOAD event: a compressed transaction whose inner events are read one at a
     * time; {@code inner} is null when the payload was not decoded by the streamer's deserializer.
     */
    record TransactionPayload(Header header, @Nullable InnerEvents inner) implements BinlogEvent {}

    /** The inner events of a compressed transaction, decoded as they are asked for. */
    interface InnerEvents {
        /** The next inner event, decoded now; null after the last. */
        @Nullable
        BinlogEvent next() throws IOException;
    }

    /** A FORMAT_DESCRIPTION event: the version of the server that wrote the file. */
    record FormatDescription(Header header, String serverVersion) implements BinlogEvent {}

    /** A HEARTBEAT event: the server is alive and has sent everything up to here. */
    record Heartbeat(Header header) implements BinlogEvent {}

    /**
     * Any other event, by its type's name (e.g. {@code ANONYMOUS_GTID}, {@code INCIDENT}, {@code
     * PREVIOUS_GTIDS}): assembly ignores it or halts on its type.
     */
    record Other(Header header, String type) implements BinlogEvent {}
}

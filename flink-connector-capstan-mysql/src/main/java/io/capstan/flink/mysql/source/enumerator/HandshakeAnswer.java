package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.event.BinlogSplitPauseEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitResumeEvent;

import org.apache.flink.api.connector.source.SourceEvent;

import java.util.ArrayList;
import java.util.Set;

/** The answer to the restore handshake of the reader holding the binlog split. */
sealed interface HandshakeAnswer {

    /** The tables the reader drops from the split before anything else. */
    Set<TableId> removed();

    /** The event that carries this answer to the reader. */
    SourceEvent toReader();

    /** Stream on (without {@code removed}). */
    record Resume(Set<TableId> removed) implements HandshakeAnswer {
        @Override
        public SourceEvent toReader() {
            return new BinlogSplitResumeEvent(new ArrayList<>(removed), null);
        }
    }

    /** Stop at the next transaction boundary (without {@code removed}) and report P. */
    record Pause(Set<TableId> removed) implements HandshakeAnswer {
        @Override
        public SourceEvent toReader() {
            return new BinlogSplitPauseEvent(new ArrayList<>(removed));
        }
    }
}

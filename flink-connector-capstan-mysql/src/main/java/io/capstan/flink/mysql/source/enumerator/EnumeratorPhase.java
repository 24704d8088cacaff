package io.capstan.flink.mysql.source.enumerator;

import org.apache.flink.annotation.Internal;

/**
 * Where the enumerator is, as its {@link EnumeratorState} reports it (to metrics, logs and the
 * enumerator's I/O). A new job starts in {@link #RESOLVING_TABLES} (the snapshot modes) or {@link
 * #PREPARING_BINLOG_SPLIT} (the stream-only modes: no table to snapshot); a restored one starts
 * where its checkpoint says.
 *
 * <pre>
 * snapshot modes:  RESOLVING_TABLES -> SNAPSHOTTING -> AWAITING_HANDOFF_CHECKPOINT -> STREAMING
 *                                                  \-> FINISHED (bounded {@code snapshot} mode)
 * stream-only:     PREPARING_BINLOG_SPLIT -> BINLOG_SPLIT_READY -> STREAMING
 * restored:        STREAMING -> ADDING_TABLES -> STREAMING  (tables added to the list)
 * </pre>
 *
 * <p>Reopened or returned chunks lead from AWAITING_HANDOFF_CHECKPOINT or FINISHED back to
 * SNAPSHOTTING; a binlog split returned by a failed reader leads from STREAMING back to
 * AWAITING_HANDOFF_CHECKPOINT (or SNAPSHOTTING) while the enumerator still keeps the finished
 * chunks, else to BINLOG_SPLIT_READY.
 *
 * <p>A restored STREAMING job answers its binlog reader's restore handshake first; when the
 * configured list selects tables the split does not capture (and {@code
 * scan.newly-added-table.enabled}), it goes to ADDING_TABLES and back (docs/adr/0009).
 */
@Internal
public enum EnumeratorPhase {
    /** Snapshot modes: the tables, their chunk keys and schema fingerprints are being resolved. */
    RESOLVING_TABLES,
    /** Chunks are planned a few ahead of the readers, handed out and completed. */
    SNAPSHOTTING,
    /**
     * Every chunk is finished; the binlog split, built from the finished chunks, goes out once a
     * checkpoint holding every completion has completed (not needed at parallelism 1, or when the
     * readers report that the job does not checkpoint).
     */
    AWAITING_HANDOFF_CHECKPOINT,
    /**
     * Bounded {@code snapshot} mode: every chunk is finished, every reader is told no more splits.
     */
    FINISHED,
    /**
     * Stream-only modes: the binlog split is being planned (a new job) or its preflight re-run (a
     * split restored before it went out), off the coordinator thread, before it is handed out.
     */
    PREPARING_BINLOG_SPLIT,
    /** The binlog split is ready and goes to the next reader that asks. */
    BINLOG_SPLIT_READY,
    /** A reader holds the binlog split; every other reader is told no more splits. */
    STREAMING,
    /**
     * A restored job snapshots tables added to its list: the reader holding the binlog split pauses
     * it at a transaction boundary P, the added tables' chunks go to any reader that asks (each
     * read at a G that holds P), and once every chunk is finished and a checkpoint that follows the
     * last completion has completed, the split resumes from P with the added tables and their
     * finished chunks in its gate.
     */
    ADDING_TABLES;

    /** A snapshot phase, before the binlog split with its gate is handed out. */
    boolean precedesHandoff() {
        return this == RESOLVING_TABLES
                || this == SNAPSHOTTING
                || this == AWAITING_HANDOFF_CHECKPOINT;
    }
}

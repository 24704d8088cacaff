package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.event.BinlogPausedEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitRestoredEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.api.connector.source.SourceEvent;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The reader's side of the restore handshake (task thread only): a restored binlog split streams
 * only once the enumerator answered its {@link BinlogSplitRestoredEvent}, because the configured
 * table list may have changed and the split's own list is what the job captures. Until then, and
 * while it pauses at a transaction boundary P for tables being added, the split is held here and
 * checkpointed as it stands.
 *
 * <p>Its table list changes only at a transaction boundary: a partial transaction's count of rows
 * already emitted counts rows of the tables captured when it was taken. Inside one, the split first
 * streams to the transaction's end with its tables as they are ({@link BinlogBoundaryStop}), then
 * restarts there without the removed tables, or is held there (P).
 */
final class HeldBinlogSplit {

    private static final Logger LOG = LoggerFactory.getLogger(HeldBinlogSplit.class);

    private final BinlogBoundaryStop stop;
    private final Consumer<BinlogSplit> stream;
    private final Consumer<SourceEvent> toEnumerator;
    private final Runnable askForChunks;

    /** The split not streaming: restored and unanswered, or paused at P. */
    @Nullable private BinlogSplit held;

    /** Tables that leave the binlog split once it stops at the transaction boundary. */
    private Set<TableId> leavingAtBoundary = Set.of();

    /** Once stopped at the boundary, the split is held there (tables are added). */
    private boolean pauseAtBoundary;

    /**
     * @param stop shared with the binlog fetcher
     * @param stream hands a split to the fetcher to stream
     * @param toEnumerator sends an event to the enumerator
     * @param askForChunks lets the reader ask for splits again while the split is paused
     */
    HeldBinlogSplit(
            BinlogBoundaryStop stop,
            Consumer<BinlogSplit> stream,
            Consumer<SourceEvent> toEnumerator,
            Runnable askForChunks) {
        this.stop = stop;
        this.stream = stream;
        this.toEnumerator = toEnumerator;
        this.askForChunks = askForChunks;
    }

    /** Restored from a checkpoint (before the reader starts). */
    void restored(BinlogSplit split) {
        held = split;
    }

    /** The reader started: the handshake. The enumerator answers, or fails the job by name. */
    void readerStarted() {
        if (held != null) {
            toEnumerator.accept(new BinlogSplitRestoredEvent(held.tables()));
        }
    }

    /** The split as the reader checkpoints it while it does not stream. */
    Optional<BinlogSplit> held() {
        return Optional.ofNullable(held);
    }

    /**
     * The enumerator's answer to the handshake: the split streams, without the tables the
     * configured list no longer selects.
     */
    void resume(List<TableId> removed) {
        BinlogSplit split = take("resume");
        Set<TableId> leaving = leaving(split, removed);
        if (leaving.isEmpty()) {
            stream.accept(split);
        } else if (split.start().partialGtid() == null) {
            stream.accept(split.withoutTables(leaving));
        } else {
            stopAtBoundary(split, leaving, false);
        }
    }

    /**
     * The enumerator adds tables: the split is held at a transaction boundary P (reached first if
     * it stands inside a partial transaction), without the tables the list no longer selects.
     */
    void pause(List<TableId> removed) {
        BinlogSplit split = take("pause");
        Set<TableId> leaving = leaving(split, removed);
        if (split.start().partialGtid() == null) {
            holdPaused(split.withoutTables(leaving));
        } else {
            stopAtBoundary(split, leaving, true);
        }
    }

    /** The paused split goes on from P with the added tables and their gate entries. */
    void resumeWithAddedTables(BinlogSplit added) {
        BinlogSplit split = take("resume with added tables");
        LOG.info(
                "Binlog split resumes at its pause with {} added table(s): {}",
                added.tables().size(),
                added.tables());
        stream.accept(split.withAddedTables(added));
    }

    /** The binlog split stopped at a transaction boundary: it goes on (or waits) from there. */
    void stoppedAtBoundary(BinlogSplit stopped) {
        stop.clear();
        BinlogSplit atBoundary = stopped.withoutTables(leavingAtBoundary);
        leavingAtBoundary = Set.of();
        if (pauseAtBoundary) {
            pauseAtBoundary = false;
            holdPaused(atBoundary);
            return;
        }
        LOG.info("Binlog split restarts at a transaction boundary");
        stream.accept(atBoundary);
    }

    /**
     * The held split, for the enumerator's answer. The enumerator answers only the reader that
     * asked (a restarted reader asks again), so an answer with no split held means the two sides
     * are out of step: the task fails and restarts from its checkpoint rather than leave a split
     * that nobody streams.
     */
    private BinlogSplit take(String what) {
        BinlogSplit split = held;
        if (split == null) {
            throw new IllegalStateException(
                    "the enumerator sent a binlog split " + what + " but this reader holds none");
        }
        held = null;
        return split;
    }

    private static Set<TableId> leaving(BinlogSplit split, List<TableId> removed) {
        Set<TableId> leaving = new TreeSet<>(removed);
        leaving.retainAll(split.tables());
        for (TableId table : leaving) {
            LOG.info(
                    "Table {} leaves the binlog split: the configured table list no longer selects"
                            + " it; its changes are not emitted from the split's position on",
                    table);
        }
        return leaving;
    }

    private void stopAtBoundary(BinlogSplit split, Set<TableId> leaving, boolean pause) {
        leavingAtBoundary = leaving;
        pauseAtBoundary = pause;
        stop.request();
        stream.accept(split);
    }

    /** Holds the split at P, reports P, and lets the reader ask for the added tables' chunks. */
    private void holdPaused(BinlogSplit atP) {
        held = atP;
        LOG.info(
                "Binlog split paused at {} while tables are added",
                BinlogPositionAxis.readable(atP.start().processed()));
        toEnumerator.accept(new BinlogPausedEvent(atP.start().processed()));
        askForChunks.run();
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.CapstanSplit;

import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.capstan.flink.mysql.source.enumerator.EnumeratorFailures.fail;

/**
 * The restore handshake of the reader that holds a restored binlog split (docs/adr/0009): the
 * server is asked which of the split's tables the configured list still selects and which it now
 * adds, and the reader is told to stream on without the removed ones or to pause while the added
 * ones are snapshotted.
 *
 * <p>Guarantees: every handshake is answered or fails the job by name, so a reader never waits for
 * ever (Flink delivers the events or fails the tasks); an answer computed for a reader that has
 * since been replaced by a restarted one is not sent, because the new reader asks again. Runs on
 * the coordinator thread; the server is asked on the worker.
 */
final class RestoredSplitHandshake {

    private static final Logger LOG = LoggerFactory.getLogger(CapstanEnumerator.class);

    private final SplitEnumeratorContext<CapstanSplit> context;
    private final SnapshotPlanning planning;
    private final SplitAssignmentTracker tracker;

    /** Registrations per subtask: a registration after the first is a restarted reader. */
    private final Map<Integer, Integer> registrations = new HashMap<>();

    RestoredSplitHandshake(
            SplitEnumeratorContext<CapstanSplit> context,
            SnapshotPlanning planning,
            SplitAssignmentTracker tracker) {
        this.context = context;
        this.planning = planning;
        this.tracker = tracker;
    }

    void readerRegistered(int subtask) {
        registrations.merge(subtask, 1, Integer::sum);
    }

    /**
     * {@code subtask} restored a binlog split of {@code tables}; {@code answered} runs once its
     * answer has been sent.
     */
    void restored(int subtask, List<TableId> tables, Runnable answered) {
        int asker = registrations.getOrDefault(subtask, 0);
        context.callAsync(
                () -> planning.checkRestoredSplit(tables),
                (check, error) -> {
                    if (answer(subtask, asker, tables, check, error)) {
                        answered.run();
                    }
                });
    }

    /** True when the answer was sent; false when the asker has been replaced meanwhile. */
    private boolean answer(
            int subtask,
            int asker,
            List<TableId> inSplit,
            @Nullable SnapshotPlanning.RestoredSplitCheck check,
            @Nullable Throwable error) {
        if (error != null) {
            throw fail("cannot resume the restored binlog split", error);
        }
        if (!context.registeredReaders().containsKey(subtask)
                || registrations.getOrDefault(subtask, 0) != asker) {
            // Its restart restores the split and asks again: that question is answered. This
            // answer would reach the restarted reader as a second one (or nowhere).
            LOG.info(
                    "Subtask {} restarted since it asked about its binlog split: it asks again",
                    subtask);
            return false;
        }
        for (TableId table : check.removed()) {
            LOG.info(
                    "Table {} is no longer selected by the configured table list: it leaves the"
                            + " binlog split",
                    table);
        }
        HandshakeAnswer answer;
        try {
            answer =
                    tracker.restoredSplitChecked(
                            subtask,
                            inSplit,
                            check.removed(),
                            check.added(),
                            context.currentParallelism());
        } catch (RuntimeException e) {
            throw fail("cannot resume the restored binlog split", e);
        }
        context.sendEventToSourceReader(subtask, answer.toReader());
        return true;
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the binlog split (off the coordinator thread) and hands it to the first reader that asks;
 * readers that ask later are told no more splits will come.
 *
 * <p>All fields are touched only on the coordinator thread: the planner's I/O runs in
 * {@code callAsync} and only its result handler changes state.
 */
public final class CapstanEnumerator implements SplitEnumerator<CapstanSplit, EnumState> {

    private static final Logger LOG = LoggerFactory.getLogger(CapstanEnumerator.class);

    private final SplitEnumeratorContext<CapstanSplit> context;
    private final BinlogSplitPlanner planner;

    @Nullable private BinlogSplit unassignedBinlogSplit;
    private boolean binlogSplitAssigned;
    /** True once the split is planned and checked, so it may be handed out. */
    private boolean ready;
    /** Readers that asked before the split was ready, in order of asking. */
    private final Set<Integer> waitingReaders = new LinkedHashSet<>();

    public CapstanEnumerator(
            SplitEnumeratorContext<CapstanSplit> context, BinlogSplitPlanner planner, EnumState state) {
        this.context = context;
        this.planner = planner;
        this.unassignedBinlogSplit = state.unassignedBinlogSplit();
        this.binlogSplitAssigned = state.binlogSplitAssigned();
    }

    @Override
    public void start() {
        if (binlogSplitAssigned) {
            ready = true; // a reader holds the split and resumes it from its own state
        } else if (unassignedBinlogSplit == null) {
            context.callAsync(planner::planNewSplit, this::onPlanned);
        } else {
            BinlogSplit restored = unassignedBinlogSplit;
            context.callAsync(
                    () -> {
                        planner.verifyBeforeAssigning(restored);
                        return restored;
                    },
                    this::onPlanned);
        }
    }

    private void onPlanned(@Nullable BinlogSplit split, @Nullable Throwable error) {
        if (error != null) {
            Throwable cause = unwrap(error);
            LOG.error("capstan-mysql cannot start streaming: {}", cause.getMessage());
            // Thrown from the handler, this fails the job with the cause (e.g. a preflight halt).
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new FlinkRuntimeException("capstan-mysql could not plan the binlog split", cause);
        }
        unassignedBinlogSplit = split;
        ready = true;
        for (Iterator<Integer> it = waitingReaders.iterator(); it.hasNext(); ) {
            int subtask = it.next();
            it.remove();
            if (context.registeredReaders().containsKey(subtask)) {
                answer(subtask);
            }
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        if (!ready) {
            waitingReaders.add(subtaskId);
            return;
        }
        answer(subtaskId);
    }

    private void answer(int subtaskId) {
        if (unassignedBinlogSplit != null) {
            LOG.info("Assigning {} to subtask {}", unassignedBinlogSplit, subtaskId);
            context.assignSplit(unassignedBinlogSplit, subtaskId);
            unassignedBinlogSplit = null;
            binlogSplitAssigned = true;
        } else {
            // The one binlog split is out: this reader will never get a split.
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<CapstanSplit> splits, int subtaskId) {
        // Only splits assigned after the last successful checkpoint come back; hand them out again.
        for (CapstanSplit split : splits) {
            switch (split.kind()) {
                case BINLOG:
                    LOG.info("Binlog split returned by subtask {}", subtaskId);
                    unassignedBinlogSplit = split.asBinlogSplit();
                    binlogSplitAssigned = false;
                    break;
                default:
                    throw new IllegalStateException(split.kind() + " splits are not supported yet");
            }
        }
        if (ready && unassignedBinlogSplit != null && !waitingReaders.isEmpty()) {
            Integer first = waitingReaders.iterator().next();
            waitingReaders.remove(first);
            answer(first);
        }
    }

    @Override
    public void addReader(int subtaskId) {
        // Pull model: readers ask with sendSplitRequest() when they start.
    }

    @Override
    public EnumState snapshotState(long checkpointId) {
        return new EnumState(unassignedBinlogSplit, binlogSplitAssigned);
    }

    @Override
    public void close() {}

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}

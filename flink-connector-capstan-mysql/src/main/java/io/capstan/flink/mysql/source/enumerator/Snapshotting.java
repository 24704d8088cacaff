package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The snapshot of the resolved tables: chunks are planned a few ahead of the readers, handed out
 * and completed. Its phase follows from the book: {@link EnumeratorPhase#SNAPSHOTTING} until every
 * chunk is finished, then {@link EnumeratorPhase#AWAITING_HANDOFF_CHECKPOINT} ({@code initial}: the
 * binlog split goes out to the next reader that asks once the handoff is allowed) or {@link
 * EnumeratorPhase#FINISHED} ({@code snapshot}: every reader is told no more splits). Reopened or
 * returned chunks lead back to SNAPSHOTTING.
 */
record Snapshotting(SnapshotBook chunks, AfterSnapshot after) implements EnumeratorState {

    private static final Logger LOG = LoggerFactory.getLogger(Snapshotting.class);

    Snapshotting {
        Objects.requireNonNull(chunks, "chunks");
        Objects.requireNonNull(after, "after");
    }

    @Override
    public EnumeratorPhase phase() {
        if (!chunks.allFinished()) {
            return EnumeratorPhase.SNAPSHOTTING;
        }
        return after == AfterSnapshot.END
                ? EnumeratorPhase.FINISHED
                : EnumeratorPhase.AWAITING_HANDOFF_CHECKPOINT;
    }

    @Override
    public Optional<SnapshotBook> book() {
        return Optional.of(chunks);
    }

    /** The intersection of the G of the chunks finished so far, in {@code initial} mode. */
    @Override
    public Optional<GtidSet> handoffStartSoFar() {
        return after == AfterSnapshot.STREAM ? chunks.startSoFar() : Optional.empty();
    }

    @Override
    public Transition<Optional<SplitReply>> answer(
            int subtask, int parallelism, AssignmentContext ctx) {
        EnumeratorPhase phase = phase();
        if (phase == EnumeratorPhase.FINISHED) {
            // Not before every completion is in (and acknowledged; SNAPSHOTTING waits): a reader
            // told "no more splits" ends once its chunks are emitted, and an acknowledgement sent
            // to an ended reader fails the job (Flink: "An OperatorEvent ... was lost"). Readers
            // ask while they still hold chunks (SplitRequestPacer), so the answer waits for them.
            return Transition.stay(this, Optional.of(new SplitReply.NoMoreSplits(subtask)));
        }
        Optional<SnapshotChunkSplit> chunk = ctx.takePendingFor(chunks, subtask);
        if (chunk.isPresent()) {
            return Transition.stay(this, Optional.of(new SplitReply.Assign(subtask, chunk.get())));
        }
        if (phase == EnumeratorPhase.SNAPSHOTTING
                || !ctx.checkpoints().handoffAllowed(parallelism)) {
            return Transition.stay(this, Optional.empty());
        }
        List<TableId> tables = new ArrayList<>();
        chunks.keys().forEach(k -> tables.add(k.table()));
        BinlogSplit split =
                new BinlogSplit(
                        tables,
                        BinlogStartPosition.of(chunks.binlogStart()),
                        chunks.gate(),
                        StreamOrigin.AFTER_SNAPSHOT);
        LOG.info(
                "Snapshot finished: {} chunks, {} rows; handing over to the binlog",
                chunks.finishedCount(),
                chunks.rowCount());
        return new Transition<>(
                Streaming.assigned(chunks, ctx),
                Optional.of(new SplitReply.Assign(subtask, split)));
    }
}

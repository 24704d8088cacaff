package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;

/**
 * One run of {@link EnumeratorPhase#ADDING_TABLES}: which reader holds the paused binlog split,
 * where it paused (P, once it said), and the rules between P and the added tables' chunks. Pure;
 * the {@link SplitAssignmentTracker} owns the chunks' {@link SnapshotBook}.
 *
 * <p>Why exact: the split emitted every change of its tables up to P and nothing past it. Every
 * chunk of an added table is read at a G that holds P; the split resumes from P with the chunks in
 * its gate, so a change after P that a chunk already shows (its transaction in that chunk's G, its
 * key in that chunk's range) is dropped and every other one is emitted: the same argument as the
 * first handoff's, with P in place of the intersection of every G (docs/adr/0009).
 */
final class TableAddition {

    private final int holder;
    private final List<TableId> tables;
    @Nullable private GtidSet pausedAt;

    /**
     * @param holder the subtask whose reader holds the binlog split
     * @param tables the tables being added
     */
    TableAddition(int holder, List<TableId> tables) {
        this.holder = holder;
        this.tables = List.copyOf(tables);
    }

    int holder() {
        return holder;
    }

    List<TableId> tables() {
        return tables;
    }

    /** P, once the holder reported it. */
    Optional<GtidSet> pausedAt() {
        return Optional.ofNullable(pausedAt);
    }

    /**
     * The holder's split stopped at P.
     *
     * @param startSoFar the intersection of the G of the added tables' chunks finished so far
     * @throws CapstanHaltException {@code data_gap} when a chunk was read without all of P
     */
    void paused(GtidSet p, Optional<GtidSet> startSoFar) {
        pausedAt = p;
        startSoFar.ifPresent(this::requireChunksHoldPause);
    }

    /**
     * Every finished chunk must be read at a G that holds P: the resumed split never reads P's
     * transactions again, so a chunk missing one of them would miss its change for good. The
     * server's history went back (e.g. RESET MASTER, another server behind the address).
     */
    void requireChunksHoldPause(GtidSet startSoFar) {
        if (pausedAt == null || startSoFar.containsAll(pausedAt)) {
            return;
        }
        GtidSet missing = pausedAt.subtract(startSoFar);
        throw new CapstanHaltException(
                HaltReason.DATA_GAP,
                "a chunk of a table added to the job was read at a position that lacks "
                        + missing.transactionCount()
                        + " transaction(s) the binlog split already processed ("
                        + missing
                        + "): the server's history does not hold the split's position (was it"
                        + " reset, or is another server behind the address?). Remedy: start the job"
                        + " without state (a new snapshot).");
    }

    /**
     * What the held split gets once every added chunk is finished and the handoff's checkpoint rule
     * allows it: the added tables at P with the gate of their finished chunks.
     */
    Optional<BinlogSplit> resumeWith(SnapshotBook book, boolean checkpointAllows) {
        if (pausedAt == null || !book.allFinished() || !checkpointAllows) {
            return Optional.empty();
        }
        return Optional.of(new BinlogSplit(tables, BinlogStartPosition.of(pausedAt), book.gate()));
    }
}

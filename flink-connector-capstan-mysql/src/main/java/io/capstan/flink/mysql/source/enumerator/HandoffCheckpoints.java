package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import java.util.OptionalLong;

/**
 * The checkpoint side of the snapshot-to-binlog handoff: whether a completed checkpoint holds every
 * chunk completion, and whether the handoff may go without one. Pure; used on the coordinator
 * thread only.
 *
 * <p>Why the checkpoint: records of one key may travel through different reader subtasks; only a
 * completed checkpoint whose barriers followed every chunk's rows proves that all of them reached
 * every downstream operator before the first binlog record is emitted, and that no chunk will be
 * read again (a restore goes back at most to that checkpoint). With parallelism 1 one subtask keeps
 * the order; without checkpointing there is nothing to wait for (see docs/snapshot.md).
 *
 * <p>A checkpoint mark is the id of the last checkpoint the enumerator took at some moment; empty
 * when it had taken none, so that every checkpoint completing later follows it.
 */
final class HandoffCheckpoints {

    private OptionalLong lastTaken;

    /** The latest completion (or drop) is in every checkpoint with a larger id than this. */
    private OptionalLong latestChangeAfter;

    /** A completed checkpoint holds every completion. */
    private boolean confirmed;

    /**
     * The readers said the job does not checkpoint (they read it from the job configuration). Until
     * a reader has said, checkpointing counts as enabled: the safe order.
     */
    private boolean readersSaidNoCheckpointing;

    private HandoffCheckpoints(
            OptionalLong lastTaken, OptionalLong latestChangeAfter, boolean confirmed) {
        this.lastTaken = lastTaken;
        this.latestChangeAfter = latestChangeAfter;
        this.confirmed = confirmed;
    }

    static HandoffCheckpoints none() {
        return new HandoffCheckpoints(OptionalLong.empty(), OptionalLong.empty(), false);
    }

    /**
     * Restored from a completed checkpoint (the last one taken): if it held every completion and
     * every chunk is finished, it confirms them.
     */
    static HandoffCheckpoints restored(
            OptionalLong lastTaken, OptionalLong latestChangeAfter, boolean allFinished) {
        boolean holdsAll =
                lastTaken.isPresent() && follows(lastTaken.getAsLong(), latestChangeAfter);
        return new HandoffCheckpoints(lastTaken, latestChangeAfter, allFinished && holdsAll);
    }

    /** Whether checkpoint {@code id} was taken after the moment {@code mark} was recorded. */
    static boolean follows(long id, OptionalLong mark) {
        return mark.isEmpty() || id > mark.getAsLong();
    }

    void taken(long checkpointId) {
        lastTaken = OptionalLong.of(checkpointId);
    }

    OptionalLong lastTaken() {
        return lastTaken;
    }

    OptionalLong latestChangeAfter() {
        return latestChangeAfter;
    }

    /** A completion arrived, was replaced or dropped: only a later checkpoint confirms it. */
    void completionsChanged() {
        latestChangeAfter = lastTaken;
        confirmed = false;
    }

    /** Returns true when checkpoint {@code id}, now complete, newly confirms every completion. */
    boolean checkpointCompleted(long id, boolean allFinished) {
        if (confirmed || !allFinished || !follows(id, latestChangeAfter)) {
            return false;
        }
        confirmed = true;
        return true;
    }

    /**
     * What the readers see of the job's checkpointing; {@code handoffAhead} when the binlog split
     * with its gate is still to be handed out after a snapshot.
     *
     * @throws CapstanHaltException {@code invalid_configuration} for unaligned checkpoints at
     *     parallelism > 1 while the handoff is ahead and not yet confirmed: a barrier that
     *     overtakes records no longer proves that every chunk's rows were processed downstream
     *     before the first binlog record. A confirmed handoff stands: on a restore the enumerator's
     *     and the readers' states come from the same checkpoint, which holds every completion.
     */
    void readersReported(
            boolean checkpointingEnabled,
            boolean unaligned,
            boolean handoffAhead,
            int parallelism) {
        if (checkpointingEnabled && unaligned && handoffAhead && !confirmed && parallelism > 1) {
            throw new CapstanHaltException(
                    HaltReason.INVALID_CONFIGURATION,
                    "unaligned checkpoints ('execution.checkpointing.unaligned.enabled') cannot"
                            + " carry the snapshot's handoff to the binlog at parallelism "
                            + parallelism
                            + ": a checkpoint must prove that every chunk's rows were processed"
                            + " downstream before the first binlog change; set"
                            + " 'execution.checkpointing.unaligned.enabled' to false until the"
                            + " snapshot is done (a restore from a checkpoint taken after its last"
                            + " chunk finished may enable it), or run the source at parallelism 1");
        }
        readersSaidNoCheckpointing = !checkpointingEnabled;
    }

    boolean confirmed() {
        return confirmed;
    }

    /** Whether the binlog split may follow the finished chunks now. */
    boolean handoffAllowed(int parallelism) {
        return confirmed || parallelism == 1 || readersSaidNoCheckpointing;
    }
}

package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.source.split.CapstanSplit;

import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.capstan.flink.mysql.source.enumerator.EnumeratorFailures.fail;

/**
 * While an {@code initial} snapshot (or a table addition) runs, looks every period at the server's
 * {@code gtid_purged} and binlog retention, so that a purge of the binlog the handoff will start
 * from fails the job by name at once instead of at the handoff ({@link HandoffStartWatch}), and
 * feeds the snapshot's retention estimate ({@link SnapshotRetentionMonitor}).
 *
 * <p>The look runs on the enumerator's worker; everything else on the coordinator thread. A failed
 * look is not a gap: the next period asks again. Once the job streams, looking stops.
 */
final class HandoffStartWatcher {

    private static final Logger LOG = LoggerFactory.getLogger(CapstanEnumerator.class);

    private final SplitEnumeratorContext<CapstanSplit> context;
    private final SnapshotPlanning planning;
    private final SplitAssignmentTracker tracker;
    private final SnapshotRetentionMonitor retention;
    private final long periodMillis;

    /** Set on the coordinator thread, read by the worker: whether a look still asks the server. */
    private volatile boolean watching;

    HandoffStartWatcher(
            SplitEnumeratorContext<CapstanSplit> context,
            SnapshotPlanning planning,
            SplitAssignmentTracker tracker,
            SnapshotRetentionMonitor retention,
            Duration period,
            boolean watching) {
        this.context = context;
        this.planning = planning;
        this.tracker = tracker;
        this.retention = retention;
        this.periodMillis = period.toMillis();
        this.watching = watching;
    }

    boolean watching() {
        return watching;
    }

    /** Starts the periodic look of a job that watches from its start. */
    void start() {
        if (watching) {
            context.callAsync(this::look, this::onLooked, periodMillis, periodMillis);
        }
    }

    /** While adding tables: the binlog from the pause on must stay on the server. */
    void watchPauseStart() {
        if (!watching) {
            watching = true;
            start();
        }
    }

    /** Starts the snapshot's duration estimate and asks for its row estimate and retention. */
    void estimateSnapshot(SnapshotBook book) {
        retention.snapshotRuns(book);
        List<ChunkKey> keys = book.keys();
        context.callAsync(() -> planning.retentionFacts(keys), retention::factsRead);
    }

    /** gtid_purged and the binlog retention while the snapshot runs; null (no query) after. */
    @Nullable
    private HandoffStartLook look() throws Exception {
        return watching ? HandoffStartLook.take(planning) : null;
    }

    private void onLooked(@Nullable HandoffStartLook look, @Nullable Throwable error) {
        if (look != null && look.facts() != null) {
            retention.factsRead(look.facts(), null);
        }
        onPurgedChecked(look == null ? null : look.purged(), error);
    }

    private void onPurgedChecked(@Nullable GtidSet purged, @Nullable Throwable error) {
        if (error instanceof CapstanHaltException) {
            throw fail("cannot finish the snapshot", error); // never swallowed as a failed look
        }
        if (error != null) {
            LOG.warn(
                    "Could not read gtid_purged to watch the handoff's start: {}",
                    error.toString());
            return;
        }
        if (tracker.phase() == EnumeratorPhase.STREAMING
                || tracker.phase() == EnumeratorPhase.FINISHED) {
            watching = false; // the handoff happened (or a restore is past it)
            planning.close(); // the look just taken reopened the connection: nothing more to ask
            return;
        }
        Optional<GtidSet> start = tracker.handoffStartSoFar();
        if (purged != null && start.isPresent()) {
            try {
                HandoffStartWatch.requireAvailable(start.get(), purged, planning.serverAddress());
            } catch (RuntimeException e) {
                throw fail("cannot finish the snapshot", e);
            }
        }
    }
}

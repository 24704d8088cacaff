package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.MetricGroup;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The enumerator's snapshot metrics under the names Flink CDC's {@code mysql-cdc} source registers
 * on its enumerator, so that dashboards built for it keep working: whether the source is
 * snapshotting or streaming, tables and snapshot splits (chunks) processed, remaining and finished,
 * in total and per table in the group {@code namespace.<database>.schema.<empty>.table.<table>};
 * and, for an {@code initial} snapshot, its estimated remaining and total duration beside the
 * server's binlog retention ({@link SnapshotRetentionMonitor}).
 *
 * <p>{@link #refresh} runs on the coordinator thread after each change of the enumerator's state
 * and publishes plain values; the reporter thread reads only those. Chunks are planned a few ahead
 * of the readers, so "remaining" counts chunks planned and not yet handed out, never the ones not
 * planned yet (Flink CDC plans every split of a table before handing any out).
 */
@Internal
public final class CapstanEnumeratorMetrics {

    public static final String IS_SNAPSHOTTING = "isSnapshotting";
    public static final String IS_STREAM_READING = "isStreamReading";
    public static final String NUM_TABLES_SNAPSHOTTED = "numTablesSnapshotted";
    public static final String NUM_TABLES_REMAINING = "numTablesRemaining";
    public static final String NUM_SNAPSHOT_SPLITS_PROCESSED = "numSnapshotSplitsProcessed";
    public static final String NUM_SNAPSHOT_SPLITS_REMAINING = "numSnapshotSplitsRemaining";
    public static final String NUM_SNAPSHOT_SPLITS_FINISHED = "numSnapshotSplitsFinished";
    public static final String SNAPSHOT_START_TIME = "snapshotStartTime";
    public static final String SNAPSHOT_END_TIME = "snapshotEndTime";

    /** Seconds to the snapshot's estimated end; -1 while unknown, 0 once every chunk is read. */
    public static final String SNAPSHOT_ESTIMATED_REMAINING_SECONDS =
            "snapshotEstimatedRemainingSeconds";

    /** Seconds from the snapshot's start to its estimated end; -1 while unknown. */
    public static final String SNAPSHOT_ESTIMATED_DURATION_SECONDS =
            "snapshotEstimatedDurationSeconds";

    /** The server's binlog retention; 0: no automatic purge, -1 while unknown. */
    public static final String BINLOG_RETENTION_SECONDS = "binlogRetentionSeconds";

    public static final String NAMESPACE_GROUP = "namespace";
    public static final String SCHEMA_GROUP = "schema";
    public static final String TABLE_GROUP = "table";

    private final MetricGroup group;
    private final LongSupplier clock;

    /** Coordinator thread only. */
    private final Map<TableId, TableSnapshotGauges> tables = new HashMap<>();

    private volatile int snapshotting;
    private volatile int streamReading;
    private volatile int tablesSnapshotted;
    private volatile int tablesRemaining;
    private volatile int splitsProcessed;
    private volatile int splitsRemaining;
    private volatile int splitsFinished;
    private volatile long estimatedRemainingSeconds = -1;
    private volatile long estimatedDurationSeconds = -1;
    private volatile long retentionSeconds = -1;

    /**
     * @param group the enumerator's metric group
     * @param clock wall-clock milliseconds, for the snapshot start and end times
     */
    public CapstanEnumeratorMetrics(MetricGroup group, LongSupplier clock) {
        this.group = group;
        this.clock = clock;
        group.gauge(IS_SNAPSHOTTING, () -> snapshotting);
        group.gauge(IS_STREAM_READING, () -> streamReading);
        group.gauge(NUM_TABLES_SNAPSHOTTED, () -> tablesSnapshotted);
        group.gauge(NUM_TABLES_REMAINING, () -> tablesRemaining);
        group.gauge(NUM_SNAPSHOT_SPLITS_PROCESSED, () -> splitsProcessed);
        group.gauge(NUM_SNAPSHOT_SPLITS_REMAINING, () -> splitsRemaining);
        group.gauge(NUM_SNAPSHOT_SPLITS_FINISHED, () -> splitsFinished);
        group.gauge(SNAPSHOT_ESTIMATED_REMAINING_SECONDS, () -> estimatedRemainingSeconds);
        group.gauge(SNAPSHOT_ESTIMATED_DURATION_SECONDS, () -> estimatedDurationSeconds);
        group.gauge(BINLOG_RETENTION_SECONDS, () -> retentionSeconds);
    }

    /** Publishes the snapshot's duration estimate and the retention ({@code -1}: unknown). */
    void retention(long remainingSeconds, long durationSeconds, long retentionSeconds) {
        this.estimatedRemainingSeconds = remainingSeconds;
        this.estimatedDurationSeconds = durationSeconds;
        this.retentionSeconds = retentionSeconds;
    }

    /**
     * Publishes the enumerator's state. Once the book is gone (after the handoff) the per-table
     * values keep their last state.
     */
    void refresh(EnumeratorPhase phase, Optional<SnapshotBook> book) {
        snapshotting = phase.precedesHandoff() || phase == EnumeratorPhase.ADDING_TABLES ? 1 : 0;
        streamReading = phase == EnumeratorPhase.STREAMING ? 1 : 0;
        if (book.isEmpty()) {
            return;
        }
        List<SnapshotBook.TableChunkCounts> counts = book.get().chunkCounts();
        int done = 0;
        int processed = 0;
        int remaining = 0;
        int finished = 0;
        for (SnapshotBook.TableChunkCounts c : counts) {
            TableSnapshotGauges t =
                    tables.computeIfAbsent(
                            c.table(), id -> new TableSnapshotGauges(id, clock.getAsLong()));
            boolean tableDone = t.update(c, clock);
            done += tableDone ? 1 : 0;
            processed += c.planned() - c.pending();
            remaining += c.pending();
            finished += c.finished();
        }
        tablesSnapshotted = done;
        tablesRemaining = counts.size() - done;
        splitsProcessed = processed;
        splitsRemaining = remaining;
        splitsFinished = finished;
    }

    /** One table's gauges, in its namespace group. */
    private final class TableSnapshotGauges {
        private volatile int processed;
        private volatile int remaining;
        private volatile int finished;
        private final long startTime;
        private volatile long endTime;

        TableSnapshotGauges(TableId table, long startTime) {
            this.startTime = startTime;
            MetricGroup g =
                    group.addGroup(NAMESPACE_GROUP, table.database())
                            .addGroup(SCHEMA_GROUP, "")
                            .addGroup(TABLE_GROUP, table.table());
            g.gauge(NUM_SNAPSHOT_SPLITS_PROCESSED, () -> processed);
            g.gauge(NUM_SNAPSHOT_SPLITS_REMAINING, () -> remaining);
            g.gauge(NUM_SNAPSHOT_SPLITS_FINISHED, () -> finished);
            g.gauge(SNAPSHOT_START_TIME, () -> this.startTime);
            g.gauge(SNAPSHOT_END_TIME, () -> endTime);
        }

        /** Returns whether every chunk of the table is finished. */
        boolean update(SnapshotBook.TableChunkCounts c, LongSupplier clock) {
            processed = c.planned() - c.pending();
            remaining = c.pending();
            finished = c.finished();
            boolean done = c.planningFinished() && c.pending() == 0 && c.finished() == c.planned();
            if (!done) {
                endTime = 0; // a chunk reopened by a restore is read again
            } else if (endTime == 0) {
                endTime = clock.getAsLong();
            }
            return done;
        }
    }
}

package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogStreamerMetrics;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.SnapshotOptions;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The reader's metrics beyond those Flink's base classes keep. {@code numRecordsIn} comes from
 * {@code SourceReaderBase}; {@code currentEmitEventTimeLag} and {@code sourceIdleTime} from the
 * source operator, fed by the commit timestamp each record is emitted with. Counts only: no row
 * values ever reach a metric.
 */
@Internal
public final class CapstanReaderMetrics {

    public static final String CURRENT_FETCH_EVENT_TIME_LAG = "currentFetchEventTimeLag";
    public static final String TRANSACTIONS_PROCESSED = "transactionsProcessed";
    public static final String ROWS_EMITTED = "rowsEmitted";
    public static final String ROWS_SKIPPED_ON_RESUME = "rowsSkippedOnResume";
    public static final String ROWS_EVENTS_FILTERED = "rowsEventsFiltered";
    public static final String TRANSACTIONS_SEEN = "transactionsSeen";
    public static final String RECONNECTS = "binlogReconnects";
    public static final String SNAPSHOT_CHUNKS_READ = "snapshotChunksRead";
    public static final String SNAPSHOT_ROWS_READ = "snapshotRowsRead";
    public static final String ROWS_SUPPRESSED_BY_GATE = "rowsSuppressedByGate";
    public static final String PROCESSED_GTID_LAG = "processedGtidLag";
    public static final String GATE_KEYS_WEIGHED = "gateKeysWeighed";
    public static final String SNAPSHOT_THROTTLED_MILLIS = "snapshotThrottledMillis";

    /**
     * FLIP-33's backlog gauge (Flink's MetricNames.PENDING_RECORDS), read by Flink's autoscaler.
     */
    public static final String PENDING_RECORDS = "pendingRecords";

    // Flink CDC mysql-cdc's reader metrics, same names and meaning: rows emitted by kind, in total
    // and per table in the group database.<db>.table.<table> (which also has numRecordsIn).
    public static final String NUM_SNAPSHOT_RECORDS = "numSnapshotRecords";
    public static final String NUM_INSERT_DML_RECORDS = "numInsertDMLRecords";
    public static final String NUM_UPDATE_DML_RECORDS = "numUpdateDMLRecords";
    public static final String NUM_DELETE_DML_RECORDS = "numDeleteDMLRecords";
    public static final String NUM_RECORDS_IN = "numRecordsIn";
    public static final String CURRENT_READ_TIMESTAMP_MS = "currentReadTimestampMs";
    public static final String DATABASE_GROUP = "database";
    public static final String TABLE_GROUP = "table";

    private final Counter transactionsProcessed;
    private final Counter rowsEmitted;
    private final Counter rowsSkippedOnResume;
    private final Counter snapshotChunksRead;
    private final Counter snapshotRowsRead;
    private final Counter rowsSuppressedByGate;
    private final Counter gateKeysWeighed;
    private final Counter snapshotThrottledMillis;
    private final Counter numRecordsIn;
    private final SourceReaderMetricGroup group;
    private final ChangeCounters changes;

    /** Per table, created on its first row (task thread only). */
    private final Map<TableId, ChangeCounters> tableChanges = new HashMap<>();

    /** Commit time (ms) of the latest fetched change; -1 before the first. */
    private volatile long readTimestampMillis = -1;

    /** Written by the fetcher thread, read by the metric reporter. */
    private volatile long fetchEventTimeLagMillis = -1;

    /** The running streamer's counters, once the binlog split is assigned. */
    private volatile BinlogStreamerMetrics streamer;

    /** The processed set as of the last transaction end (task thread writes, reporter reads). */
    private volatile GtidSet processed;

    /** The server's gtid_executed at the latest poll; null until the binlog split starts. */
    private volatile Supplier<GtidSet> serverExecuted;

    /** Chunk splits assigned to this reader and not read yet (task and fetcher threads). */
    private final AtomicLong chunksToRead = new AtomicLong();

    /** The rows a chunk is planned to hold: the snapshot's chunk size. */
    private final long rowsPerChunk;

    /** For tests of single metrics: chunks estimated at the default chunk size. */
    public CapstanReaderMetrics(SourceReaderMetricGroup group) {
        this(group, SnapshotOptions.DEFAULT_CHUNK_SIZE);
    }

    /**
     * @param group the reader's metric group
     * @param chunkSize the snapshot's chunk size, the rows estimated for a chunk not read yet
     */
    public CapstanReaderMetrics(SourceReaderMetricGroup group, int chunkSize) {
        this.rowsPerChunk = chunkSize;
        this.transactionsProcessed = group.counter(TRANSACTIONS_PROCESSED);
        this.rowsEmitted = group.counter(ROWS_EMITTED);
        this.rowsSkippedOnResume = group.counter(ROWS_SKIPPED_ON_RESUME);
        // Chunks and rows read from the server (fetcher thread, its only writer): a chunk read
        // again after a restore counts again, which is how a test sees finished ones were not.
        this.snapshotChunksRead = group.counter(SNAPSHOT_CHUNKS_READ);
        this.snapshotRowsRead = group.counter(SNAPSHOT_ROWS_READ);
        // Binlog row images the cursor gate found already in the snapshot.
        this.rowsSuppressedByGate = group.counter(ROWS_SUPPRESSED_BY_GATE);
        // Distinct collated key texts whose weights the gate asked of the server (fetcher thread).
        this.gateKeysWeighed = group.counter(GATE_KEYS_WEIGHED);
        // Time the fetcher waited for the snapshot throttle (scan.snapshot.max-rows-per-second).
        this.snapshotThrottledMillis = group.counter(SNAPSHOT_THROTTLED_MILLIS);
        this.numRecordsIn = group.getIOMetricGroup().getNumRecordsInCounter();
        group.gauge(CURRENT_FETCH_EVENT_TIME_LAG, () -> fetchEventTimeLagMillis);
        // Rows events of tables the job does not capture, skipped without decoding.
        group.gauge(
                ROWS_EVENTS_FILTERED,
                () -> streamer == null ? 0L : streamer.uncapturedRowsEventsSkipped());
        group.gauge(TRANSACTIONS_SEEN, () -> streamer == null ? 0L : streamer.transactionsSeen());
        group.gauge(RECONNECTS, () -> streamer == null ? 0L : streamer.reconnects());
        // Transactions the server had executed at its latest poll that are not processed yet.
        group.gauge(PROCESSED_GTID_LAG, this::processedGtidLag);
        group.setPendingRecordsGauge(this::pendingRecords);
        this.group = group;
        this.changes = new ChangeCounters(group, false);
        group.gauge(CURRENT_READ_TIMESTAMP_MS, () -> readTimestampMillis);
    }

    /**
     * -1 until the binlog split streams and the server's set has been read once, and on a server
     * without GTIDs (its transactions have none to count).
     */
    long processedGtidLag() {
        Supplier<GtidSet> server = serverExecuted;
        GtidSet done = processed;
        GtidSet executed = server == null ? null : server.get();
        if (executed == null || done == null || BinlogPositionAxis.isPositionSet(done)) {
            return -1;
        }
        if (MariaDbGtidAxes.isMariaDbSet(executed)) {
            return MariaDbGtidAxes.sequencesAhead(executed, done);
        }
        return executed.subtract(done).transactionCount();
    }

    /**
     * FLIP-33's {@code pendingRecords}: what this reader has not fetched yet, as far as it can tell
     * cheaply and without reading a row. Binlog: the transactions the server had executed at its
     * latest poll that this reader has not processed ({@link #processedGtidLag()}; a transaction
     * counts once whatever its rows; 0 until the server was read once). Snapshot: the chunks
     * assigned to this reader and not read yet, each estimated at the chunk size (a chunk is
     * planned to hold at most that many rows). Chunks the enumerator has not handed out are in no
     * reader's count: the enumerator's {@code numSnapshotSplitsRemaining} and {@code
     * snapshotEstimatedRemainingSeconds} describe the whole snapshot.
     */
    long pendingRecords() {
        return chunksToRead.get() * rowsPerChunk + Math.max(0, processedGtidLag());
    }

    /** A chunk split to read was assigned to (or restored in) this reader. */
    void chunkAssigned() {
        chunksToRead.incrementAndGet();
    }

    /** The binlog split starts from {@code processed}; {@code serverExecuted} polls the server. */
    void binlogStarted(GtidSet processed, Supplier<GtidSet> serverExecuted) {
        this.processed = processed;
        this.serverExecuted = serverExecuted;
    }

    void streamerStarted(BinlogStreamerMetrics streamerMetrics) {
        this.streamer = streamerMetrics;
    }

    void transactionProcessed(GtidSet processedNow) {
        transactionsProcessed.inc();
        processed = processedNow;
    }

    void rowEmitted() {
        rowsEmitted.inc();
    }

    void snapshotThrottled(long millis) {
        snapshotThrottledMillis.inc(millis);
    }

    void chunkRead(int rows) {
        chunksToRead.updateAndGet(n -> Math.max(0, n - 1));
        snapshotChunksRead.inc();
        snapshotRowsRead.inc(rows);
    }

    /**
     * SourceReaderBase counts one record in per element it polls, but an element is a whole chunk,
     * one row change or a transaction end: correct {@code numRecordsIn} to the row changes the
     * element actually emitted.
     */
    void elementEmitted(long rowChanges) {
        if (rowChanges != 1) {
            numRecordsIn.inc(rowChanges - 1);
        }
    }

    void gateKeysWeighed(int texts) {
        gateKeysWeighed.inc(texts);
    }

    void rowSuppressedByGate() {
        rowsSuppressedByGate.inc();
    }

    void rowSkippedOnResume() {
        rowsSkippedOnResume.inc();
    }

    /** Fetch time minus commit time of the latest fetched change, in milliseconds. */
    void recordFetched(long commitTimestampMicros, long fetchTimeMillis) {
        fetchEventTimeLagMillis = fetchTimeMillis - commitTimestampMicros / 1000;
        readTimestampMillis = commitTimestampMicros / 1000;
    }

    /** A chunk's rows were emitted (each counts as one snapshot record, as in mysql-cdc). */
    void snapshotRowsEmitted(TableId table, long rows) {
        changes.snapshot.inc(rows);
        ChangeCounters t = countersOf(table);
        t.snapshot.inc(rows);
        t.recordsIn.inc(rows);
    }

    /** A binlog row change was emitted with this operation (an update counts once). */
    void changeEmitted(TableId table, Operation operation) {
        ChangeCounters t = countersOf(table);
        Counter total = changes.of(operation);
        if (total != null) {
            total.inc();
            t.of(operation).inc();
        }
        t.recordsIn.inc();
    }

    private ChangeCounters countersOf(TableId table) {
        return tableChanges.computeIfAbsent(
                table,
                id ->
                        new ChangeCounters(
                                group.addGroup(DATABASE_GROUP, id.database())
                                        .addGroup(TABLE_GROUP, id.table()),
                                true));
    }

    /** mysql-cdc's counters of rows by kind, in one group. */
    private static final class ChangeCounters {
        final Counter snapshot;
        final Counter insert;
        final Counter update;
        final Counter delete;

        /** Per table only: every row of the table (the reader-level one is Flink's own). */
        final Counter recordsIn;

        /**
         * @param group where the counters go
         * @param perTable whether {@code group} is a table's (with its own numRecordsIn)
         */
        ChangeCounters(MetricGroup group, boolean perTable) {
            this.snapshot = group.counter(NUM_SNAPSHOT_RECORDS);
            this.insert = group.counter(NUM_INSERT_DML_RECORDS);
            this.update = group.counter(NUM_UPDATE_DML_RECORDS);
            this.delete = group.counter(NUM_DELETE_DML_RECORDS);
            this.recordsIn = perTable ? group.counter(NUM_RECORDS_IN) : null;
        }

        /** The counter of a binlog operation; null for one mysql-cdc does not count by kind. */
        Counter of(Operation operation) {
            return switch (operation) {
                case INSERT -> insert;
                case UPDATE -> update;
                case DELETE -> delete;
                default -> null;
            };
        }
    }

    long rowsEmittedCount() {
        return rowsEmitted.getCount();
    }
}

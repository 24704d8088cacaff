package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.proxy.BinlogStream;
import io.capstan.flink.mysql.proxy.MySqlProxies;
import io.capstan.flink.mysql.snapshot.gate.SnapshotDdlObserver;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs on the fetcher thread: opens the {@link BinlogStream} of the binlog split and hands its
 * records over in batches; a {@link ServerGtidPoller} beside it feeds the lag gauge. It never
 * touches split state; the emitter does that on the task thread.
 */
final class BinlogFetcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogFetcher.class);

    /** Upper bound of records per fetch, so the handover queue holds bounded work. */
    static final int MAX_BATCH = 1024;

    /** How long one fetch waits for the first record; short so wakeUp() is honoured promptly. */
    private static final long POLL_MILLIS = 100;

    private final MySqlProxies mysql;
    private final Duration gtidPollInterval;
    private final CapstanReaderMetrics metrics;
    private final BinlogBoundaryStop stop;

    @Nullable private BinlogStream streamer;

    /** Whether the records handed over so far end at a transaction boundary. */
    private boolean atBoundary;

    @Nullable private ServerGtidPoller poller;
    @Nullable private GateKeyWeigher weigher;

    BinlogFetcher(MySqlProxies mysql, Duration gtidPollInterval, CapstanReaderMetrics metrics) {
        this(mysql, gtidPollInterval, metrics, new BinlogBoundaryStop());
    }

    /**
     * @param stop when requested, the split ends at the next transaction boundary
     */
    BinlogFetcher(
            MySqlProxies mysql,
            Duration gtidPollInterval,
            CapstanReaderMetrics metrics,
            BinlogBoundaryStop stop) {
        this.mysql = mysql;
        this.gtidPollInterval = gtidPollInterval;
        this.metrics = metrics;
        this.stop = stop;
    }

    boolean isStreaming() {
        return streamer != null;
    }

    void start(BinlogSplit binlog) {
        if (streamer != null) {
            throw new IllegalStateException("a reader streams at most one binlog split");
        }
        LOG.info("Starting to stream {}", binlog);
        BinlogStream s =
                mysql.binlog(
                        binlog.start(),
                        binlog.tables(),
                        binlog.origin(),
                        SnapshotDdlObserver.of(binlog.gate()));
        metrics.streamerStarted(s.metrics());
        try {
            s.start();
        } catch (RuntimeException | Error e) {
            s.close(); // a refused start may have left threads or a half-open connection
            throw e;
        }
        streamer = s;
        atBoundary = binlog.start().partialGtid() == null;
        weigher = new GateKeyWeigher(binlog, mysql::jdbc, metrics);
        poller = new ServerGtidPoller(mysql.jdbc(), gtidPollInterval);
        metrics.binlogStarted(binlog.start().processed(), poller::latest);
    }

    ElementBatch fetch(BooleanSupplier wokenUp) throws IOException {
        if (streamer == null) {
            return ElementBatch.empty();
        }
        boolean stopping = stop.requested();
        if (stopping && atBoundary) {
            LOG.info("Binlog split stops at a transaction boundary");
            close();
            return ElementBatch.finished(BinlogSplit.SPLIT_ID);
        }
        try {
            BinlogRecord first = streamer.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            if (first == null) {
                return ElementBatch.empty();
            }
            List<BinlogRecord> records = new ArrayList<>(64);
            records.add(first);
            atBoundary = first instanceof TransactionEnd;
            BinlogRecord next;
            while (records.size() < MAX_BATCH
                    && !wokenUp.getAsBoolean()
                    && !(stopping && atBoundary)
                    && (next = streamer.poll(0, TimeUnit.MILLISECONDS)) != null) {
                records.add(next);
                atBoundary = next instanceof TransactionEnd;
            }
            BinlogRecord last = records.get(records.size() - 1);
            metrics.recordFetched(last.commitTimestampMicros(), System.currentTimeMillis());
            return ElementBatch.of(BinlogSplit.SPLIT_ID, weigher.elements(records));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ElementBatch.empty();
        }
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.close();
            poller = null;
        }
        if (weigher != null) {
            weigher.close();
            weigher = null;
        }
        if (streamer != null) {
            streamer.close();
            streamer = null;
        }
    }
}

package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogRecord;
import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on the fetcher thread: wraps the {@link BinlogStreamer} of the binlog split and hands its
 * records over in batches. It never touches split state; the emitter does that on the task thread.
 */
final class BinlogSplitReader implements SplitReader<BinlogRecord, CapstanSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogSplitReader.class);

    /** Upper bound of records per fetch, so the handover queue holds bounded work. */
    static final int MAX_BATCH = 1024;
    /** How long one fetch waits for the first record; short so wakeUp() is honoured promptly. */
    private static final long POLL_MILLIS = 100;

    private final Function<BinlogSplit, BinlogStreamer> streamers;
    private final CapstanReaderMetrics metrics;

    @Nullable private BinlogStreamer streamer;
    private volatile boolean wakeUp;

    BinlogSplitReader(Function<BinlogSplit, BinlogStreamer> streamers, CapstanReaderMetrics metrics) {
        this.streamers = streamers;
        this.metrics = metrics;
    }

    @Override
    public RecordsWithSplitIds<BinlogRecord> fetch() throws IOException {
        wakeUp = false;
        if (streamer == null) {
            return BinlogRecordBatch.empty();
        }
        try {
            BinlogRecord first = streamer.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            if (first == null) {
                return BinlogRecordBatch.empty();
            }
            List<BinlogRecord> records = new ArrayList<>(64);
            records.add(first);
            BinlogRecord next;
            while (records.size() < MAX_BATCH
                    && !wakeUp
                    && (next = streamer.poll(0, TimeUnit.MILLISECONDS)) != null) {
                records.add(next);
            }
            noteFetchLag(records.get(records.size() - 1));
            return new BinlogRecordBatch(records);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return BinlogRecordBatch.empty();
        }
    }

    private void noteFetchLag(BinlogRecord last) {
        metrics.recordFetched(last.commitTimestampMicros(), System.currentTimeMillis());
    }

    @Override
    public void handleSplitsChanges(SplitsChange<CapstanSplit> splitsChanges) {
        if (!(splitsChanges instanceof SplitsAddition)) {
            throw new UnsupportedOperationException(
                    "unsupported split change " + splitsChanges.getClass().getSimpleName());
        }
        for (CapstanSplit split : splitsChanges.splits()) {
            switch (split.kind()) {
                case BINLOG:
                    if (streamer != null) {
                        throw new IllegalStateException("a reader streams at most one binlog split");
                    }
                    BinlogSplit binlog = split.asBinlogSplit();
                    LOG.info("Starting to stream {}", binlog);
                    BinlogStreamer s = streamers.apply(binlog);
                    metrics.streamerStarted(s.metrics());
                    s.start();
                    streamer = s;
                    break;
                default:
                    throw new UnsupportedOperationException(
                            split.kind() + " splits arrive with the snapshot feature");
            }
        }
    }

    @Override
    public void wakeUp() {
        wakeUp = true;
    }

    @Override
    public void close() throws Exception {
        if (streamer != null) {
            streamer.close();
            streamer = null;
        }
    }
}

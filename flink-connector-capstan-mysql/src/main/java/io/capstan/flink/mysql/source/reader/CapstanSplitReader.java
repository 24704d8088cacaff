package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.source.split.CapstanSplit;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

import java.io.IOException;

/**
 * The reader's one split reader (fetcher thread): reads its chunk splits, one whole chunk per
 * fetch, and streams its binlog split. The enumerator hands out the binlog split only after every
 * chunk is finished, so the two never interleave. Never touches split state. The chunk fetcher
 * belongs to the source reader (it outlives this split reader); the binlog fetcher to this one.
 */
final class CapstanSplitReader implements SplitReader<SourceElement, CapstanSplit> {

    private final ChunkFetcher chunks;
    private final BinlogFetcher binlog;
    private volatile boolean wakeUp;

    CapstanSplitReader(ChunkFetcher chunks, BinlogFetcher binlog) {
        this.chunks = chunks;
        this.binlog = binlog;
    }

    @Override
    public RecordsWithSplitIds<SourceElement> fetch() throws IOException {
        wakeUp = false;
        if (chunks.hasWork()) {
            return chunks.fetch();
        }
        return binlog.fetch(() -> wakeUp);
    }

    @Override
    public void handleSplitsChanges(SplitsChange<CapstanSplit> splitsChanges) {
        if (!(splitsChanges instanceof SplitsAddition)) {
            throw new UnsupportedOperationException(
                    "unsupported split change " + splitsChanges.getClass().getSimpleName());
        }
        for (CapstanSplit split : splitsChanges.splits()) {
            switch (split.kind()) {
                case SNAPSHOT_CHUNK:
                    chunks.add(split.asSnapshotChunkSplit());
                    break;
                case BINLOG:
                    // Every chunk is finished before the binlog split goes out: release the
                    // snapshot's connections (they would reopen if a chunk ever came again).
                    chunks.close();
                    binlog.start(split.asBinlogSplit());
                    break;
                default:
                    throw new IllegalArgumentException("unknown split kind " + split.kind());
            }
        }
    }

    @Override
    public void wakeUp() {
        wakeUp = true;
    }

    @Override
    public void close() throws Exception {
        binlog.close();
    }
}

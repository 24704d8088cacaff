package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.OptionRules;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;

/**
 * How hard the snapshot may press the server it reads: at most {@code maxRowsPerSecond} rows per
 * second for the whole job (each of its readers takes an equal share), and at most {@code
 * maxConcurrentChunkReads} chunks read at the same time (readers beyond it get no chunk and wait
 * for the stream). 0 means no limit for either.
 */
@Internal
public record SnapshotLoadLimits(long maxRowsPerSecond, int maxConcurrentChunkReads)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** No limit: every reader reads chunks as fast as the server answers. */
    public static final SnapshotLoadLimits NONE =
            new SnapshotLoadLimits(
                    CapstanMySqlOptions.SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND.defaultValue(),
                    CapstanMySqlOptions.SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS.defaultValue());

    public SnapshotLoadLimits {
        OptionRules.maxRowsPerSecond(maxRowsPerSecond);
        OptionRules.maxConcurrentChunkReads(maxConcurrentChunkReads);
    }

    /** Whether subtask {@code subtask} of the source may read chunks. */
    public boolean mayReadChunks(int subtask) {
        return maxConcurrentChunkReads == 0 || subtask < maxConcurrentChunkReads;
    }

    /** The readers that read chunks at parallelism {@code parallelism}. */
    public int chunkReaders(int parallelism) {
        return maxConcurrentChunkReads == 0
                ? parallelism
                : Math.min(parallelism, maxConcurrentChunkReads);
    }
}

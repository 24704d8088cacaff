package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;

import org.apache.flink.annotation.Internal;

import java.io.IOException;

/**
 * Reads chunks one at a time, each at its exact position G (docs/snapshot.md), on connections that
 * stay open across chunks. Not thread-safe. After a failure the next read reconnects; the failed
 * chunk yielded nothing and may be read again.
 */
@Internal
public interface ChunkSession extends AutoCloseable {

    /**
     * The chunk's rows and its G.
     *
     * @throws IOException on a connection or query failure (retry the chunk)
     * @throws io.capstan.flink.mysql.error.CapstanHaltException {@code snapshot_schema_drifted}
     *     when the table no longer has {@code spec}'s schema, {@code lock_wait_budget_exhausted}
     */
    ChunkResult read(SnapshotChunk chunk, TableReadSpec spec) throws IOException;

    @Override
    void close();
}

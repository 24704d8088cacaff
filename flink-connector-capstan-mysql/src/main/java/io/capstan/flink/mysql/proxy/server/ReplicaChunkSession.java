package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.preflight.SnapshotServerRules;
import io.capstan.flink.mysql.proxy.ChunkSession;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.proxy.PrimaryCatchUp;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;

import java.io.IOException;

/**
 * {@link ChunkSession} on the snapshot's replica: the {@link ChunkReader}'s lock protocol and read
 * there, then a {@code gtid_executed} read on the primary (again, briefly, while it trails: {@link
 * PrimaryCatchUp}): the chunk's G must be a set of the primary's transactions ({@link
 * SnapshotServerRules#requireContained}), else the gate would wait for, or misplace, transactions
 * the binlog never shows. Nothing else reaches the primary.
 */
final class ReplicaChunkSession implements ChunkSession {

    private final ChunkReader reader;
    private final String replicaAddress;
    private final JdbcProxy primary;

    ReplicaChunkSession(ChunkReader reader, String replicaAddress, JdbcProxy primary) {
        this.reader = reader;
        this.replicaAddress = replicaAddress;
        this.primary = primary;
    }

    @Override
    public ChunkResult read(SnapshotChunk chunk, TableReadSpec spec) throws IOException {
        ChunkResult result = reader.read(chunk, spec);
        // Asked after G was read: the primary's set only grows, so a G of a replica in step with it
        // is contained, however far the replica lags.
        SnapshotServerRules.requireContained(
                chunk.id(),
                result.gtidSet(),
                PrimaryCatchUp.holding(
                        result.gtidSet(), primary::gtidExecuted, g -> g, PrimaryCatchUp.WAIT),
                replicaAddress,
                primary.serverAddress());
        return result;
    }

    @Override
    public void close() {
        reader.close();
        primary.abort();
    }
}

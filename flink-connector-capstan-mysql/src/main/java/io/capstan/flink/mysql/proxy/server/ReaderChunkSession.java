package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.proxy.ChunkSession;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;

import java.io.IOException;

/** {@link ChunkSession} on the server: the {@link ChunkReader}'s lock protocol and read. */
final class ReaderChunkSession implements ChunkSession {

    private final ChunkReader reader;

    ReaderChunkSession(ChunkReader reader) {
        this.reader = reader;
    }

    @Override
    public ChunkResult read(SnapshotChunk chunk, TableReadSpec spec) throws IOException {
        return reader.read(chunk, spec);
    }

    @Override
    public void close() {
        reader.close();
    }
}

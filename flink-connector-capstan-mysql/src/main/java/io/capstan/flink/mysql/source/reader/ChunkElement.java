package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/** A whole chunk as one element: its rows and G, the schema they were read with, and when. */
@Internal
public final class ChunkElement extends SourceElement {
    private final ChunkResult result;
    private final TableSchema schema;
    private final long readTimeMillis;

    public ChunkElement(ChunkResult result, TableSchema schema, long readTimeMillis) {
        this.result = Objects.requireNonNull(result, "result");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.readTimeMillis = readTimeMillis;
    }

    @Override
    public Kind kind() {
        return Kind.CHUNK;
    }

    @Override
    public ChunkElement asChunk() {
        return this;
    }

    public ChunkResult result() {
        return result;
    }

    public TableSchema schema() {
        return schema;
    }

    public long readTimeMillis() {
        return readTimeMillis;
    }

    @Override
    public String toString() {
        return "ChunkElement{" + result + "}";
    }
}

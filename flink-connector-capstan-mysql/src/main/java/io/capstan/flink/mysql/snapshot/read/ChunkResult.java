package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

import java.util.List;
import java.util.Objects;

/**
 * A chunk read at its exact position: {@code rows} are the chunk's key range as of the transactions
 * in {@code gtidSet} (G), no more and no fewer. Handed to the emitter as one element. {@link
 * #toString()} names the chunk and counts, never a value or boundary (the no-values rule).
 */
@Internal
public final class ChunkResult {
    private final SnapshotChunk chunk;
    private final GtidSet gtidSet;
    private final List<RowData> rows;

    public ChunkResult(SnapshotChunk chunk, GtidSet gtidSet, List<RowData> rows) {
        this.chunk = Objects.requireNonNull(chunk, "chunk");
        this.gtidSet = Objects.requireNonNull(gtidSet, "gtidSet");
        this.rows = List.copyOf(rows);
    }

    public SnapshotChunk chunk() {
        return chunk;
    }

    /** G: the transactions whose effects on the chunk's rows are in {@link #rows()}. */
    public GtidSet gtidSet() {
        return gtidSet;
    }

    public List<RowData> rows() {
        return rows;
    }

    public int rowCount() {
        return rows.size();
    }

    @Override
    public String toString() {
        return "ChunkResult{chunk=" + chunk.id() + ", rows=" + rows.size() + "}";
    }
}

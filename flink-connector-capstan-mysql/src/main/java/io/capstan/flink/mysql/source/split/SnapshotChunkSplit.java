package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * Read one chunk of a table: its key range under its chunk key. Immutable. A split that carries a
 * {@link #completion()} was read and emitted already: the reader keeps it (in its checkpointed
 * state) only until the enumerator acknowledges the completion, and never reads it again.
 *
 * @param schemaFingerprint the digest of the table's schema when the snapshot started; chunks are
 *     read only under it
 * @param completion the completion once read, else null
 */
@Internal
public record SnapshotChunkSplit(
        ChunkKey key,
        SnapshotChunk chunk,
        long schemaFingerprint,
        @Nullable ChunkCompletion completion)
        implements CapstanSplit {

    public SnapshotChunkSplit {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(chunk, "chunk");
        if (!key.table().equals(chunk.table())) {
            throw new IllegalArgumentException(
                    "chunk " + chunk.id() + " with the key of " + key.table());
        }
    }

    public static SnapshotChunkSplit unread(
            ChunkKey key, SnapshotChunk chunk, long schemaFingerprint) {
        return new SnapshotChunkSplit(key, chunk, schemaFingerprint, null);
    }

    public boolean isCompleted() {
        return completion != null;
    }

    public SnapshotChunkSplit withCompletion(ChunkCompletion c) {
        return new SnapshotChunkSplit(key, chunk, schemaFingerprint, Objects.requireNonNull(c));
    }

    /** The same chunk, unread (what the enumerator hands out again). */
    public SnapshotChunkSplit unread() {
        return completion == null
                ? this
                : new SnapshotChunkSplit(key, chunk, schemaFingerprint, null);
    }

    /** {@code db.table#index}: identifies the chunk without a value. */
    @Override
    public String splitId() {
        return chunk.id();
    }

    @Override
    public SplitKind kind() {
        return SplitKind.SNAPSHOT_CHUNK;
    }

    @Override
    public SnapshotChunkSplit asSnapshotChunkSplit() {
        return this;
    }

    @Override
    public String toString() {
        // Identifiers, positions and counts only (the no-values rule): the range's bounds are
        // values.
        return "SnapshotChunkSplit{"
                + chunk.id()
                + (completion == null ? "" : ", " + completion)
                + "}";
    }
}

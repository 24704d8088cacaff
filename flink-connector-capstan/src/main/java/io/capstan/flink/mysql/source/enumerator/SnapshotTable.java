package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import java.util.Objects;

/** A table to snapshot: its chunk key and the fingerprint of its schema when the snapshot began. */
public final class SnapshotTable {
    private final ChunkKey key;
    private final long schemaFingerprint;

    public SnapshotTable(ChunkKey key, long schemaFingerprint) {
        this.key = Objects.requireNonNull(key, "key");
        this.schemaFingerprint = schemaFingerprint;
    }

    public ChunkKey key() {
        return key;
    }

    public long schemaFingerprint() {
        return schemaFingerprint;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnapshotTable
                && key.equals(((SnapshotTable) o).key)
                && schemaFingerprint == ((SnapshotTable) o).schemaFingerprint;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, schemaFingerprint);
    }

    @Override
    public String toString() {
        return "SnapshotTable{" + key.table() + "}";
    }
}

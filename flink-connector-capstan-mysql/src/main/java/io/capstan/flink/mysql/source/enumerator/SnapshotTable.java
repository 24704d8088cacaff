package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/** A table to snapshot: its chunk key and the fingerprint of its schema when the snapshot began. */
@Internal
public record SnapshotTable(ChunkKey key, long schemaFingerprint) {

    public SnapshotTable {
        Objects.requireNonNull(key, "key");
    }

    @Override
    public String toString() {
        return "SnapshotTable{" + key.table() + "}";
    }
}

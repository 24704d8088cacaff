package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import java.util.Iterator;
import java.util.Optional;
import java.util.TreeSet;

/** The planner's questions answered from a sorted in-memory key set (the model of a table). */
final class InMemoryBoundaryQueries implements BoundaryQueries {
    final TreeSet<KeyTuple> keys;
    long estimate = -1; // -1: exact count
    int boundaryQueries;
    int maxQueries;

    InMemoryBoundaryQueries(ChunkKey key) {
        this.keys = new TreeSet<>(KeyComparator.of(key));
    }

    @Override
    public long estimatedRowCount(ChunkKey key) {
        return estimate >= 0 ? estimate : keys.size();
    }

    @Override
    public Optional<KeyTuple> min(ChunkKey key) {
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys.first());
    }

    @Override
    public Optional<KeyTuple> max(ChunkKey key) {
        maxQueries++;
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys.last());
    }

    @Override
    public Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count) {
        boundaryQueries++;
        Iterator<KeyTuple> it = (low == null ? keys : keys.tailSet(low, true)).iterator();
        for (int i = 0; i < count && it.hasNext(); i++) {
            it.next();
        }
        return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
    }

    @Override
    public Optional<KeyTuple> firstAbove(ChunkKey key, KeyTuple value) {
        boundaryQueries++;
        return Optional.ofNullable(keys.higher(value));
    }
}

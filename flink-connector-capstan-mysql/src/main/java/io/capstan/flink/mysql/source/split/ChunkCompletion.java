package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * What reading a chunk produced, apart from its rows: its G (the transactions whose effects the
 * rows hold) and how many rows were emitted. A position and a count, never a value.
 */
@Internal
public record ChunkCompletion(GtidSet gtidSet, long rowCount) {

    public ChunkCompletion {
        Objects.requireNonNull(gtidSet, "gtidSet");
        if (rowCount < 0) {
            throw new IllegalArgumentException("rowCount must be >= 0");
        }
    }

    @Override
    public String toString() {
        return "ChunkCompletion{G=" + gtidSet + ", rows=" + rowCount + "}";
    }
}

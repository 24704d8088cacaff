package io.capstan.flink.mysql.snapshot.plan;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.Optional;

/**
 * The questions the planner asks the server, so that the planning algorithm stays pure. The JDBC
 * implementation is {@code snapshot.jdbc.JdbcBoundaryQueries}.
 */
@Internal
public interface BoundaryQueries {

    /** The server's estimate of the table's row count (information_schema.TABLES.TABLE_ROWS). */
    long estimatedRowCount(ChunkKey key) throws IOException;

    /** The smallest key, or empty when the table is empty. */
    Optional<KeyTuple> min(ChunkKey key) throws IOException;

    /** The largest key, or empty when the table is empty. */
    Optional<KeyTuple> max(ChunkKey key) throws IOException;

    /**
     * The key that follows the first {@code count} keys at or above {@code low} (null: from the
     * smallest key), i.e. the first key of the next chunk; empty when at most {@code count} keys
     * remain.
     */
    Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count) throws IOException;

    /**
     * The smallest key above {@code value} in the key's order (the server's comparison, so that
     * values equal in a collation are one value); empty when none is.
     */
    Optional<KeyTuple> firstAbove(ChunkKey key, KeyTuple value) throws IOException;
}

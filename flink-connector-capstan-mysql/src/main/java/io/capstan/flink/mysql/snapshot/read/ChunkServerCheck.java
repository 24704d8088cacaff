package io.capstan.flink.mysql.snapshot.read;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Looks at each chunk connection right after it opened, before it is used: which server it reached
 * (a replica's reader pins one server; see {@code proxy.server.ReplicaConnectionCheck}). A halt it
 * throws ends the read; the connections are then closed.
 */
@Internal
@FunctionalInterface
public interface ChunkServerCheck {

    /** No check: the main server, as the chunk reader always read it. */
    ChunkServerCheck NONE = c -> {};

    void opened(Connection connection) throws SQLException;
}

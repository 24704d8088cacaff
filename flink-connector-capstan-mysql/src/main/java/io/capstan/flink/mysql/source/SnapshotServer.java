package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where the snapshot's chunks are planned and read when that is not the main server: a GTID replica
 * of it ({@code scan.snapshot.hostname} / {@code scan.snapshot.port}). It is reached with the main
 * connection's account, TLS mode, timeouts and driver properties; only the address differs.
 */
@Internal
public record SnapshotServer(String hostname, int port) implements Serializable {
    private static final long serialVersionUID = 1L;

    public SnapshotServer {
        Objects.requireNonNull(hostname, "hostname");
    }

    /** The main connection's settings at this server's address. */
    public MySqlConnectionConfig connection(MySqlConnectionConfig main) {
        return main.toBuilder().hostname(hostname).port(port).build();
    }

    /** {@code host:port}, for messages. */
    @Override
    public String toString() {
        return hostname + ":" + port;
    }
}

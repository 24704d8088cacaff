package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/** The validated, immutable settings of one source, shared by enumerator and readers. */
public final class CapstanSourceConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final MySqlConnectionConfig connection;
    private final TableSelection tables;
    private final long serverId;
    private final StartupOptions startupOptions;
    private final int binlogQueueCapacity;
    private final Duration reconnectBackoff;
    private final Duration reconnectBudget;
    private final SnapshotOptions snapshot;

    public CapstanSourceConfig(
            MySqlConnectionConfig connection,
            TableSelection tables,
            long serverId,
            StartupOptions startupOptions,
            int binlogQueueCapacity,
            Duration reconnectBackoff,
            Duration reconnectBudget) {
        this(connection, tables, serverId, startupOptions, binlogQueueCapacity, reconnectBackoff,
                reconnectBudget, SnapshotOptions.defaults());
    }

    public CapstanSourceConfig(
            MySqlConnectionConfig connection,
            TableSelection tables,
            long serverId,
            StartupOptions startupOptions,
            int binlogQueueCapacity,
            Duration reconnectBackoff,
            Duration reconnectBudget,
            SnapshotOptions snapshot) {
        this.snapshot = Objects.requireNonNull(snapshot);
        this.connection = Objects.requireNonNull(connection);
        this.tables = Objects.requireNonNull(tables);
        this.serverId = serverId;
        this.startupOptions = Objects.requireNonNull(startupOptions);
        this.binlogQueueCapacity = binlogQueueCapacity;
        this.reconnectBackoff = Objects.requireNonNull(reconnectBackoff);
        this.reconnectBudget = Objects.requireNonNull(reconnectBudget);
    }

    public MySqlConnectionConfig connection() {
        return connection;
    }

    public TableSelection tables() {
        return tables;
    }

    public long serverId() {
        return serverId;
    }

    public StartupOptions startupOptions() {
        return startupOptions;
    }

    public int binlogQueueCapacity() {
        return binlogQueueCapacity;
    }

    public Duration reconnectBackoff() {
        return reconnectBackoff;
    }

    public Duration reconnectBudget() {
        return reconnectBudget;
    }

    /** Chunk size, read options and chunk key columns of the snapshot. */
    public SnapshotOptions snapshot() {
        return snapshot;
    }

    @Override
    public String toString() {
        // MySqlConnectionConfig masks the password.
        return "CapstanSourceConfig{" + connection + ", " + tables + ", serverId=" + serverId
                + ", startup=" + startupOptions + ", binlogQueueCapacity=" + binlogQueueCapacity
                + ", reconnectBackoff=" + reconnectBackoff + ", reconnectBudget=" + reconnectBudget
                + ", " + snapshot + "}";
    }
}

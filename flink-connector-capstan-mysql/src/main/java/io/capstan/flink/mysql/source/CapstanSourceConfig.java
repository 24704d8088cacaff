package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.OptionRules;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.convert.SpatialValueForm;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

import static io.capstan.flink.mysql.CapstanMySqlOptions.*;

/**
 * The validated, immutable settings of one source, shared by enumerator and readers. Both entry
 * points make it through {@link #validate}: the DataStream builder and the SQL connector.
 */
@Internal
public final class CapstanSourceConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Server ids drawn when none is set, as Flink CDC does; set one explicitly in production. */
    public static final long RANDOM_SERVER_ID_MIN = 5400;

    public static final long RANDOM_SERVER_ID_MAX = 6400; // exclusive

    private final MySqlConnectionConfig connection;
    private final TableSelection tables;
    private final long serverId;
    private final StartupOptions startupOptions;
    private final int binlogQueueCapacity;
    private final Duration reconnectBackoff;
    private final Duration reconnectBudget;
    private final SnapshotOptions snapshot;
    private final TruncateHandling truncateHandling;
    private final Duration binlogRetentionCheckInterval;
    private final int xaMaxPendingRows;
    private final boolean newlyAddedTables;
    private final boolean onlineSchemaChanges;
    // DataStream only (builder's includeSchemaChanges): set on a copy, see withSchemaChangeEvents
    private boolean schemaChangeEvents;
    // scan.snapshot.hostname/port: set on a copy, see withSnapshotServer; null: the main server
    @Nullable private SnapshotServer snapshotServer;

    /** Only {@link #validate} builds a configuration: every value has passed its option's rule. */
    CapstanSourceConfig(
            MySqlConnectionConfig connection,
            TableSelection tables,
            long serverId,
            StartupOptions startupOptions,
            int binlogQueueCapacity,
            Duration reconnectBackoff,
            Duration reconnectBudget,
            SnapshotOptions snapshot,
            TruncateHandling truncateHandling,
            Duration binlogRetentionCheckInterval,
            int xaMaxPendingRows,
            boolean newlyAddedTables,
            boolean onlineSchemaChanges) {
        this.onlineSchemaChanges = onlineSchemaChanges;
        this.newlyAddedTables =
                OptionRules.newlyAddedTables(
                        newlyAddedTables, Objects.requireNonNull(startupOptions).mode());
        this.xaMaxPendingRows = OptionRules.xaMaxPendingRows(xaMaxPendingRows);
        this.binlogRetentionCheckInterval =
                OptionRules.positive(
                        SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL,
                        Objects.requireNonNull(binlogRetentionCheckInterval));
        this.truncateHandling = Objects.requireNonNull(truncateHandling);
        this.snapshot = Objects.requireNonNull(snapshot);
        this.connection = Objects.requireNonNull(connection);
        this.tables = Objects.requireNonNull(tables);
        this.serverId = serverId;
        this.startupOptions = Objects.requireNonNull(startupOptions);
        this.binlogQueueCapacity = binlogQueueCapacity;
        this.reconnectBackoff = Objects.requireNonNull(reconnectBackoff);
        this.reconnectBudget = Objects.requireNonNull(reconnectBudget);
    }

    /**
     * Checks every option and builds the configuration: the one validation of both entry points.
     * Options not set take their {@link CapstanMySqlOptions} default; an unset {@code server-id} is
     * drawn at random from 5400..6399.
     *
     * @param options values of {@link CapstanMySqlOptions}; the {@code scan.startup.*} options are
     *     not read from it, {@code startup} is the start position
     * @param definition tables, per-table chunk keys, snapshot columns and driver properties
     * @param startup the start position: the builder's {@link StartupOptions} as given, the SQL
     *     connector's from {@link StartupOptions#fromOptions(ReadableConfig)}
     * @throws IllegalArgumentException naming the first invalid option and what is valid
     */
    public static CapstanSourceConfig validate(
            ReadableConfig options, SourceDefinition definition, StartupOptions startup) {
        return SourceConfigValidation.validate(options, definition, startup);
    }

    /**
     * This configuration planning and reading the snapshot's chunks on {@code server}, a GTID
     * replica of the main server (which keeps the binlog and the handoff).
     */
    public CapstanSourceConfig withSnapshotServer(SnapshotServer server) {
        CapstanSourceConfig copy = withSnapshot(snapshot);
        copy.snapshotServer = Objects.requireNonNull(server, "server");
        return copy;
    }

    /** The replica the snapshot's chunks are planned and read on, if not the main server. */
    public Optional<SnapshotServer> snapshotServer() {
        return Optional.ofNullable(snapshotServer);
    }

    /** The connection to {@link #snapshotServer()}, if set: the main one at its address. */
    public Optional<MySqlConnectionConfig> snapshotConnection() {
        return snapshotServer().map(s -> s.connection(connection));
    }

    /** This configuration reading only {@code columns} in the snapshot (chunk keys are added). */
    public CapstanSourceConfig withSnapshotColumns(Collection<String> columns) {
        return withSnapshot(snapshot.withReadColumns(columns));
    }

    /**
     * This configuration delivering spatial values in {@code form}, in the snapshot and the binlog
     * alike (the SQL connector's {@link SpatialValueForm#MYSQL_INTERNAL} keeps the SRID).
     */
    public CapstanSourceConfig withSpatialForm(SpatialValueForm form) {
        return withSnapshot(snapshot.withSpatialForm(form));
    }

    /**
     * This configuration emitting a record per schema change of a captured table (the DataStream
     * builder's {@code includeSchemaChanges(true)}).
     */
    public CapstanSourceConfig withSchemaChangeEvents() {
        CapstanSourceConfig copy = withSnapshot(snapshot);
        copy.schemaChangeEvents = true;
        return copy;
    }

    /** Whether each schema change of a captured table is emitted as a record of its own. */
    public boolean schemaChangeEvents() {
        return schemaChangeEvents;
    }

    private CapstanSourceConfig withSnapshot(SnapshotOptions changed) {
        CapstanSourceConfig copy = copyWith(changed);
        copy.schemaChangeEvents = schemaChangeEvents;
        copy.snapshotServer = snapshotServer;
        return copy;
    }

    private CapstanSourceConfig copyWith(SnapshotOptions changed) {
        return new CapstanSourceConfig(
                connection,
                tables,
                serverId,
                startupOptions,
                binlogQueueCapacity,
                reconnectBackoff,
                reconnectBudget,
                changed,
                truncateHandling,
                binlogRetentionCheckInterval,
                xaMaxPendingRows,
                newlyAddedTables,
                onlineSchemaChanges);
    }

    /** The form rows deliver spatial values in, snapshot and binlog. */
    public SpatialValueForm spatialForm() {
        return snapshot.readOptions().spatialForm();
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

    /** Whether a gh-ost or pt-osc table swap is followed as a schema change of the table. */
    public boolean onlineSchemaChanges() {
        return onlineSchemaChanges;
    }

    /** What a TRUNCATE of a captured table after its snapshot does. */
    public TruncateHandling truncateHandling() {
        return truncateHandling;
    }

    /**
     * How often an {@code initial} snapshot checks that the binlog its handoff starts from is still
     * on the server.
     */
    public Duration binlogRetentionCheckInterval() {
        return binlogRetentionCheckInterval;
    }

    /** Captured row changes of prepared XA transactions held until their outcome, at most. */
    public int xaMaxPendingRows() {
        return xaMaxPendingRows;
    }

    /**
     * Whether a restored {@code initial} job snapshots the tables its list selects now but its
     * state does not capture, instead of halting ({@code scan.newly-added-table.enabled}).
     */
    public boolean newlyAddedTables() {
        return newlyAddedTables;
    }

    /** Chunk size, read options and chunk key columns of the snapshot. */
    public SnapshotOptions snapshot() {
        return snapshot;
    }

    /** Equal when every setting is (the SQL table source compares its configuration). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof CapstanSourceConfig)) {
            return false;
        }
        CapstanSourceConfig that = (CapstanSourceConfig) o;
        return serverId == that.serverId
                && binlogQueueCapacity == that.binlogQueueCapacity
                && connection.equals(that.connection)
                && tables.equals(that.tables)
                && startupOptions.equals(that.startupOptions)
                && reconnectBackoff.equals(that.reconnectBackoff)
                && reconnectBudget.equals(that.reconnectBudget)
                && snapshot.equals(that.snapshot)
                && truncateHandling == that.truncateHandling
                && binlogRetentionCheckInterval.equals(that.binlogRetentionCheckInterval)
                && xaMaxPendingRows == that.xaMaxPendingRows
                && newlyAddedTables == that.newlyAddedTables
                && onlineSchemaChanges == that.onlineSchemaChanges
                && schemaChangeEvents == that.schemaChangeEvents
                && Objects.equals(snapshotServer, that.snapshotServer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                connection,
                tables,
                serverId,
                startupOptions,
                binlogQueueCapacity,
                reconnectBackoff,
                reconnectBudget,
                snapshot,
                truncateHandling,
                binlogRetentionCheckInterval,
                xaMaxPendingRows,
                newlyAddedTables,
                onlineSchemaChanges,
                schemaChangeEvents,
                snapshotServer);
    }

    @Override
    public String toString() {
        // MySqlConnectionConfig masks the password.
        return "CapstanSourceConfig{"
                + connection
                + ", "
                + tables
                + ", serverId="
                + serverId
                + ", startup="
                + startupOptions
                + ", binlogQueueCapacity="
                + binlogQueueCapacity
                + ", reconnectBackoff="
                + reconnectBackoff
                + ", reconnectBudget="
                + reconnectBudget
                + ", truncateHandling="
                + truncateHandling
                + ", binlogRetentionCheckInterval="
                + binlogRetentionCheckInterval
                + ", xaMaxPendingRows="
                + xaMaxPendingRows
                + ", newlyAddedTables="
                + newlyAddedTables
                + ", onlineSchemaChanges="
                + onlineSchemaChanges
                + ", schemaChangeEvents="
                + schemaChangeEvents
                + ", snapshotServer="
                + snapshotServer
                + ", "
                + snapshot
                + "}";
    }
}

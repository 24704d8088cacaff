package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.OptionRules;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.convert.SpatialValueForm;
import io.capstan.flink.mysql.event.StreamOrigin;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything a {@link BinlogStreamer} needs besides its start position. Immutable, serializable;
 * {@link #toString()} shows no password.
 *
 * <p>Connection address, credentials, TLS mode, connect timeout and heartbeat interval come from
 * the {@link MySqlConnectionConfig}. The reconnect budget ends at whichever limit comes first:
 * {@link #reconnectMaxAttempts()} consecutive failed attempts or {@link #reconnectMaxDuration()}
 * since the connection was lost.
 */
@Internal
public final class BinlogStreamerConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final MySqlConnectionConfig connection;
    private final long serverId;
    private final TableFilter tableFilter;
    private final int queueCapacity;
    private final Duration reconnectInitialBackoff;
    private final Duration reconnectMaxBackoff;
    private final int reconnectMaxAttempts;
    private final Duration reconnectMaxDuration;
    private final TruncateHandling truncateHandling;
    private final SpatialValueForm spatialForm;
    private final int xaMaxPendingRows;
    private final StreamOrigin origin;
    private final CreatedTablesConfig createdTables;
    private final boolean onlineSchemaChanges;
    private final SchemaChangeEvents.ColumnsSource schemaChangeColumns;

    private BinlogStreamerConfig(Builder b) {
        this.connection = Objects.requireNonNull(b.connection, "connection");
        this.serverId = OptionRules.serverId(b.serverId);
        this.tableFilter = Objects.requireNonNull(b.tableFilter, "tableFilter");
        if (b.queueCapacity < 1) {
            throw new IllegalArgumentException(
                    "binlog queue capacity must be >= 1, was " + b.queueCapacity);
        }
        this.queueCapacity = b.queueCapacity;
        this.reconnectInitialBackoff =
                positive(b.reconnectInitialBackoff, "reconnect initial backoff");
        this.reconnectMaxBackoff = positive(b.reconnectMaxBackoff, "reconnect max backoff");
        if (reconnectMaxBackoff.compareTo(reconnectInitialBackoff) < 0) {
            throw new IllegalArgumentException(
                    "reconnect max backoff must be >= the initial backoff");
        }
        if (b.reconnectMaxAttempts < 0) {
            throw new IllegalArgumentException(
                    "reconnect max attempts must be >= 0, was " + b.reconnectMaxAttempts);
        }
        this.reconnectMaxAttempts = b.reconnectMaxAttempts;
        this.reconnectMaxDuration = positive(b.reconnectMaxDuration, "reconnect max duration");
        Long startMillis = b.origin.startTimestampMillis();
        if (startMillis != null && startMillis < 0) {
            throw new IllegalArgumentException("start timestamp must be >= 0 ms since the epoch");
        }
        this.origin = b.origin;
        this.truncateHandling = Objects.requireNonNull(b.truncateHandling, "truncateHandling");
        this.spatialForm = Objects.requireNonNull(b.spatialForm, "spatialForm");
        if (b.xaMaxPendingRows < 1) {
            throw new IllegalArgumentException(
                    "XA max pending rows must be >= 1, was " + b.xaMaxPendingRows);
        }
        this.xaMaxPendingRows = b.xaMaxPendingRows;
        this.createdTables = b.createdTables;
        this.onlineSchemaChanges = b.onlineSchemaChanges;
        this.schemaChangeColumns = b.schemaChangeColumns;
    }

    /**
     * Where the columns after a schema change of a captured table come from; null: schema changes
     * are not emitted as records ({@link SchemaChangeEvents}).
     */
    public SchemaChangeEvents.ColumnsSource schemaChangeColumns() {
        return schemaChangeColumns;
    }

    /** Whether a gh-ost or pt-osc table swap of a captured table is followed as a schema change. */
    public boolean onlineSchemaChanges() {
        return onlineSchemaChanges;
    }

    /** How tables created while the stream runs are captured; null: they are not. */
    public CreatedTablesConfig createdTables() {
        return createdTables;
    }

    public static Builder builder() {
        return new Builder();
    }

    public MySqlConnectionConfig connection() {
        return connection;
    }

    public long serverId() {
        return serverId;
    }

    public TableFilter tableFilter() {
        return tableFilter;
    }

    /** Records buffered between the binlog reader thread and {@link BinlogStreamer#poll}. */
    public int queueCapacity() {
        return queueCapacity;
    }

    public Duration reconnectInitialBackoff() {
        return reconnectInitialBackoff;
    }

    public Duration reconnectMaxBackoff() {
        return reconnectMaxBackoff;
    }

    /** Consecutive failed reconnect attempts allowed; 0 means no reconnect at all. */
    public int reconnectMaxAttempts() {
        return reconnectMaxAttempts;
    }

    /** Time allowed from losing the connection to having it back. */
    public Duration reconnectMaxDuration() {
        return reconnectMaxDuration;
    }

    /**
     * How the stream began: which transactions it drops by time, how it treats XA transactions
     * prepared before its start (docs/adr/0008) and tables renamed into the list.
     */
    public StreamOrigin origin() {
        return origin;
    }

    /** What a TRUNCATE of a captured table does (DROP and RENAME always halt). */
    public TruncateHandling truncateHandling() {
        return truncateHandling;
    }

    /** The form rows deliver spatial values in, as the snapshot does. */
    public SpatialValueForm spatialForm() {
        return spatialForm;
    }

    /**
     * How many captured row changes of prepared XA transactions may wait in memory for their
     * outcome.
     */
    public int xaMaxPendingRows() {
        return xaMaxPendingRows;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.connection = connection;
        b.serverId = serverId;
        b.tableFilter = tableFilter;
        b.queueCapacity = queueCapacity;
        b.reconnectInitialBackoff = reconnectInitialBackoff;
        b.reconnectMaxBackoff = reconnectMaxBackoff;
        b.reconnectMaxAttempts = reconnectMaxAttempts;
        b.reconnectMaxDuration = reconnectMaxDuration;
        b.origin = origin;
        b.truncateHandling = truncateHandling;
        b.spatialForm = spatialForm;
        b.xaMaxPendingRows = xaMaxPendingRows;
        b.onlineSchemaChanges = onlineSchemaChanges;
        b.schemaChangeColumns = schemaChangeColumns;
        return b;
    }

    @Override
    public String toString() {
        return "BinlogStreamerConfig{connection="
                + connection
                + ", serverId="
                + serverId
                + ", queueCapacity="
                + queueCapacity
                + ", reconnectBackoff="
                + reconnectInitialBackoff
                + ".."
                + reconnectMaxBackoff
                + ", reconnectMaxAttempts="
                + reconnectMaxAttempts
                + ", reconnectMaxDuration="
                + reconnectMaxDuration
                + ", origin="
                + origin
                + ", truncateHandling="
                + truncateHandling
                + ", spatialForm="
                + spatialForm
                + ", xaMaxPendingRows="
                + xaMaxPendingRows
                + ", onlineSchemaChanges="
                + onlineSchemaChanges
                + ", schemaChangeEvents="
                + (schemaChangeColumns != null)
                + "}";
    }

    private static Duration positive(Duration d, String what) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be a positive duration");
        }
        return d;
    }

    /** Builds a {@link BinlogStreamerConfig}; defaults are documented on each setter. */
    public static final class Builder {
        private MySqlConnectionConfig connection;
        private long serverId;
        private TableFilter tableFilter;
        private int queueCapacity = 4096;
        private Duration reconnectInitialBackoff = Duration.ofMillis(200);
        private Duration reconnectMaxBackoff = Duration.ofSeconds(30);
        private int reconnectMaxAttempts = Integer.MAX_VALUE;
        private Duration reconnectMaxDuration = Duration.ofMinutes(10);
        private StreamOrigin origin = StreamOrigin.streamOnly(null);
        private TruncateHandling truncateHandling = TruncateHandling.HALT;
        private SpatialValueForm spatialForm = SpatialValueForm.WKB;
        private int xaMaxPendingRows =
                CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue();
        private CreatedTablesConfig createdTables;
        private boolean onlineSchemaChanges;
        private SchemaChangeEvents.ColumnsSource schemaChangeColumns;

        private Builder() {}

        /**
         * Default none: schema changes are not emitted. With it, each schema change of a captured
         * table is a record, its columns read from {@code columns} ({@link SchemaChangeEvents}).
         */
        public Builder schemaChangeEvents(SchemaChangeEvents.ColumnsSource columns) {
            this.schemaChangeColumns = columns;
            return this;
        }

        /**
         * Default false: a swap of a captured table by gh-ost or pt-osc halts ({@code
         * captured_table_removed}); true follows it ({@link OnlineSchemaChangeCutOver}).
         */
        public Builder onlineSchemaChanges(boolean onlineSchemaChanges) {
            this.onlineSchemaChanges = onlineSchemaChanges;
            return this;
        }

        /**
         * Default none: only the {@link #tableFilter} tables are captured. With it, a table {@code
         * createdTables} selects is captured from its CREATE on (the table filter must list
         * tables).
         */
        public Builder createdTables(CreatedTablesConfig createdTables) {
            this.createdTables = createdTables;
            return this;
        }

        public Builder connection(MySqlConnectionConfig connection) {
            this.connection = connection;
            return this;
        }

        /**
         * Required: this stream's replica server id, unique among everything replicating from the
         * server.
         */
        public Builder serverId(long serverId) {
            this.serverId = serverId;
            return this;
        }

        /** Required: the captured tables. Rows of other tables are skipped undecoded. */
        public Builder tableFilter(TableFilter tableFilter) {
            this.tableFilter = tableFilter;
            return this;
        }

        /** Default 4096 records. */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /** Default 200 ms, doubling (with jitter) up to the max backoff, default 30 s. */
        public Builder reconnectBackoff(Duration initial, Duration max) {
            this.reconnectInitialBackoff = initial;
            this.reconnectMaxBackoff = max;
            return this;
        }

        /** Default unlimited attempts. */
        public Builder reconnectMaxAttempts(int reconnectMaxAttempts) {
            this.reconnectMaxAttempts = reconnectMaxAttempts;
            return this;
        }

        /** Default 10 minutes. */
        public Builder reconnectMaxDuration(Duration reconnectMaxDuration) {
            this.reconnectMaxDuration = reconnectMaxDuration;
            return this;
        }

        /**
         * Default: stream-only, no start timestamp (the commit of an XA transaction prepared before
         * the start then halts: {@code xa_prepared_before_start}).
         */
        public Builder origin(StreamOrigin origin) {
            this.origin = Objects.requireNonNull(origin, "origin");
            return this;
        }

        /** Default {@link TruncateHandling#HALT}. */
        public Builder truncateHandling(TruncateHandling truncateHandling) {
            this.truncateHandling = truncateHandling;
            return this;
        }

        /** Spatial values as standard WKB (default) or with MySQL's SRID prefix. */
        public Builder spatialForm(SpatialValueForm spatialForm) {
            this.spatialForm = spatialForm;
            return this;
        }

        /** Default: the default of {@code binlog.xa.max-pending-rows}. */
        public Builder xaMaxPendingRows(int xaMaxPendingRows) {
            this.xaMaxPendingRows = xaMaxPendingRows;
            return this;
        }

        public BinlogStreamerConfig build() {
            return new BinlogStreamerConfig(this);
        }
    }
}

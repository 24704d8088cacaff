package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.AccountPrivileges;
import io.capstan.flink.mysql.preflight.GrantParser;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.preflight.ServerVersion;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SourceDefinition;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory MySQL behind {@link MySqlProxies}, for unit tests without a server: tables with
 * schema, key metadata and rows; the GTID sets; the settings and privileges the preflight reads;
 * binlog streams the test feeds. Every JDBC operation can be made to fail a number of times, and
 * the fake counts calls and open connections so that tests can check reconnects and releases.
 *
 * <p>Thread-safe enough for a reader's fetcher thread, its poller thread and the test thread.
 */
public final class FakeMySql implements MySqlProxies {

    public static final String ADDRESS = "fake-mysql:3306";

    /** Operations that {@link #failNext} can fail, by the {@link JdbcProxy} or session method. */
    public static final String BASE_TABLES = "baseTables";

    public static final String SERVER_FACTS = "serverFacts";
    public static final String GTID_STATE = "gtidState";
    public static final String GTID_EXECUTED = "gtidExecuted";
    public static final String GTID_SET_BEFORE = "gtidSetBefore";
    public static final String TABLE_SCHEMA = "tableSchema";
    public static final String KEY_METADATA = "keyMetadata";
    public static final String STORAGE_ENGINE = "storageEngine";
    public static final String BOUNDARY = "boundary";
    public static final String READ_CHUNK = "readChunk";
    public static final String KEY_WEIGHTS = "keyWeights";

    /** The foreign keys and the tables with triggers. */
    public static final String FOREIGN_KEYS = "foreignKeys";

    /** One table: its definition and rows (GenericRowData, as RowConverter builds them). */
    static final class Table {
        volatile TableSchema schema;
        volatile String engine = "InnoDB";
        final TableKeyMetadata keys;
        final List<RowData> rows = new CopyOnWriteArrayList<>();

        Table(TableSchema schema, TableKeyMetadata keys) {
            this.schema = schema;
            this.keys = keys;
        }
    }

    private final Map<TableId, Table> tables =
            new TreeMap<>(Comparator.comparing(TableId::database).thenComparing(TableId::table));
    private volatile GtidSet executed = GtidSet.empty();
    private volatile GtidSet purged = GtidSet.empty();
    private final Map<String, GtidSet> binlogPositions = new ConcurrentHashMap<>();
    private volatile ServerFacts facts = safeFacts();
    private final Map<String, Integer> failures = new HashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger openConnections = new AtomicInteger();
    private final List<BinlogRecord> binlogBacklog = new CopyOnWriteArrayList<>();
    private volatile RuntimeException binlogRefusal;

    /** Every stream opened, in order. */
    public final List<FakeBinlogStream> streams = new CopyOnWriteArrayList<>();

    /** Every JDBC proxy handed out, in order. */
    public final List<FakeJdbcProxy> proxies = new CopyOnWriteArrayList<>();

    // ---- the server's content ----

    /** MariaDB's system-versioned tables on this server: not base tables. */
    private final List<TableId> systemVersioned = new CopyOnWriteArrayList<>();

    /** Adds {@code id} as a MariaDB system-versioned table (not a base table). */
    public FakeMySql systemVersionedTable(TableId id) {
        systemVersioned.add(id);
        return this;
    }

    List<TableId> systemVersionedTableIds() {
        return List.copyOf(systemVersioned);
    }

    /** Columns of MariaDB's UUID, INET4 and INET6 on this server. */
    private final List<MariaDbOwnTypes.Column> ownTypeColumns = new CopyOnWriteArrayList<>();

    /** Adds a column of MariaDB's {@code dataType} ({@code uuid}, ...) to table {@code id}. */
    public FakeMySql mariaDbOwnTypeColumn(TableId id, String column, String dataType) {
        ownTypeColumns.add(new MariaDbOwnTypes.Column(id, column, dataType));
        return this;
    }

    List<MariaDbOwnTypes.Column> mariaDbOwnTypeColumns() {
        return List.copyOf(ownTypeColumns);
    }

    /** Gives {@code id} (added before) another storage engine than InnoDB. */
    public FakeMySql engine(TableId id, String engine) {
        table(id).engine = engine;
        return this;
    }

    /**
     * Creates {@code id(id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(255))} with rows 1..rowCount.
     */
    public FakeMySql table(TableId id, int rowCount) {
        synchronized (tables) {
            Table t = new Table(keyValueSchema(id), keyValueMetadata(id));
            for (long k = 1; k <= rowCount; k++) {
                t.rows.add(row(k, "v" + k));
            }
            tables.put(id, t);
        }
        return this;
    }

    /** A table without a primary key or unique index (no chunk key). */
    public FakeMySql keylessTable(TableId id) {
        synchronized (tables) {
            TableSchema keyed = keyValueSchema(id);
            TableSchema schema = new TableSchema(id, keyed.columns(), new int[0]);
            tables.put(
                    id,
                    new Table(
                            schema,
                            new TableKeyMetadata(id, keyValueMetadata(id).columns(), List.of())));
        }
        return this;
    }

    /** A DDL: the table's schema becomes {@code schema}. */
    public void alter(TableId id, TableSchema schema) {
        table(id).schema = schema;
    }

    public static TableSchema keyValueSchema(TableId id) {
        return new TableSchema(
                id,
                List.of(
                        ColumnSchema.builder("id", MySqlType.BIGINT).nullable(false).build(id),
                        ColumnSchema.builder("name", MySqlType.VARCHAR)
                                .length(255)
                                .charset("utf8mb4")
                                .build(id)),
                new int[] {0});
    }

    public static TableKeyMetadata keyValueMetadata(TableId id) {
        return new TableKeyMetadata(
                id,
                List.of(
                        new TableKeyMetadata.Column(
                                "id", 1, "bigint", "bigint", false, 19, 0, 0, 0, null),
                        new TableKeyMetadata.Column(
                                "name",
                                2,
                                "varchar",
                                "varchar(255)",
                                true,
                                0,
                                0,
                                1020,
                                0,
                                "utf8mb4_0900_ai_ci")),
                List.of(new TableKeyMetadata.Index("PRIMARY", true, List.of("id"), false)));
    }

    public static GenericRowData row(long id, String name) {
        return GenericRowData.of(id, StringData.fromString(name));
    }

    public List<RowData> rows(TableId id) {
        return table(id).rows;
    }

    Table table(TableId id) {
        synchronized (tables) {
            Table t = tables.get(id);
            if (t == null) {
                throw new IllegalArgumentException("no table " + id + " on the fake server");
            }
            return t;
        }
    }

    private volatile List<ForeignKey> foreignKeys = List.of();
    private volatile Set<TableId> tablesWithTriggers = Set.of();

    /** The server's foreign keys and its tables with triggers from now on. */
    public void referential(List<ForeignKey> foreignKeys, Set<TableId> tablesWithTriggers) {
        this.foreignKeys = List.copyOf(foreignKeys);
        this.tablesWithTriggers = Set.copyOf(tablesWithTriggers);
    }

    List<ForeignKey> foreignKeys() {
        return foreignKeys;
    }

    Set<TableId> tablesWithTriggers() {
        return tablesWithTriggers;
    }

    List<TableId> tableIds() {
        synchronized (tables) {
            return new ArrayList<>(tables.keySet());
        }
    }

    public void gtids(GtidSet executed, GtidSet purged) {
        this.executed = executed;
        this.purged = purged;
    }

    public GtidSet executed() {
        return executed;
    }

    /** The GTID set {@code file}:{@code pos} denotes, as the server would translate it. */
    public void binlogPosition(String file, long pos, GtidSet before) {
        binlogPositions.put(file + ":" + pos, before);
    }

    /** The set a file and position denote; a position the fake does not know halts, as purged. */
    GtidSet gtidSetBefore(String file, long pos) {
        GtidSet before = binlogPositions.get(file + ":" + pos);
        if (before == null) {
            throw new io.capstan.flink.mysql.error.CapstanHaltException(
                    io.capstan.flink.mysql.error.HaltReason.DATA_GAP,
                    "fake: no such binlog position");
        }
        return before;
    }

    GtidSet purged() {
        return purged;
    }

    public void facts(ServerFacts facts) {
        this.facts = facts;
    }

    ServerFacts facts() {
        return facts;
    }

    /** The settings and grants of a server and account the preflight accepts. */
    public static ServerFacts safeFacts() {
        return facts("ON");
    }

    /** As {@link #safeFacts()}, with the binary log switched {@code logBin}. */
    public static ServerFacts facts(String logBin) {
        return facts(
                logBin,
                "GRANT SELECT, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO"
                        + " `capstan`@`%`");
    }

    /** As {@link #safeFacts()}, with the binary log switched {@code logBin} and one grant line. */
    public static ServerFacts facts(String logBin, String grant) {
        Map<String, String> v = new HashMap<>();
        v.put("log_bin", logBin);
        v.put("binlog_format", "ROW");
        v.put("binlog_row_image", "FULL");
        v.put("binlog_row_metadata", "FULL");
        v.put("binlog_row_value_options", "");
        v.put("gtid_mode", "ON");
        v.put("enforce_gtid_consistency", "ON");
        v.put("partial_revokes", "OFF");
        v.put("lower_case_table_names", "0");
        return new ServerFacts(
                ServerVersion.mysql(8, 0, 36),
                v,
                new AccountPrivileges(
                        "capstan", "%", GrantParser.parseAll(List.of(grant)), true, false));
    }

    /** Records every binlog stream opened from now on delivers first. */
    public void binlogBacklog(BinlogRecord... records) {
        binlogBacklog.addAll(List.of(records));
    }

    /** Every binlog stream opened from now on fails to start with {@code refusal}. */
    public void binlogRefuses(RuntimeException refusal) {
        binlogRefusal = refusal;
    }

    /**
     * A source configuration for this fake (the connection settings are never used to connect): the
     * tables matching {@code tableList}, {@code chunkSize} rows per chunk.
     */
    public static CapstanSourceConfig sourceConfig(
            StartupOptions startup, int chunkSize, String... tableList) {
        return sourceConfig(startup, chunkSize, new Configuration(), tableList);
    }

    /** As {@link #sourceConfig(StartupOptions, int, String...)}, with more option values. */
    public static CapstanSourceConfig sourceConfig(
            StartupOptions startup, int chunkSize, Configuration more, String... tableList) {
        Configuration options = new Configuration(more);
        options.set(CapstanMySqlOptions.HOSTNAME, "fake-mysql");
        options.set(CapstanMySqlOptions.PORT, 3306);
        options.set(CapstanMySqlOptions.USERNAME, "capstan");
        options.set(CapstanMySqlOptions.PASSWORD, "not-used");
        options.set(CapstanMySqlOptions.SERVER_ID, "5400");
        options.set(CapstanMySqlOptions.BINLOG_QUEUE_CAPACITY, 1024);
        options.set(CapstanMySqlOptions.BINLOG_RECONNECT_BACKOFF, Duration.ofSeconds(1));
        options.set(CapstanMySqlOptions.BINLOG_RECONNECT_BUDGET, Duration.ofMinutes(1));
        options.set(CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE, chunkSize);
        return CapstanSourceConfig.validate(
                options, SourceDefinition.ofTables(List.of(), List.of(tableList)), startup);
    }

    // ---- failures and counts ----

    private final Map<String, Runnable> beforeNext = new java.util.concurrent.ConcurrentHashMap<>();

    /** The next {@code times} calls of {@code operation} fail with an IOException. */
    public void failNext(String operation, int times) {
        synchronized (failures) {
            failures.put(operation, times);
        }
    }

    /** Runs {@code action} at the next call of {@code operation}, before it answers. */
    public void beforeNext(String operation, Runnable action) {
        beforeNext.put(operation, action);
    }

    /** Counts the call; throws if it was made to fail. */
    void call(String operation) throws IOException {
        calls.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
        Runnable before = beforeNext.remove(operation);
        if (before != null) {
            before.run();
        }
        synchronized (failures) {
            Integer left = failures.get(operation);
            if (left != null && left > 0) {
                failures.put(operation, left - 1);
                throw new IOException("fake " + operation + " failure");
            }
        }
    }

    /** Calls of {@code operation}, failed ones included. */
    public int calls(String operation) {
        AtomicInteger n = calls.get(operation);
        return n == null ? 0 : n.get();
    }

    /** Connections opened so far, by proxies and chunk sessions. */
    public int connects() {
        return connects.get();
    }

    /** Connections open now. */
    public int openConnections() {
        return openConnections.get();
    }

    void connected() {
        connects.incrementAndGet();
        openConnections.incrementAndGet();
    }

    // ---- MySqlProxies ----

    @Override
    public FakeJdbcProxy jdbc() {
        FakeJdbcProxy proxy = new FakeJdbcProxy(this);
        proxies.add(proxy);
        return proxy;
    }

    @Override
    public FakeBinlogStream binlog(
            BinlogStartPosition start,
            Collection<TableId> tables,
            StreamOrigin origin,
            DdlObserver ddlObserver) {
        FakeBinlogStream stream = new FakeBinlogStream(start, tables, ddlObserver, binlogBacklog);
        if (binlogRefusal != null) {
            stream.failOnStart(binlogRefusal);
        }
        streams.add(stream);
        return stream;
    }
}

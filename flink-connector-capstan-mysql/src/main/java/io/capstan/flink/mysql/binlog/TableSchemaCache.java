package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.convert.SpatialValueForm;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.BinlogSchemaReader;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The tables announced by table-map events, by the binlog's numeric table id: whether each is
 * captured and, for captured ones, its schema and row converter.
 *
 * <p>A schema and its converter are built only when a table's shape changes (a DDL); a new numeric
 * id for an unchanged table (after FLUSH TABLES or a reconnect) reuses them. Uncaptured tables get
 * no schema at all. Single-threaded: used only by the binlog reader thread.
 *
 * <p>The table map's signedness bits are laid out differently by servers before 8.0.20 (no bit for
 * YEAR columns, see {@link BinlogSchemaReader#yearHasSignednessBit}), so schemas are built for the
 * version of the server that wrote the binlog file being read, which each FORMAT_DESCRIPTION event
 * announces ({@link #onServerVersion}); a schema built for one layout is not reused for the other.
 */
final class TableSchemaCache {

    /** One announced table. */
    static final class Entry {
        final TableId tableId;
        final boolean captured;
        final TableMapEventData shape;
        final TableSchema schema; // null when not captured
        final RowConverter converter; // null when not captured
        final boolean yearHasSignednessBit;
        final boolean geometryHasCharset;

        Entry(
                TableId tableId,
                boolean captured,
                TableMapEventData shape,
                boolean yearHasSignednessBit,
                boolean geometryHasCharset,
                TableSchema schema,
                RowConverter converter) {
            this.tableId = tableId;
            this.captured = captured;
            this.shape = shape;
            this.yearHasSignednessBit = yearHasSignednessBit;
            this.geometryHasCharset = geometryHasCharset;
            this.schema = schema;
            this.converter = converter;
        }

        int columnCount() {
            return shape.getColumnTypes().length;
        }

        boolean describes(TableMapEventData tableMap, boolean yearBit, boolean geometryCharset) {
            return yearHasSignednessBit == yearBit
                    && geometryHasCharset == geometryCharset
                    && TableMapShapes.sameShape(shape, tableMap);
        }
    }

    private final TableFilter filter;
    private final BinlogStreamerMetrics metrics;
    private final SpatialValueForm spatialForm;
    private final Map<Long, Entry> byNumericId = new HashMap<>();
    private final Map<TableId, Entry> byTable = new HashMap<>();
    // The library's layout until a FORMAT_DESCRIPTION says otherwise (a dump always starts with
    // one).
    private boolean yearHasSignednessBit = true;
    private boolean geometryHasCharset = false;
    private boolean mariaDb;
    // captured from a statement that does not tell the columns' types (CREATE ... LIKE, RENAME):
    // their first table map must not hold what may be a MariaDB UUID, INET4 or INET6
    private final Set<TableId> typesUntold = new HashSet<>();

    TableSchemaCache(TableFilter filter, BinlogStreamerMetrics metrics) {
        this(filter, metrics, SpatialValueForm.WKB);
    }

    TableSchemaCache(
            TableFilter filter, BinlogStreamerMetrics metrics, SpatialValueForm spatialForm) {
        // A listed filter grows with the tables created while the stream runs.
        this.filter = filter.listed().<TableFilter>map(LiveTableFilter::new).orElse(filter);
        this.metrics = metrics;
        this.spatialForm = spatialForm;
    }

    /** The captured tables, as they stand (they grow with {@link #capture}). */
    TableFilter filter() {
        return filter;
    }

    /**
     * Captures {@code table} from now on: its next table map builds a schema. A table map seen
     * before under its name (a table of that name dropped earlier) is forgotten.
     *
     * @return false when it was captured already
     * @throws IllegalStateException when the filter is a predicate, not a list (it cannot grow)
     */
    boolean capture(TableId table) {
        if (filter.test(table)) {
            return false;
        }
        if (!(filter instanceof LiveTableFilter)) {
            throw new IllegalStateException("the captured tables are not a list; cannot add one");
        }
        ((LiveTableFilter) filter).add(table);
        byTable.remove(table);
        byNumericId.values().removeIf(e -> e.tableId.equals(table));
        return true;
    }

    /**
     * {@code table}, captured just now, came in by a statement that does not tell its columns'
     * types: on MariaDB its first table map halts if it holds a column of BINARY(4) or BINARY(16),
     * which may be a UUID, INET4 or INET6 ({@link MariaDbOwnTypes}).
     */
    void typesUntold(TableId table) {
        typesUntold.add(table);
    }

    /** Whether {@code table}'s column types are told: not {@link #typesUntold} or seen since. */
    boolean typesTold(TableId table) {
        return !typesUntold.contains(table);
    }

    /**
     * The version of the server that wrote the following events (from a FORMAT_DESCRIPTION event).
     */
    void onServerVersion(String serverVersion) {
        mariaDb = MariaDbEvents.isMariaDb(serverVersion);
        yearHasSignednessBit = BinlogSchemaReader.yearHasSignednessBit(serverVersion);
        geometryHasCharset = BinlogSchemaReader.geometryHasCharset(serverVersion);
    }

    private volatile java.util.function.Predicate<TableId> decodedUncaptured = t -> false;

    /**
     * Uncaptured tables whose rows are decoded too (parents of foreign keys into captured ones).
     */
    void decodeAlso(java.util.function.Predicate<TableId> tables) {
        this.decodedUncaptured = tables;
    }

    /** Whether the rows of {@code entry}'s table are decoded (else skipped undecoded). */
    boolean decodes(Entry entry) {
        return entry.captured || decodedUncaptured.test(entry.tableId);
    }

    /** Records a table-map event; builds a schema and converter only for a new captured shape. */
    Entry onTableMap(TableMapEventData tableMap) {
        Entry known = byNumericId.get(tableMap.getTableId());
        if (known != null && known.describes(tableMap, yearHasSignednessBit, geometryHasCharset)) {
            return known;
        }
        TableId tableId = TableId.of(tableMap.getDatabase(), tableMap.getTable());
        Entry entry = byTable.get(tableId);
        if (entry == null || !entry.describes(tableMap, yearHasSignednessBit, geometryHasCharset)) {
            entry = build(tableId, tableMap);
            byTable.put(tableId, entry);
        }
        byNumericId.put(tableMap.getTableId(), entry);
        return entry;
    }

    /** The table announced under {@code numericTableId}, or null when no table map named it. */
    Entry lookup(long numericTableId) {
        return byNumericId.get(numericTableId);
    }

    /**
     * Forgets the numeric ids, which a restarted server may hand out again for other tables. Built
     * schemas stay, keyed by table name and shape.
     */
    void forgetTableIds() {
        byNumericId.clear();
    }

    private Entry build(TableId tableId, TableMapEventData tableMap) {
        if (!filter.test(tableId)) {
            return new Entry(
                    tableId, false, tableMap, yearHasSignednessBit, geometryHasCharset, null, null);
        }
        TableSchema schema =
                BinlogSchemaReader.fromTableMap(
                        tableId, tableMap, yearHasSignednessBit, geometryHasCharset);
        if (typesUntold.remove(tableId) && mariaDb) {
            for (ColumnSchema c : schema.columns()) {
                if (c.type() == MySqlType.BINARY && (c.length() == 4 || c.length() == 16)) {
                    throw MariaDbOwnTypes.untold(tableId, c.name(), c.length());
                }
            }
        }
        RowConverter converter = RowConverter.of(schema, spatialForm);
        metrics.schemaBuilt();
        return new Entry(
                tableId,
                true,
                tableMap,
                yearHasSignednessBit,
                geometryHasCharset,
                schema,
                converter);
    }
}

package io.capstan.flink.mysql.route;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.proxy.server.ServerProxies;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.TableDiscovery;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Many tables of different shapes from one source, and so from one binlog reader: a database-wide
 * job (every table of a database into a lakehouse table each) without a binlog connection per
 * table.
 *
 * <p>The source emits a <em>routed row</em>: one Flink row whose first field is the table's place
 * in {@link #tables()} and whose other fields hold one nullable row per table, only the one of its
 * table set ({@link #routedRowType()}). It is an ordinary {@code RowData} of one fixed type, so
 * Flink serializes and checkpoints it with its own serializer; {@link #split} turns the stream into
 * one changelog stream of {@link Row} per table, for {@code
 * StreamTableEnvironment.fromChangelogStream} and a statement set that writes each table. Routing
 * holds no state: exactly once holds as it holds for the source.
 *
 * <pre>{@code
 * CapstanMySqlSourceBuilder<RowData> b = CapstanMySqlSource.<RowData>builder()
 *         .hostname("db").port(3306).username("cdc").password(pw)
 *         .tableList("shop\\..*");
 * TableRoutes routes = TableRoutes.discover(b);           // reads the tables' columns once
 * DataStream<RowData> all = env.fromSource(
 *         b.deserializer(routes.deserializer()).build(), WatermarkStrategy.noWatermarks(), "shop");
 * routes.split(all).forEach((table, rows) -> ...);          // one changelog stream per table
 * }</pre>
 *
 * <p>Rows are mapped to the discovered columns by name (as {@code RowDataDeserializer} does): a
 * column added later is not in the rows, a discovered column dropped or retyped halts naming the
 * table and column. A table that enters the selection while the job runs has no route and halts
 * ({@code table_entered_selection}); restart the job to discover it.
 */
@PublicEvolving
public final class TableRoutes implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The routed row's first field: the table's place in {@link #tables()}. */
    static final String ROUTE_FIELD = "route";

    private final List<RoutedTable> tables;
    private final Map<TableId, Integer> placeById;

    private TableRoutes(List<RoutedTable> tables) {
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("no table to route");
        }
        this.tables = List.copyOf(tables);
        this.placeById = new HashMap<>();
        for (int i = 0; i < this.tables.size(); i++) {
            if (placeById.put(this.tables.get(i).id(), i) != null) {
                throw new IllegalArgumentException(
                        "table " + this.tables.get(i).id() + " is routed twice");
            }
        }
    }

    /** Routes for the given tables, in this order. */
    public static TableRoutes of(List<RoutedTable> tables) {
        return new TableRoutes(tables);
    }

    /**
     * Routes for every table that the builder's table and database lists select now, with the
     * columns and primary key each has now, read over one JDBC connection with the builder's
     * connection options.
     *
     * @throws IllegalArgumentException naming an invalid option, as {@code build()} does
     * @throws IOException when the server cannot be asked
     * @throws io.capstan.flink.mysql.error.CapstanHaltException {@code no_tables_matched}, or a
     *     column of a type capstan does not read ({@code unsupported_column_type})
     */
    public static TableRoutes discover(CapstanMySqlSourceBuilder<?> builder) throws IOException {
        CapstanSourceConfig config = builder.validatedConfig();
        List<RoutedTable> found = new ArrayList<>();
        try (JdbcProxy mysql = new ServerProxies(config).jdbc()) {
            for (TableId id : TableDiscovery.resolve(mysql, config.tables())) {
                found.add(routedTable(mysql.tableSchema(id)));
            }
        }
        return new TableRoutes(found);
    }

    static RoutedTable routedTable(TableSchema schema) {
        List<String> key = new ArrayList<>();
        for (int k : schema.keyColumnIndexes()) {
            key.add(schema.column(k).name());
        }
        return new RoutedTable(schema.tableId(), schema.rowType(), key);
    }

    /** The routed tables, in routing order. */
    public List<RoutedTable> tables() {
        return tables;
    }

    /** The routed table {@code id}, or null when it has no route. */
    public RoutedTable table(TableId id) {
        Integer place = placeById.get(id);
        return place == null ? null : tables.get(place);
    }

    /** The table's place in {@link #tables()}, or -1 when it has no route. */
    int placeOf(TableId id) {
        return placeById.getOrDefault(id, -1);
    }

    /**
     * The type of the rows the source emits: {@code route INT NOT NULL}, then one nullable {@code
     * ROW} per table ({@code t0}, {@code t1}, ...), of which only its table's is set.
     */
    public RowType routedRowType() {
        List<RowType.RowField> fields = new ArrayList<>(tables.size() + 1);
        fields.add(new RowType.RowField(ROUTE_FIELD, new IntType(false)));
        for (int i = 0; i < tables.size(); i++) {
            fields.add(new RowType.RowField("t" + i, tables.get(i).rowType().copy(true)));
        }
        return new RowType(false, fields);
    }

    /** The deserializer for the source: emits routed rows ({@link #routedRowType()}). */
    public CapstanDeserializer<RowData> deserializer() {
        return new RoutedRowDeserializer(this);
    }

    /**
     * One changelog stream of {@link Row} per table (its external type is the table's {@link
     * RoutedTable#dataType()}), in routing order, from the source's routed rows. The split runs
     * chained to the source, at its parallelism.
     */
    public Map<TableId, DataStream<Row>> split(DataStream<RowData> routed) {
        TableRouter router = new TableRouter(this);
        SingleOutputStreamOperator<Void> routing =
                routed.process(router, Types.VOID).name("capstan-table-routing");
        Map<TableId, DataStream<Row>> byTable = new LinkedHashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            byTable.put(tables.get(i).id(), routing.getSideOutput(router.outputOf(i)));
        }
        return byTable;
    }

    @Override
    public String toString() {
        // The no-values rule: identifiers only.
        List<TableId> ids = new ArrayList<>(tables.size());
        for (RoutedTable t : tables) {
            ids.add(t.id());
        }
        return "TableRoutes" + ids;
    }
}

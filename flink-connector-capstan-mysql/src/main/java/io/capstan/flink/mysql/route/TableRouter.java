package io.capstan.flink.mysql.route;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Sends each routed row to its table's side output, as an external {@link Row} of the table's type
 * with the change's {@code RowKind}. Stateless: what the source checkpointed is what it routes.
 */
final class TableRouter extends ProcessFunction<RowData, Void> {
    private static final long serialVersionUID = 1L;

    private final TableRoutes routes;
    private final OutputTag<Row>[] outputs;
    private final int[] arities; // each table's field count, not looked up per row

    private transient DataStructureConverter<Object, Object>[] converters;

    @SuppressWarnings("unchecked")
    TableRouter(TableRoutes routes) {
        this.routes = routes;
        this.outputs = new OutputTag[routes.tables().size()];
        this.arities = new int[outputs.length];
        for (int i = 0; i < outputs.length; i++) {
            RoutedTable t = routes.tables().get(i);
            arities[i] = t.rowType().getFieldCount();
            outputs[i] =
                    new OutputTag<>(
                            "capstan-route-" + t.id().database() + "." + t.id().table(),
                            ExternalTypeInfo.<Row>of(t.dataType()));
        }
    }

    OutputTag<Row> outputOf(int place) {
        return outputs[place];
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open(OpenContext openContext) {
        converters = new DataStructureConverter[outputs.length];
        for (int i = 0; i < outputs.length; i++) {
            converters[i] = DataStructureConverters.getConverter(routes.tables().get(i).dataType());
            converters[i].open(getRuntimeContext().getUserCodeClassLoader());
        }
    }

    @Override
    public void processElement(RowData routed, Context ctx, Collector<Void> out) {
        int place = routed.getInt(0);
        RowData row = routed.getRow(place + 1, arities[place]);
        Row external = (Row) converters[place].toExternal(row);
        external.setKind(routed.getRowKind());
        ctx.output(outputs[place], external);
    }
}

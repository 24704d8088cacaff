package io.capstan.flink.mysql.route;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.Collector;

/**
 * Emits each change as routed rows ({@link TableRoutes#routedRowType()}): the rows {@link
 * RowDataDeserializer} makes for the change's table (by name, with their {@code RowKind}), each
 * wrapped in a row that names the table's place. One {@link RowDataDeserializer} per table does the
 * mapping, so both halt alike when a table stops fitting.
 */
@Internal
public final class RoutedRowDeserializer implements CapstanDeserializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final TableRoutes routes;
    private final TypeInformation<RowData> producedType;
    private final RowDataDeserializer[] perTable;

    private transient Wrapping wrapping;

    RoutedRowDeserializer(TableRoutes routes) {
        this.routes = routes;
        this.producedType = InternalTypeInfo.of(routes.routedRowType());
        this.perTable = new RowDataDeserializer[routes.tables().size()];
        for (int i = 0; i < perTable.length; i++) {
            perTable[i] =
                    new RowDataDeserializer(InternalTypeInfo.of(routes.tables().get(i).rowType()));
        }
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<RowData> out) throws Exception {
        int place = routes.placeOf(event.tableId());
        if (place < 0) {
            throw new CapstanHaltException(
                    HaltReason.TABLE_ENTERED_SELECTION,
                    "captured table "
                            + event.tableId().quoted()
                            + " has no route: it was not among the tables TableRoutes.discover"
                            + " found when the job was built (created or renamed into the table"
                            + " list since). Remedy: leave it out of the table list, or create"
                            + " its sink and start the job again without state, so that discovery"
                            + " finds it.");
        }
        if (wrapping == null) {
            wrapping = new Wrapping(perTable.length + 1);
        }
        wrapping.to(out, place);
        perTable[place].deserialize(event, wrapping);
    }

    /** Wraps each row of one table in a fresh routed row and hands it on. */
    private static final class Wrapping implements Collector<RowData> {
        private final int arity;
        private Collector<RowData> out;
        private int place;

        Wrapping(int arity) {
            this.arity = arity;
        }

        void to(Collector<RowData> out, int place) {
            this.out = out;
            this.place = place;
        }

        @Override
        public void collect(RowData row) {
            // A fresh routed row per change: Flink may hold emitted records (object reuse off).
            GenericRowData routed = new GenericRowData(row.getRowKind(), arity);
            routed.setField(0, place);
            routed.setField(place + 1, row);
            out.collect(routed);
        }

        @Override
        public void close() {}
    }
}

package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/** {@code table|op|v} for tables whose column {@code v} is an INT unique per row. */
public final class ValueLineDeserializer implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) {
        RowData row = event.after() != null ? event.after() : event.before();
        out.collect(
                event.table()
                        + "|"
                        + event.operation().debeziumCode()
                        + "|"
                        + row.getInt(event.schema().columnIndex("v")));
    }
}

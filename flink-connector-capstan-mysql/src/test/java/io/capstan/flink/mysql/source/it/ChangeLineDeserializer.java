package io.capstan.flink.mysql.source.it;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * One line per change of a workload table {@code (id BIGINT, seq BIGINT, ver INT, payload)}, naming
 * the change uniquely: {@code table|c|seq|ver}, {@code
 * table|u|seq|verBefore>verAfter|idBefore>idAfter}, {@code table|d|seq|ver}.
 */
public final class ChangeLineDeserializer implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) {
        RowData b = event.before();
        RowData a = event.after();
        String t = event.table();
        switch (event.operation()) {
            case READ:
            case INSERT:
                out.collect(t + "|c|" + a.getLong(1) + "|" + a.getInt(2));
                break;
            case UPDATE:
                out.collect(
                        t
                                + "|u|"
                                + a.getLong(1)
                                + "|"
                                + b.getInt(2)
                                + ">"
                                + a.getInt(2)
                                + "|"
                                + b.getLong(0)
                                + ">"
                                + a.getLong(0));
                break;
            case DELETE:
                out.collect(t + "|d|" + b.getLong(1) + "|" + b.getInt(2));
                break;
            default:
                throw new IllegalStateException();
        }
    }
}

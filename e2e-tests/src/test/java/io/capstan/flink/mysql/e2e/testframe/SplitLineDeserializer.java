package io.capstan.flink.mysql.e2e.testframe;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;

/**
 * The suite's record: the {@code line} column of a split table's row, exactly as written, so the
 * framework can compare what the source emits with what the test wrote using {@code equals}. The
 * suite only inserts: any other operation is emitted as a marker that matches no written record, so
 * the framework's comparison fails on it instead of it passing unseen.
 */
final class SplitLineDeserializer implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) {
        switch (event.operation()) {
            case READ:
            case INSERT:
                out.collect(event.after().getString(SplitTable.LINE_FIELD).toString());
                break;
            default:
                out.collect("unexpected " + event.operation() + " on " + event.tableId());
        }
    }
}

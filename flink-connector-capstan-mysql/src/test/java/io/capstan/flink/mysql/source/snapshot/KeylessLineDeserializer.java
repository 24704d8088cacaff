package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * Lines of {@link SnapshotLineDeserializer} for the versioned tables; for the table without a key
 * {@code zl (a INT, b VARCHAR, n INT)}: {@code table|r|a,b,n}, {@code |c|}, {@code |d|} and {@code
 * table|u|a,b,n|a,b,n} (before, after). Whole rows: two identical rows give two equal lines.
 */
public final class KeylessLineDeserializer implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    private final SnapshotLineDeserializer versioned = new SnapshotLineDeserializer();

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) throws Exception {
        if (!event.table().equals("zl")) { // the versioned tables
            versioned.deserialize(event, out);
            return;
        }
        String t = event.table();
        switch (event.operation()) {
            case READ:
                out.collect(t + "|r|" + row(event.after()));
                break;
            case INSERT:
                out.collect(t + "|c|" + row(event.after()));
                break;
            case DELETE:
                out.collect(t + "|d|" + row(event.before()));
                break;
            case UPDATE:
                out.collect(t + "|u|" + row(event.before()) + "|" + row(event.after()));
                break;
            default:
                throw new IllegalStateException();
        }
    }

    static String row(RowData r) {
        return r.getInt(0) + "," + r.getString(1) + "," + (r.isNullAt(2) ? "null" : r.getInt(2));
    }
}

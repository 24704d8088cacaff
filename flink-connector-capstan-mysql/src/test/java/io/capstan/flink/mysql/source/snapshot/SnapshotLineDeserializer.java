package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * One line per change of a versioned table {@code (id BIGINT PK, seq BIGINT, ver INT, ...)}: {@code
 * table|r|id|seq|ver} (snapshot read), {@code table|c|id|seq|ver}, {@code table|d|id|seq|ver},
 * {@code table|u|id|seq|ver|id|seq|ver} (before, after). {@code seq} names a row across key moves
 * and {@code ver} grows with every write, so every change has a unique line.
 */
public final class SnapshotLineDeserializer implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) {
        String t = event.table();
        switch (event.operation()) {
            case READ:
                out.collect(t + "|r|" + image(event.after()));
                break;
            case INSERT:
                out.collect(t + "|c|" + image(event.after()));
                break;
            case DELETE:
                out.collect(t + "|d|" + image(event.before()));
                break;
            case UPDATE:
                out.collect(t + "|u|" + image(event.before()) + "|" + image(event.after()));
                break;
            default:
                throw new IllegalStateException();
        }
    }

    private static String image(RowData r) {
        return r.getLong(0) + "|" + r.getLong(1) + "|" + r.getInt(2);
    }
}

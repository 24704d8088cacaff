package io.capstan.flink.mysql.source.reader;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.util.Collector;

/**
 * Forwards a deserializer's records to the current source output with the event's timestamp; one
 * instance per emitter, re-pointed for each element so nothing is allocated per record.
 */
final class TimestampedCollector<T> implements Collector<T> {
    SourceOutput<T> output;
    long timestampMillis;

    @Override
    public void collect(T record) {
        output.collect(record, timestampMillis);
    }

    @Override
    public void close() {}
}

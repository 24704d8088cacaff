package io.capstan.flink.mysql.source.it;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * The sink of a job that must be refused before anything is read: any record reaching it fails the
 * job with an assertion error instead of the expected halt. Unlike a collect sink it has no state
 * to tear down, so a job that fails while its tasks are still starting cannot trip Flink's collect
 * sink (whose close before open fails the whole TaskManager of a shared MiniCluster).
 */
public final class FailOnWrite implements SinkWriter<String> {

    public static Sink<String> sink() {
        return ctx -> new FailOnWrite();
    }

    @Override
    public void write(String element, Context context) {
        throw new AssertionError("a record was read before the refusal");
    }

    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public void close() {}
}

package io.capstan.flink.mysql.source.it;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.io.IOException;

/**
 * A test sink whose writer needs nothing from Flink's writer context, on the Flink 1.20 line, where
 * {@link Sink}'s abstract method still takes the deprecated {@code InitContext} (Flink 2 removed
 * it). Both entries create the same writer. The 2.x line's class of the same name is in
 * src/test/flink-2/java.
 */
public abstract class ContextFreeSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    /** A new writer for one subtask. */
    protected abstract SinkWriter<T> createWriter() throws IOException;

    @Override
    @SuppressWarnings("deprecation")
    public final SinkWriter<T> createWriter(InitContext context) throws IOException {
        return createWriter();
    }

    @Override
    public final SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return createWriter();
    }
}

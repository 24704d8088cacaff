package io.capstan.flink.mysql.source.it;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.io.IOException;

/**
 * A test sink whose writer needs nothing from Flink's writer context, on the Flink 2.x line, where
 * {@link Sink} creates writers from a {@link WriterInitContext} only. The 1.20 line's class of the
 * same name (src/test/flink-1.20/java) also implements 1.20's abstract {@code
 * createWriter(InitContext)}.
 */
public abstract class ContextFreeSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    /** A new writer for one subtask. */
    protected abstract SinkWriter<T> createWriter() throws IOException;

    @Override
    public final SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return createWriter();
    }
}

package io.capstan.flink.mysql.bench.flink120;

import io.capstan.flink.mysql.bench.coldrun.ColdRunClock;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.types.Row;

/**
 * The end of every cold-run job: notes each changelog row's arrival on the JVM's {@link
 * ColdRunClock} and drops it. The clock is static, so the program's thread sees what the task
 * thread of the local MiniCluster (same JVM) noted.
 */
final class CountingSink implements Sink<Row> {
    private static final long serialVersionUID = 1L;

    /** Flink 1.20's abstract method (2.x has only the WriterInitContext one). */
    @Override
    @SuppressWarnings("deprecation")
    public SinkWriter<Row> createWriter(InitContext context) {
        return new Writer();
    }

    private static final class Writer implements SinkWriter<Row> {
        @Override
        public void write(Row row, Context context) {
            ColdRunClock.records(1);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A discarding sink that counts records and notes when they arrive, for jobs run in this JVM's
 * MiniCluster: the counters are static, so the benchmark thread reads what the task thread wrote.
 * In latency mode it also stores the arrival time of each probe row (key {@link #probeBase} + i) at
 * index i. One job at a time.
 */
final class ProbeSink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    static final AtomicLong RECORDS = new AtomicLong();
    static volatile long firstNanos;
    static volatile long lastNanos;
    static volatile long probeBase = Long.MAX_VALUE;
    static volatile long[] probeArrivalNanos = new long[0];

    static void reset() {
        RECORDS.set(0);
        firstNanos = 0;
        lastNanos = 0;
        probeBase = Long.MAX_VALUE;
        probeArrivalNanos = new long[0];
    }

    static void expectProbes(long base, int count) {
        probeArrivalNanos = new long[count];
        probeBase = base;
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
        return new Writer();
    }

    private static final class Writer implements SinkWriter<RowData> {
        @Override
        public void write(RowData row, Context context) {
            long now = System.nanoTime();
            if (RECORDS.getAndIncrement() == 0) {
                firstNanos = now;
            }
            lastNanos = now;
            if (row.getRowKind() == RowKind.INSERT) {
                long i = row.getLong(0) - probeBase;
                long[] arrivals = probeArrivalNanos;
                if (i >= 0 && i < arrivals.length) {
                    arrivals[(int) i] = now;
                }
            }
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
    }
}

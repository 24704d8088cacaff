package io.capstan.flink.mysql.bench.endtoend;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A discarding sink that counts records and notes when they arrive, for jobs run in this JVM's
 * MiniCluster: the counters are static, so the benchmark thread reads what the task thread wrote.
 * In latency mode it also stores the arrival time of each probe row (key {@link #probeBase} + i) at
 * index i. For the gate phase it can hold the task thread at one record until released (so the
 * snapshot pauses part-way), times the records other than inserts (only the binary log emits those)
 * and notes when a marker row arrives. One job at a time.
 */
final class ProbeSink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    static final AtomicLong RECORDS = new AtomicLong();
    static volatile long firstNanos;
    static volatile long lastNanos;
    static volatile long probeBase = Long.MAX_VALUE;
    static volatile long[] probeArrivalNanos = new long[0];

    /** Records that are not inserts (updates, deletes): the binary log's, never the snapshot's. */
    static final AtomicLong NON_INSERTS = new AtomicLong();

    static volatile long firstNonInsertNanos;
    static volatile long recordsAtFirstNonInsert;
    static volatile long lastNonInsertNanos;
    static volatile long holdAtRecord = Long.MAX_VALUE;
    static volatile CountDownLatch holding = new CountDownLatch(1);
    static volatile CountDownLatch release = new CountDownLatch(0);
    static volatile StringData markerKey;
    static volatile long markerNanos;
    static volatile long recordsAtMarker;

    static void reset() {
        RECORDS.set(0);
        firstNanos = 0;
        lastNanos = 0;
        probeBase = Long.MAX_VALUE;
        probeArrivalNanos = new long[0];
        NON_INSERTS.set(0);
        firstNonInsertNanos = 0;
        recordsAtFirstNonInsert = 0;
        lastNonInsertNanos = 0;
        holdAtRecord = Long.MAX_VALUE;
        holding = new CountDownLatch(1);
        release = new CountDownLatch(0);
        markerKey = null;
        markerNanos = 0;
        recordsAtMarker = 0;
    }

    /**
     * The writer stops at record number {@code record} (0-based) until {@link #release()}; {@link
     * #holding} opens when it stops.
     */
    static void holdAt(long record) {
        release = new CountDownLatch(1);
        holdAtRecord = record;
    }

    static void release() {
        release.countDown();
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
            long n = RECORDS.getAndIncrement();
            if (n == 0) {
                firstNanos = now;
            }
            lastNanos = now;
            if (n == holdAtRecord) {
                hold();
            }
            if (row.getRowKind() != RowKind.INSERT) {
                if (NON_INSERTS.getAndIncrement() == 0) {
                    firstNonInsertNanos = now;
                    recordsAtFirstNonInsert = n;
                }
                lastNonInsertNanos = now;
            } else if (markerKey != null) {
                if (markerKey.equals(row.getString(0))) {
                    recordsAtMarker = n;
                    markerNanos = now;
                }
            } else if (probeBase != Long.MAX_VALUE) {
                long i = row.getLong(0) - probeBase;
                long[] arrivals = probeArrivalNanos;
                if (i >= 0 && i < arrivals.length) {
                    arrivals[(int) i] = now;
                }
            }
        }

        private void hold() {
            holding.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the job is being cancelled
            }
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
    }
}

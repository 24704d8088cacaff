package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.binlog.BinlogStreamerConfig;
import io.capstan.flink.mysql.binlog.TableFilter;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.RowChange;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.SSLMode;

import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the change workload's row changes from the binlog, from the {@link BinlogStart} before the
 * changes (a GTID set, or a file and position on a server without GTIDs): with a plain {@link
 * BinaryLogClient} and the library's default deserializer (the limit), and with our {@link
 * BinlogStreamer} (converted {@link RowChange} records). Both count row changes and time from the
 * first to the last one, so connection setup is left out of both alike.
 */
final class BinlogReads {

    private static final long TIMEOUT_MINUTES = 30;

    /** Replica server ids for the readers; each run gets a fresh one. */
    private static final AtomicInteger NEXT_SERVER_ID = new AtomicInteger(7100);

    private BinlogReads() {}

    static int nextServerId() {
        return NEXT_SERVER_ID.getAndIncrement();
    }

    /**
     * The limit: the library's own client and default event deserializer, counting rows of rows
     * events.
     */
    static PhaseResult plainClient(MySqlConnectionConfig c, BinlogStart before, long expected)
            throws Exception {
        try (HeapWatch heap = HeapWatch.start()) {
            BinaryLogClient client =
                    new BinaryLogClient(c.hostname(), c.port(), c.username(), c.password());
            client.setServerId(nextServerId());
            client.setKeepAlive(false);
            client.setSSLMode(SSLMode.valueOf(c.sslMode().name()));
            before.applyTo(client);
            CountDownLatch done = new CountDownLatch(1);
            long[] times = new long[2];
            long[] count = new long[1];
            long[] counted =
                    new long[1]; // at the expected count: more events may arrive before the
            // disconnect
            client.registerEventListener(
                    event -> {
                        EventData data = event.getData();
                        int rows;
                        if (data instanceof WriteRowsEventData) {
                            rows = ((WriteRowsEventData) data).getRows().size();
                        } else if (data instanceof UpdateRowsEventData) {
                            rows = ((UpdateRowsEventData) data).getRows().size();
                        } else if (data instanceof DeleteRowsEventData) {
                            rows = ((DeleteRowsEventData) data).getRows().size();
                        } else {
                            return;
                        }
                        long now = System.nanoTime();
                        if (count[0] == 0) {
                            times[0] = now;
                        }
                        count[0] += rows;
                        if (count[0] >= expected && times[1] == 0) {
                            times[1] = now;
                            counted[0] = count[0];
                            done.countDown();
                        }
                    });
            client.connect(TimeUnit.SECONDS.toMillis(30));
            try {
                if (!done.await(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    throw new IllegalStateException(
                            "the plain client saw "
                                    + count[0]
                                    + " of "
                                    + expected
                                    + " row changes within "
                                    + TIMEOUT_MINUTES
                                    + " minutes");
                }
            } finally {
                client.disconnect();
            }
            return new PhaseResult(
                    counted[0], times[1] - times[0], heap.maxUsedAfterGc(), HeapWatch.peakUsed());
        }
    }

    /**
     * Ours: {@link BinlogStreamer} with the table captured, polled like the source's split reader
     * does.
     */
    static PhaseResult streamer(
            MySqlConnectionConfig c, BenchTable table, BinlogStart before, long expected)
            throws Exception {
        try (HeapWatch heap = HeapWatch.start()) {
            BinlogStreamerConfig config =
                    BinlogStreamerConfig.builder()
                            .connection(c)
                            .serverId(nextServerId())
                            .tableFilter(TableFilter.of(Set.of(table.id())))
                            .build();
            long count = 0;
            long first = 0;
            long last = 0;
            long sink = 0;
            try (BinlogStreamer streamer = new BinlogStreamer(config, before.streamerStart())) {
                streamer.start();
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
                while (count < expected) {
                    BinlogRecord record = streamer.poll(1, TimeUnit.SECONDS);
                    if (record instanceof RowChange) {
                        RowChange change = (RowChange) record;
                        sink +=
                                change.after() != null
                                        ? change.after().getArity()
                                        : change.before().getArity();
                        if (count++ == 0) {
                            first = System.nanoTime();
                        }
                    } else if (record == null && System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the streamer delivered "
                                        + count
                                        + " of "
                                        + expected
                                        + " row changes within "
                                        + TIMEOUT_MINUTES
                                        + " minutes");
                    }
                }
                last = System.nanoTime();
            }
            blackhole = sink;
            return new PhaseResult(
                    count, last - first, heap.maxUsedAfterGc(), HeapWatch.peakUsed());
        }
    }

    private static volatile long blackhole;
}

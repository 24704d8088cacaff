package io.capstan.flink.mysql.perf;

import io.capstan.flink.mysql.bench.endtoend.BenchServer;
import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.binlog.BinlogStreamerConfig;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.convert.BinlogEventDeserializers;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.read.BinlogSchemaReader;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the binlog path's time goes, against a plain {@link BinaryLogClient} decoding the same
 * events (the goal's measure). One embedded server, one JVM, variants alternating within each
 * round, each streaming the same row changes (inserts, updates, deletes in transactions of 100
 * rows) from the GTID set before them:
 *
 * <ul>
 *   <li>{@code plain}: the library's default deserializer, counting rows;
 *   <li>{@code decode+convert}: {@link BinlogEventDeserializers#create()} and {@link
 *       RowConverter#fromBinlog} per row image, on the client's thread;
 *   <li>{@code streamer}: {@link BinlogStreamer} polled to exhaustion (default queue).
 * </ul>
 *
 * Run: {@code mvn -B -o -pl capstan-mysql-benchmarks -am test -Dtest=BinlogDecodeProbe
 * -Dsurefire.failIfNoSpecifiedTests=false -Dperf.changes=300000 -Dperf.rounds=5}, or its main on
 * the test classpath ({@code -Dperf.only=streamer} repeats one variant, e.g. under JFR).
 */
public class BinlogDecodeProbe {

    private static final String DB = "perf_binlog";
    private static final String TABLE = "c";
    private static final int PER_TRANSACTION = 100;
    private static final AtomicLong SERVER_IDS = new AtomicLong(7000);

    private static volatile long sink;

    @Test
    void probe() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) throws Exception {
        int changes = PerfData.intProperty("perf.changes", 300_000);
        try (MySqlServer server = MySqlServer.startEmbedded(ServerOptions.defaults())) {
            PerfData.createTable(server, DB, TABLE);
            String before = server.gtidExecuted().replaceAll("\\s", "");
            long t0 = System.nanoTime();
            long expected = generate(server, changes);
            System.out.printf(
                    "generated %d row changes in %.1f s%n",
                    expected, (System.nanoTime() - t0) / 1e9);
            // -Dperf.ssl=DISABLED measures without TLS (default: the connector's default,
            // PREFERRED)
            MySqlConnectionConfig config =
                    BenchServer.connectorConfig(
                            server, SslMode.valueOf(System.getProperty("perf.ssl", "PREFERRED")));

            Map<String, PerfData.Variant> variants = new LinkedHashMap<>();
            variants.put("plain", () -> client(config, before, expected, false));
            variants.put("decode+convert", () -> client(config, before, expected, true));
            variants.put("streamer", () -> streamer(config, before, expected));
            PerfData.measure(variants, expected, "row changes");
        }
    }

    /**
     * Half inserts, a third updates, the rest deletes, in transactions of 100 rows; returns the
     * count.
     */
    private static long generate(MySqlServer server, int changes) throws Exception {
        long inserts = changes / 2;
        long updates = changes / 3;
        long deletes = changes - inserts - updates;
        PerfData.insertRows(server, DB, TABLE, 1, inserts + 1, PER_TRANSACTION);
        String t = DB + "." + TABLE;
        List<String> sql = new ArrayList<>();
        for (long id = 1; id <= updates; id += PER_TRANSACTION) {
            long last = Math.min(updates, id + PER_TRANSACTION - 1);
            sql.add(
                    "UPDATE "
                            + t
                            + " SET i = i + 1, amount = amount + 1.25, dt = dt + INTERVAL 1 SECOND,"
                            + " s64 = CONCAT('u', SUBSTRING(s64, 2)) WHERE id BETWEEN "
                            + id
                            + " AND "
                            + last);
            if (sql.size() == 200) {
                server.executeAsRoot(sql.toArray(new String[0]));
                sql.clear();
            }
        }
        for (long id = inserts - deletes + 1; id <= inserts; id += PER_TRANSACTION) {
            long last = Math.min(inserts, id + PER_TRANSACTION - 1);
            sql.add("DELETE FROM " + t + " WHERE id BETWEEN " + id + " AND " + last);
            if (sql.size() == 200) {
                server.executeAsRoot(sql.toArray(new String[0]));
                sql.clear();
            }
        }
        server.executeAsRoot(sql.toArray(new String[0]));
        return inserts + updates + deletes;
    }

    /**
     * A plain client from the GTID set {@code before}; with {@code convert}, our deserializer and
     * converter.
     */
    private static long client(
            MySqlConnectionConfig config, String before, long expected, boolean convert)
            throws Exception {
        BinaryLogClient client =
                new BinaryLogClient(
                        config.hostname(), config.port(), config.username(), config.password());
        client.setServerId(SERVER_IDS.incrementAndGet());
        client.setKeepAlive(false);
        client.setSSLMode(SSLMode.valueOf(config.sslMode().name()));
        client.setGtidSet(before);
        if (convert) {
            client.setEventDeserializer(BinlogEventDeserializers.create());
        }
        CountDownLatch done = new CountDownLatch(1);
        long[] rows = {0};
        Map<Long, RowConverter> converters = new HashMap<>();
        client.registerEventListener(
                new BinaryLogClient.EventListener() {
                    long h;

                    @Override
                    public void onEvent(Event event) {
                        EventData data = event.getData();
                        if (data instanceof TableMapEventData && convert) {
                            TableMapEventData m = (TableMapEventData) data;
                            converters.computeIfAbsent(
                                    m.getTableId(),
                                    id ->
                                            RowConverter.of(
                                                    BinlogSchemaReader.fromTableMap(
                                                            TableId.of(
                                                                    m.getDatabase(), m.getTable()),
                                                            m)));
                        } else if (data instanceof WriteRowsEventData) {
                            WriteRowsEventData w = (WriteRowsEventData) data;
                            RowConverter c = converters.get(w.getTableId());
                            for (Serializable[] row : w.getRows()) {
                                h += c == null ? row.length : c.fromBinlog(row).getArity();
                            }
                            count(w.getRows().size());
                        } else if (data instanceof UpdateRowsEventData) {
                            UpdateRowsEventData u = (UpdateRowsEventData) data;
                            RowConverter c = converters.get(u.getTableId());
                            for (Map.Entry<Serializable[], Serializable[]> row : u.getRows()) {
                                h +=
                                        c == null
                                                ? row.getKey().length
                                                : c.fromBinlog(row.getKey()).getArity()
                                                        + c.fromBinlog(row.getValue()).getArity();
                            }
                            count(u.getRows().size());
                        } else if (data instanceof DeleteRowsEventData) {
                            DeleteRowsEventData d = (DeleteRowsEventData) data;
                            RowConverter c = converters.get(d.getTableId());
                            for (Serializable[] row : d.getRows()) {
                                h += c == null ? row.length : c.fromBinlog(row).getArity();
                            }
                            count(d.getRows().size());
                        }
                    }

                    private void count(int n) {
                        rows[0] += n;
                        if (rows[0] >= expected) {
                            sink += h;
                            done.countDown();
                        }
                    }
                });
        client.connect(10_000);
        try {
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("timed out after " + rows[0] + " rows");
            }
        } finally {
            client.disconnect();
        }
        return rows[0];
    }

    private static long streamer(MySqlConnectionConfig config, String before, long expected)
            throws Exception {
        TableId table = TableId.of(DB, TABLE);
        BinlogStreamerConfig sc =
                BinlogStreamerConfig.builder()
                        .connection(config)
                        .serverId(SERVER_IDS.incrementAndGet())
                        .tableFilter(table::equals)
                        .build();
        long rows = 0;
        long h = 0;
        try (BinlogStreamer streamer =
                new BinlogStreamer(sc, BinlogStartPosition.of(GtidSet.parse(before)))) {
            streamer.start();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (rows < expected) {
                BinlogRecord r = streamer.poll(100, TimeUnit.MILLISECONDS);
                if (r instanceof RowChange) {
                    rows++;
                    h += ((RowChange) r).indexInTransaction();
                } else if (r == null && System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out after " + rows + " rows");
                }
            }
        }
        sink += h;
        return rows;
    }
}

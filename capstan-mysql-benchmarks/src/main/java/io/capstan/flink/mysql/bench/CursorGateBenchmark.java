package io.capstan.flink.mysql.bench;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@link CursorGate#suppress(TableId, RowData, Gtid)}, called for every row image of a gated table
 * after the snapshot: find the chunk holding the image's key (binary search over the chunk
 * boundaries of a BIGINT key), then test the transaction against that chunk's G. The table has
 * {@code chunks} chunks of 8,096 keys (124 ≈ 1,000,000 rows; 12,352 ≈ 100,000,000 rows); chunk i's
 * G is {@code uuid:1-(1000+i)}, as when chunks are read one after another under a write load.
 *
 * <p>Run: see docs/performance.md, "Microbenchmarks (JMH)".
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CursorGateBenchmark {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final int CHUNK_SIZE = 8096;
    private static final int PROBES = 1024;

    @Param({"124", "12352"})
    public int chunks;

    private CursorGate gate;
    private TableId table;
    private RowData[] images;
    private Gtid[] inside;
    private Gtid[] outside;
    private int next;

    @Setup
    public void setUp() {
        table = TableId.of("bench", "orders");
        ChunkKey key =
                new ChunkKey(
                        table,
                        List.of(new KeyColumn("id", 0, KeyKind.INTEGER, false, 0, 0, "bigint")),
                        ChunkKey.Source.PRIMARY_KEY);
        List<FinishedChunk> finished = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            KeyTuple low = i == 0 ? null : KeyTuple.of((long) i * CHUNK_SIZE + 1);
            KeyTuple high = i == chunks - 1 ? null : KeyTuple.of((long) (i + 1) * CHUNK_SIZE + 1);
            finished.add(
                    new FinishedChunk(
                            ChunkRange.of(low, high), GtidSet.parse(UUID + ":1-" + (1000 + i))));
        }
        gate = CursorGate.of(Map.of(key, finished));
        SplittableRandom r = new SplittableRandom(7);
        images = new RowData[PROBES];
        inside = new Gtid[PROBES];
        outside = new Gtid[PROBES];
        for (int p = 0; p < PROBES; p++) {
            long id = 1 + r.nextLong((long) chunks * CHUNK_SIZE);
            GenericRowData row = new GenericRowData(3);
            row.setField(0, id);
            row.setField(1, p);
            images[p] = row;
            inside[p] = Gtid.of(UUID, 1 + r.nextInt(1000));
            outside[p] = Gtid.of(UUID, 1000L + chunks + 1 + r.nextInt(1000));
        }
        if (!gate.suppress(table, images[0], inside[0])
                || gate.suppress(table, images[0], outside[0])) {
            throw new IllegalStateException("the gate fixture does not gate as intended");
        }
    }

    /** A change the snapshot already holds (suppressed). */
    @Benchmark
    public boolean suppressed() {
        int p = next++ & (PROBES - 1);
        return gate.suppress(table, images[p], inside[p]);
    }

    /** A change after the snapshot (forwarded). */
    @Benchmark
    public boolean forwarded() {
        int p = next++ & (PROBES - 1);
        return gate.suppress(table, images[p], outside[p]);
    }
}

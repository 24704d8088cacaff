package io.capstan.flink.mysql.bench;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.event.Operation;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.Collector;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * The per-change work on the source's task thread after decoding, for an UPDATE of the end-to-end
 * benchmark's 10-column table: the {@link ChangeEvent} the emitter builds (including the GTID's
 * text), then the built-in deserializers: {@link RowDataDeserializer} (what the SQL connector uses:
 * two RowData records) and {@link JsonDebeziumDeserializer} (one JSON text).
 *
 * <p>Run: see docs/performance.md, "Microbenchmarks (JMH)".
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ChangeEventDeserializerBenchmark {

    private static final int ROWS = 256;
    private static final String GTID = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1234567";

    private RowConverter converter;
    private RowData[] before;
    private RowData[] after;
    private RowDataDeserializer rowData;
    private JsonDebeziumDeserializer json;
    private int next;

    @Setup
    public void setUp() {
        RowDecodingBenchmark rows = new RowDecodingBenchmark();
        rows.family = "benchTable";
        rows.setUp();
        converter = rows.converter();
        before = new RowData[ROWS];
        after = new RowData[ROWS];
        for (int i = 0; i < ROWS; i++) {
            before[i] = converter.fromBinlog(rows.row(i));
            after[i] = converter.fromBinlog(rows.row(i + 1));
        }
        rowData = new RowDataDeserializer(InternalTypeInfo.of(converter.schema().rowType()));
        json = new JsonDebeziumDeserializer();
    }

    private ChangeEvent nextUpdate() {
        int i = next++ & (ROWS - 1);
        return new ChangeEvent(
                Operation.UPDATE,
                before[i],
                after[i],
                converter.schema(),
                converter.schema().tableId(),
                GTID,
                1_700_000_000_000_000L,
                i);
    }

    @Benchmark
    public void rowDataDeserializer(Blackhole bh) throws Exception {
        rowData.deserialize(nextUpdate(), new BlackholeCollector<>(bh));
    }

    @Benchmark
    public void jsonDebeziumDeserializer(Blackhole bh) throws Exception {
        json.deserialize(nextUpdate(), new BlackholeCollector<>(bh));
    }

    private static final class BlackholeCollector<T> implements Collector<T> {
        private final Blackhole bh;

        BlackholeCollector(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public void collect(T record) {
            bh.consume(record);
        }

        @Override
        public void close() {}
    }
}

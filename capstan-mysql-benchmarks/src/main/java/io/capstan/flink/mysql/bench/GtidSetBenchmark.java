package io.capstan.flink.mysql.bench;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@link GtidSet#contains} (called per row change by the cursor gate) and {@link GtidSet#add}
 * (called per transaction by the binlog reader) on a set of 1,000 ranges over 10 source UUIDs.
 *
 * <p>Run: see docs/performance.md, "Microbenchmarks (JMH)".
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GtidSetBenchmark {

    private static final int UUIDS = 10;
    private static final int RANGES_PER_UUID = 100; // 10 x 100 = 1,000 ranges
    private static final int STRIDE = 10; // range k of a uuid is [10k+1, 10k+5]
    private static final int PROBES = 1024; // power of two, cycled through

    private String[] uuids;
    private GtidSet set;
    private Gtid[] hits;
    private Gtid[] gapMisses;
    private Gtid[] unknownSourceMisses;
    private Gtid[] newInGap;
    private int probe;

    // The binlog reader's pattern: one running set, the next transaction number of one source.
    private GtidSet running;
    private long nextTransaction;

    @Setup(Level.Trial)
    public void buildSet() {
        Random random = new Random(42);
        uuids = new String[UUIDS];
        GtidSet.Builder builder = GtidSet.builder();
        for (int u = 0; u < UUIDS; u++) {
            uuids[u] =
                    String.format("%08x-71ca-11e1-9e33-c80aa94295%02d", 0x3e11fa47 + u * 7919, u);
            for (int k = 0; k < RANGES_PER_UUID; k++) {
                builder.addRange(uuids[u], "", (long) k * STRIDE + 1, (long) k * STRIDE + 5);
            }
        }
        set = builder.build();
        hits = new Gtid[PROBES];
        gapMisses = new Gtid[PROBES];
        unknownSourceMisses = new Gtid[PROBES];
        newInGap = new Gtid[PROBES];
        for (int i = 0; i < PROBES; i++) {
            String uuid = uuids[random.nextInt(UUIDS)];
            long base = (long) random.nextInt(RANGES_PER_UUID) * STRIDE;
            hits[i] = Gtid.of(uuid, base + 1 + random.nextInt(5)); // inside a range
            gapMisses[i] = Gtid.of(uuid, base + 7 + random.nextInt(3)); // 7..9: a gap, not touching
            unknownSourceMisses[i] =
                    Gtid.of(
                            String.format(
                                    "%08x-0000-4000-8000-000000000000", random.nextInt(1 << 30)),
                            base + 1);
            newInGap[i] = gapMisses[i];
        }
        running = set;
        nextTransaction = (long) RANGES_PER_UUID * STRIDE + 1;
    }

    private int next() {
        return probe = (probe + 1) & (PROBES - 1);
    }

    @Benchmark
    public boolean containsHit() {
        return set.contains(hits[next()]);
    }

    @Benchmark
    public boolean containsMissInGap() {
        return set.contains(gapMisses[next()]);
    }

    @Benchmark
    public boolean containsMissUnknownSource() {
        return set.contains(unknownSourceMisses[next()]);
    }

    /** Adding a GTID already in the set returns the same set. */
    @Benchmark
    public GtidSet addExisting() {
        return set.add(hits[next()]);
    }

    /** Adding a GTID in a gap inserts a new range: copies that source's 100-range array. */
    @Benchmark
    public GtidSet addNewRangeInGap() {
        return set.add(newInGap[next()]);
    }

    /**
     * The binlog reader's common case: set = set.add(next GTID of the source), Gtid creation
     * included.
     */
    @Benchmark
    public GtidSet addNextTransaction() {
        running = running.add(Gtid.of(uuids[0], nextTransaction++));
        return running;
    }
}

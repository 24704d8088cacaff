package io.capstan.flink.mysql.bench.coldrun;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The clock of one cold-run JVM: time zero is the first line of the program's {@code main} (what
 * a user's job meets: everything the program then does counts, Flink's start included), and every
 * record reaching the counting sink is noted here. Static, because the counting sink runs on a task
 * thread of the MiniCluster inside this JVM.
 *
 * <p>Flink-free, so both Flink lines' cold-run programs share it (capstan-mysql-benchmarks and
 * capstan-mysql-cold-run-flink-1.20 add this source folder).
 */
public final class ColdRunClock {

    private static long mainNanos;
    private static long mainEpochMicros;
    private static final AtomicLong RECORDS = new AtomicLong();
    private static volatile long expected = Long.MAX_VALUE;
    private static volatile long firstNanos;
    private static volatile long lastNanos;
    private static volatile long cpuAtFirstNanos;
    private static volatile long cpuAtLastNanos;
    private static volatile long submitNanos;
    private static volatile long cpuAtSubmitNanos;
    private static volatile long acceptedNanos;

    private ColdRunClock() {}

    /** Call first in {@code main}: time zero. */
    public static void mainStarted() {
        mainNanos = System.nanoTime();
        mainEpochMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /** Starts one run of the measured program: {@code expected} records end it. */
    public static void startRun(long expectedRecords) {
        RECORDS.set(0);
        firstNanos = 0;
        lastNanos = 0;
        cpuAtFirstNanos = 0;
        cpuAtLastNanos = 0;
        submitNanos = System.nanoTime();
        cpuAtSubmitNanos = processCpuNanos();
        acceptedNanos = 0;
        expected = expectedRecords;
    }

    /**
     * Notes that the job was accepted (for a local environment: {@code executeAsync} returned, so
     * the MiniCluster runs and has the job). What follows until the first record is the job's own
     * start: deployment and the source's start-up, without the MiniCluster's.
     */
    public static void jobAccepted() {
        acceptedNanos = System.nanoTime();
    }

    /** Notes {@code n} records arriving now (the counting sink's and the raw readers' one call). */
    public static void records(long n) {
        long before = RECORDS.getAndAdd(n);
        // the clock is read at the first and the last record only: nothing else per record
        if (before == 0) {
            firstNanos = System.nanoTime();
            cpuAtFirstNanos = processCpuNanos();
        }
        if (before < expected && before + n >= expected) {
            lastNanos = System.nanoTime();
            cpuAtLastNanos = processCpuNanos();
        }
    }

    public static long records() {
        return RECORDS.get();
    }

    /** True once the expected records arrived. */
    public static boolean complete() {
        return cpuAtLastNanos != 0;
    }

    /** The run's line (see {@link ColdRunLine}); the first run of a JVM is its cold one. */
    public static ColdRunLine finishRun(int run) {
        if (!complete()) {
            throw new IllegalStateException(
                    "run " + run + " ended after " + RECORDS.get() + " of " + expected + " records");
        }
        return new ColdRunLine(
                run,
                mainEpochMicros,
                micros(submitNanos),
                acceptedNanos == 0 ? 0 : micros(acceptedNanos),
                micros(firstNanos),
                micros(lastNanos),
                expected,
                cpuAtSubmitNanos / 1000,
                cpuAtFirstNanos / 1000,
                cpuAtLastNanos / 1000,
                peakHeapBytes());
    }

    private static long micros(long nanos) {
        return (nanos - mainNanos) / 1000;
    }

    /** CPU time of the whole JVM (every thread, JIT and GC included) since it started. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long peakHeapBytes() {
        long sum = 0;
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}

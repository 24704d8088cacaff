package io.capstan.flink.mysql.bench.coldrun;

import java.util.HashMap;
import java.util.Map;

/**
 * One run's measurements, as the cold-run program prints them on one stdout line and the
 * benchmark reads them back: times in microseconds from the program's {@code main}, CPU time of
 * the whole JVM since it started.
 *
 * @param run 1 for the JVM's first (cold) run, 2.. for the warm runs after it in the same JVM
 * @param mainEpochMicros when {@code main} started, microseconds since the epoch (JVM boot = this
 *     minus the moment the benchmark launched the process)
 * @param submitMicros when the program started this run (for a Flink job: built it and called
 *     {@code executeAsync}, which also starts the local MiniCluster)
 * @param acceptedMicros when the job was accepted ({@code executeAsync} returned), 0 if the
 *     program has no such moment (the raw readers)
 * @param firstMicros when the first record arrived
 * @param lastMicros when the last expected record arrived
 * @param records the records counted
 * @param cpuAtSubmitMicros JVM CPU time at submission
 * @param cpuAtFirstMicros JVM CPU time at the first record
 * @param cpuAtLastMicros JVM CPU time at the last record
 * @param heapPeakBytes the sum of the heap pools' peaks (an upper bound, garbage included)
 */
public record ColdRunLine(
        int run,
        long mainEpochMicros,
        long submitMicros,
        long acceptedMicros,
        long firstMicros,
        long lastMicros,
        long records,
        long cpuAtSubmitMicros,
        long cpuAtFirstMicros,
        long cpuAtLastMicros,
        long heapPeakBytes) {

    public static final String PREFIX = "COLD-RUN ";

    public String format() {
        return PREFIX
                + "run="
                + run
                + " mainEpochMicros="
                + mainEpochMicros
                + " submitMicros="
                + submitMicros
                + " acceptedMicros="
                + acceptedMicros
                + " firstMicros="
                + firstMicros
                + " lastMicros="
                + lastMicros
                + " records="
                + records
                + " cpuAtSubmitMicros="
                + cpuAtSubmitMicros
                + " cpuAtFirstMicros="
                + cpuAtFirstMicros
                + " cpuAtLastMicros="
                + cpuAtLastMicros
                + " heapPeakBytes="
                + heapPeakBytes;
    }

    /** Reads a line {@link #format()} printed; throws if it is not one. */
    public static ColdRunLine parse(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a cold-run line");
        }
        Map<String, Long> v = new HashMap<>();
        for (String field : line.substring(PREFIX.length()).trim().split(" ")) {
            int eq = field.indexOf('=');
            v.put(field.substring(0, eq), Long.parseLong(field.substring(eq + 1)));
        }
        return new ColdRunLine(
                Math.toIntExact(v.get("run")),
                v.get("mainEpochMicros"),
                v.get("submitMicros"),
                v.getOrDefault("acceptedMicros", 0L),
                v.get("firstMicros"),
                v.get("lastMicros"),
                v.get("records"),
                v.get("cpuAtSubmitMicros"),
                v.get("cpuAtFirstMicros"),
                v.get("cpuAtLastMicros"),
                v.get("heapPeakBytes"));
    }
}

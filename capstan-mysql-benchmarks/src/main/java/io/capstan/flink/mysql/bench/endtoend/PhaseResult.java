package io.capstan.flink.mysql.bench.endtoend;

/**
 * One measurement of one phase: a rate (items per second) over {@code count} items, and the heap it
 * needed.
 */
final class PhaseResult {
    final long count;
    final long nanos;
    final long heapAfterGcMax;
    final long heapPeak;

    PhaseResult(long count, long nanos, long heapAfterGcMax, long heapPeak) {
        this.count = count;
        this.nanos = nanos;
        this.heapAfterGcMax = heapAfterGcMax;
        this.heapPeak = heapPeak;
    }

    double perSecond() {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }
}

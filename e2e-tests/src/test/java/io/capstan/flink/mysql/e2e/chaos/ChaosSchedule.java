package io.capstan.flink.mysql.e2e.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The faults of one chaos round, drawn from a seed alone, so that a round can be replayed: the
 * faults at (not before) given moments after the job started, and one more fault for the handoff,
 * injected when the snapshot is about to end, whenever that is.
 *
 * @param seed what the schedule is drawn from ({@code -Dcapstan.chaos.seed=} replays it)
 * @param steps the timed faults, in time order
 * @param atHandoff the fault injected at the snapshot's end
 */
public record ChaosSchedule(long seed, List<Step> steps, Fault atHandoff) {

    /** A fault and when to inject it, in milliseconds after the job's start. */
    public record Step(long atMillis, Fault fault) {
        @Override
        public String toString() {
            return String.format("%6.1fs %s", atMillis / 1000.0, fault);
        }
    }

    public ChaosSchedule {
        steps = List.copyOf(steps);
    }

    /**
     * Faults from {@code firstGap} on, one every {@code minGap} to {@code maxGap} (uniform), until
     * {@code length}; kinds drawn by {@link Fault#weight}.
     */
    public static ChaosSchedule draw(
            long seed, Duration length, Duration firstGap, Duration minGap, Duration maxGap) {
        Random random = new Random(seed);
        List<Step> steps = new ArrayList<>();
        long at = firstGap.toMillis();
        while (at < length.toMillis()) {
            steps.add(new Step(at, pick(random)));
            at += minGap.toMillis() + random.nextLong(maxGap.toMillis() - minGap.toMillis() + 1);
        }
        return new ChaosSchedule(seed, steps, pick(random));
    }

    private static Fault pick(Random random) {
        int total = 0;
        for (Fault f : Fault.values()) {
            total += f.weight;
        }
        int r = random.nextInt(total);
        for (Fault f : Fault.values()) {
            r -= f.weight;
            if (r < 0) {
                return f;
            }
        }
        throw new AssertionError("weights");
    }

    /** Seed, handoff fault and steps, one a line: what a failure report prints for a replay. */
    @Override
    public String toString() {
        StringBuilder text =
                new StringBuilder("seed ")
                        .append(seed)
                        .append(" (replay: -Dcapstan.chaos.seed=")
                        .append(seed)
                        .append("), at the handoff: ")
                        .append(atHandoff)
                        .append(", ")
                        .append(steps.size())
                        .append(" timed faults:");
        for (Step step : steps) {
            text.append("\n  ").append(step);
        }
        return text.toString();
    }
}

package io.capstan.flink.mysql.e2e.chaos;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one chaos round did and found: the faults applied (when, in which phase of the job, what
 * they did), the violations of the verdict (empty: exactly once and the final contents equal
 * MySQL's), and a halt if the job stopped with one. {@link #report()} prints what a replay needs.
 *
 * @param schedule the seed's schedule
 * @param applied the faults applied, in order
 * @param violations what the verdict found wrong, the first first
 * @param halt the job's failure if it stopped (a named halt or otherwise), else null
 * @param summary counts of the verdict (changes, rows, snapshot reads) per table
 * @param millis the round's wall time
 */
public record ChaosOutcome(
        ChaosSchedule schedule,
        List<Applied> applied,
        List<String> violations,
        String halt,
        String summary,
        long millis) {

    /** Where in the job's life a fault landed. */
    public enum Phase {
        SNAPSHOT,
        HANDOFF,
        STREAM
    }

    /** One fault as applied: at which second of the round, in which phase, what it did. */
    public record Applied(long atMillis, Fault fault, Phase phase, String what) {
        @Override
        public String toString() {
            return String.format("%6.1fs %-8s %-18s %s", atMillis / 1000.0, phase, fault, what);
        }
    }

    public ChaosOutcome {
        applied = List.copyOf(applied);
        violations = List.copyOf(violations);
    }

    public boolean passed() {
        return violations.isEmpty() && halt == null;
    }

    public Map<Fault, Integer> faultCounts() {
        Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
        applied.forEach(a -> counts.merge(a.fault(), 1, Integer::sum));
        return counts;
    }

    public Map<Phase, Integer> phaseCounts() {
        Map<Phase, Integer> counts = new TreeMap<>();
        applied.forEach(a -> counts.merge(a.phase(), 1, Integer::sum));
        return counts;
    }

    /** Seed, schedule, the faults applied and the verdict with the first violation. */
    public String report() {
        StringBuilder text = new StringBuilder("Chaos round ").append(schedule).append('\n');
        text.append("Applied ").append(applied.size()).append(" faults in ");
        text.append(millis / 1000).append(" s ").append(phaseCounts()).append(":\n");
        for (Applied a : applied) {
            text.append("  ").append(a).append('\n');
        }
        if (passed()) {
            text.append("Verdict: exactly once, final contents equal MySQL's. ").append(summary);
        } else {
            text.append("Verdict: FAILED")
                    .append(halt == null ? "" : ", the job stopped: " + halt)
                    .append('\n');
            if (!violations.isEmpty()) {
                text.append("First violation: ").append(violations.get(0)).append('\n');
                text.append("All: ").append(violations).append('\n');
            }
            text.append(summary);
        }
        return text.toString();
    }
}

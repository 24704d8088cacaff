package io.capstan.flink.mysql.e2e.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exactly-once check of {@code SequenceToFilesJob}'s output lines ({@code
 * value,key,countInKey}).
 */
final class SequenceOutputCheck {
    private SequenceOutputCheck() {}

    /**
     * Every value 0..count-1 exactly once, and per key the running counts exactly 1..n: a duplicate
     * or a gap of a record or of a state update fails this.
     */
    static void assertExactlyOnce(List<String> lines, long count) {
        long[] seen = new long[(int) count];
        Map<Long, List<Long>> countsPerKey = new TreeMap<>();
        for (String line : lines) {
            String[] parts = line.split(",");
            seen[Integer.parseInt(parts[0])]++;
            countsPerKey
                    .computeIfAbsent(Long.parseLong(parts[1]), k -> new ArrayList<>())
                    .add(Long.parseLong(parts[2]));
        }
        List<Long> wrong = new ArrayList<>();
        for (int value = 0; value < count; value++) {
            if (seen[value] != 1) {
                wrong.add((long) value);
            }
        }
        assertThat(wrong).as("values not seen exactly once (of %d lines)", lines.size()).isEmpty();
        assertThat(lines).hasSize((int) count);
        countsPerKey.forEach(
                (key, counts) -> {
                    List<Long> sorted = counts.stream().sorted().toList();
                    for (int i = 0; i < sorted.size(); i++) {
                        assertThat(sorted.get(i))
                                .as("running count %d of key %d", i + 1, key)
                                .isEqualTo(i + 1L);
                    }
                });
    }
}

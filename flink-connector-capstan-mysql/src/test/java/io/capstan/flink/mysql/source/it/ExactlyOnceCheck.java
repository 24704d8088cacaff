package io.capstan.flink.mysql.source.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compares the committed output with the expected changes line by line: every expected change
 * exactly once (a duplicate or a gap is named), nothing else, and per row (table, seq) the changes
 * in commit order.
 */
public final class ExactlyOnceCheck {
    private ExactlyOnceCheck() {}

    public static void assertExactlyOnce(List<String> expected, List<String> actual) {
        Map<String, Integer> counts = new HashMap<>();
        for (String line : actual) {
            counts.merge(line, 1, Integer::sum);
        }
        Set<String> expectedSet = new HashSet<>(expected);
        assertThat(expectedSet).as("expected changes are unique").hasSize(expected.size());

        List<String> duplicates = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        counts.forEach(
                (line, n) -> {
                    if (!expectedSet.contains(line)) {
                        unexpected.add(line);
                    } else if (n > 1) {
                        duplicates.add(line + " x" + n);
                    }
                });
        List<String> missing = new ArrayList<>();
        for (String line : expected) {
            if (!counts.containsKey(line)) {
                missing.add(line);
            }
        }
        assertThat(duplicates).as("duplicated changes (first 20)").isEmpty();
        assertThat(missing).as("missing changes (first 20 of " + missing.size() + ")").isEmpty();
        assertThat(unexpected).as("unexpected changes").isEmpty();
        assertThat(actual).hasSameSizeAs(expected);

        // Per row, the order of its changes is the commit order.
        assertThat(perRow(actual)).isEqualTo(perRow(expected));
    }

    private static Map<String, List<String>> perRow(List<String> lines) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (String line : lines) {
            String[] f = line.split("\\|");
            m.computeIfAbsent(f[0] + "|" + f[2], k -> new ArrayList<>()).add(line);
        }
        return new HashMap<>(m);
    }
}

package io.capstan.flink.mysql.snapshot.jdbc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Disagreements found by a test, counted by kind with the first few examples of each, so that one
 * frequent kind cannot hide a rare one in the failure message.
 */
final class Disagreements {

    private static final int EXAMPLES_PER_KIND = 4;

    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, List<String>> examples = new LinkedHashMap<>();

    /** One disagreement of {@code kind}; the example is built only while it will be shown. */
    void add(String kind, Supplier<String> example) {
        counts.merge(kind, 1, Integer::sum);
        List<String> shown = examples.computeIfAbsent(kind, k -> new ArrayList<>());
        if (shown.size() < EXAMPLES_PER_KIND) {
            shown.add(example.get());
        }
    }

    boolean isEmpty() {
        return counts.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            sb.append('\n').append(e.getValue()).append(" x ").append(e.getKey());
            for (String example : examples.get(e.getKey())) {
                sb.append("\n    ").append(example);
            }
        }
        return sb.toString();
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Collects each round's figures and prints one markdown table: per measurement the median over the
 * rounds, the range, the limit it is compared with, and the median of the per-round ratios (a ratio
 * is taken within one round, so both sides saw the same machine load).
 */
final class ResultTable {

    private static final class Line {
        final String name;
        final String unit;
        final String limitKey;
        final String goal;
        final double goalRatio;
        final List<Double> values = new ArrayList<>();
        final List<Double> limitValues = new ArrayList<>();
        final List<Double> heapAfterGcMb = new ArrayList<>();
        final List<Double> heapPeakMb = new ArrayList<>();
        String note;
        boolean ratioValued;

        Line(String name, String unit, String limitKey, String goal, double goalRatio) {
            this.name = name;
            this.unit = unit;
            this.limitKey = limitKey;
            this.goal = goal;
            this.goalRatio = goalRatio;
        }
    }

    private final Map<String, Line> lines = new LinkedHashMap<>();
    private final List<String> footnotes = new ArrayList<>();

    /**
     * Declares a line; {@code limitKey} names the line it is a ratio of (or null), {@code
     * goalRatio} 0 if none.
     */
    void define(
            String key, String name, String unit, String limitKey, String goal, double goalRatio) {
        lines.put(key, new Line(name, unit, limitKey, goal, goalRatio));
    }

    /**
     * Declares a line whose figures are themselves ratios (of two other lines, taken within each
     * round by the caller): its ratio column shows their median, judged against {@code goalRatio}.
     */
    void defineRatio(String key, String name, String goal, double goalRatio) {
        define(key, name, "ratio", null, goal, goalRatio);
        lines.get(key).ratioValued = true;
    }

    /** The figure of {@code key} added last (this round's, if it ran this round), or NaN. */
    double last(String key) {
        List<Double> values = lines.get(key).values;
        return values.isEmpty() ? Double.NaN : values.get(values.size() - 1);
    }

    /** A line that was not measured in this run, with the reason. */
    void notMeasured(String key, String reason) {
        lines.get(key).note = reason;
    }

    void add(String key, double value, long heapAfterGcBytes, long heapPeakBytes) {
        Line line = lines.get(key);
        line.values.add(value);
        line.heapAfterGcMb.add(heapAfterGcBytes / (1024.0 * 1024.0));
        line.heapPeakMb.add(heapPeakBytes / (1024.0 * 1024.0));
        if (line.limitKey != null) {
            List<Double> limit = lines.get(line.limitKey).values;
            // the limit measured in the same round (rounds measure the limit before the path)
            line.limitValues.add(limit.isEmpty() ? Double.NaN : limit.get(limit.size() - 1));
        }
    }

    /** Forgets every figure (after warm-up rounds); the lines stay defined. */
    void clear() {
        for (Line l : lines.values()) {
            l.values.clear();
            l.limitValues.clear();
            l.heapAfterGcMb.clear();
            l.heapPeakMb.clear();
        }
        footnotes.clear();
    }

    void footnote(String text) {
        footnotes.add(text);
    }

    double median(String key) {
        return median(lines.get(key).values);
    }

    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(
                "| measurement | median | unit | rounds (min – max) | ratio to its limit (median of rounds) | goal"
                        + " | JVM heap MB: peak / max after GC |\n");
        out.append("|---|---:|---|---|---|---|---|\n");
        for (Line l : lines.values()) {
            out.append("| ").append(l.name).append(" | ");
            if (l.values.isEmpty()) {
                out.append("— | ")
                        .append(l.unit)
                        .append(" | ")
                        .append(l.note == null ? "not measured" : l.note)
                        .append(" | | ")
                        .append(l.goal)
                        .append(" | |\n");
                continue;
            }
            out.append(format(median(l.values)))
                    .append(" | ")
                    .append(l.unit)
                    .append(" | ")
                    .append(l.values.size())
                    .append(": ")
                    .append(format(min(l.values)))
                    .append(" – ")
                    .append(format(max(l.values)))
                    .append(" | ");
            if (l.limitKey != null) {
                List<Double> ratios = new ArrayList<>();
                for (int i = 0; i < l.values.size(); i++) {
                    ratios.add(l.values.get(i) / l.limitValues.get(i));
                }
                double r = median(ratios);
                out.append(
                        Double.isNaN(r)
                                ? "n/a (limit not measured)"
                                : String.format(Locale.ROOT, "%.2f", r));
                out.append(verdict(l, r));
            } else if (l.ratioValued) {
                double r = median(l.values);
                out.append(String.format(Locale.ROOT, "%.2f", r)).append(verdict(l, r));
            }
            double afterGc = median(l.heapAfterGcMb);
            double peak = median(l.heapPeakMb);
            out.append(" | ").append(l.goal).append(" | ");
            if (peak > 0) {
                out.append(String.format(Locale.ROOT, "%.0f / ", peak))
                        .append(
                                afterGc > 0
                                        ? String.format(Locale.ROOT, "%.0f", afterGc)
                                        : "no GC");
            }
            out.append(" |\n");
        }
        for (String f : footnotes) {
            out.append('\n').append(f).append('\n');
        }
        return out.toString();
    }

    private static String verdict(Line l, double ratio) {
        if (l.goalRatio <= 0 || Double.isNaN(ratio)) {
            return "";
        }
        return ratio >= l.goalRatio ? " (met)" : " (**missed**)";
    }

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static double median(List<Double> values) {
        double[] a = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (a.length == 0) {
            return Double.NaN;
        }
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    @Override
    public String toString() {
        return "ResultTable" + Arrays.toString(lines.keySet().toArray());
    }
}

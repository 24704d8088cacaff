package io.capstan.flink.mysql.demo;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Order count and revenue per status: Flink's running aggregate, or MySQL's answer right now. */
final class StatusTotals {

    /** One status's count and revenue. */
    record Totals(long count, BigDecimal revenue) {
        Totals {
            revenue = revenue == null ? BigDecimal.ZERO : revenue.setScale(2);
        }
    }

    private final Map<String, Totals> byStatus = new TreeMap<>();

    /**
     * Applies one row of the aggregate's changelog: +I/+U set a status's totals, -U/-D clear them.
     */
    synchronized void apply(boolean isRetraction, String status, long count, BigDecimal revenue) {
        if (isRetraction) {
            byStatus.remove(status);
        } else {
            byStatus.put(status, new Totals(count, revenue));
        }
    }

    synchronized void put(String status, long count, BigDecimal revenue) {
        byStatus.put(status, new Totals(count, revenue));
    }

    synchronized Map<String, Totals> snapshot() {
        return new TreeMap<>(byStatus);
    }

    static long totalCount(Map<String, Totals> m) {
        return m.values().stream().mapToLong(Totals::count).sum();
    }

    static BigDecimal totalRevenue(Map<String, Totals> m) {
        return m.values().stream()
                .map(Totals::revenue)
                .reduce(BigDecimal.ZERO.setScale(2), BigDecimal::add);
    }

    /**
     * Equal when every status has the same count and revenue; a status with no orders is absent in
     * both.
     */
    static boolean same(Map<String, Totals> a, Map<String, Totals> b) {
        return Objects.equals(a, b);
    }
}

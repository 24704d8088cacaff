package io.capstan.flink.mysql.demo;

import org.apache.flink.types.RowKind;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Renders one frame of the demo's screen as text: at most 30 lines of at most 100 columns, redrawn
 * in place with plain ANSI (cursor home, clear to end of line and of screen).
 */
final class Screen {

    static final int WIDTH = 100;
    static final String HOME = "\033[H";
    static final String CLEAR_LINE = "\033[K";
    static final String CLEAR_BELOW = "\033[J";
    static final String CLEAR_ALL = "\033[H\033[2J";
    private static final String BOLD = "\033[1m";
    private static final String GREEN = "\033[32m";
    private static final String YELLOW = "\033[33m";
    private static final String RESET = "\033[0m";
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter CLOCK_MS = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    /** Everything one frame shows. */
    record Frame(
            String title,
            String source,
            String startNote,
            Duration uptime,
            String load,
            Map<String, StatusTotals.Totals> flink,
            Map<String, StatusTotals.Totals> mysql,
            ExactnessTracker exactness,
            List<OrdersPipeline.Change> changes,
            long[] changeCounts, // +I, -U, +U, -D
            long lagMillis,
            String footer) {}

    private Screen() {}

    static String render(Frame f) {
        List<String> lines = new ArrayList<>();
        lines.add(BOLD + pad(f.title(), WIDTH - 9) + RESET + String.format("%9s", hms(f.uptime())));
        lines.add(f.source());
        lines.add(f.startNote());
        lines.add(f.load());
        lines.add("");
        lines.add(
                BOLD
                        + "REVENUE BY STATUS"
                        + RESET
                        + "    Flink SQL GROUP BY (live)     MySQL GROUP BY (queried now)    difference");
        lines.add(
                String.format(
                        "%-12s %10s %16s   %10s %16s   %8s %12s",
                        "status", "orders", "revenue", "orders", "revenue", "orders", "revenue"));
        TreeSet<String> statuses = new TreeSet<>(ShopSchema.STATUSES);
        statuses.addAll(f.flink().keySet());
        statuses.addAll(f.mysql().keySet());
        for (String s : statuses) {
            lines.add(totalsLine(s, f.flink().get(s), f.mysql().get(s)));
        }
        lines.add(
                totalsLine(
                        "total",
                        new StatusTotals.Totals(
                                StatusTotals.totalCount(f.flink()),
                                StatusTotals.totalRevenue(f.flink())),
                        new StatusTotals.Totals(
                                StatusTotals.totalCount(f.mysql()),
                                StatusTotals.totalRevenue(f.mysql()))));
        lines.add(f.exactness().describe());
        lines.add(f.exactness().describeSettlePoints());
        lines.add("");
        long[] n = f.changeCounts();
        lines.add(
                BOLD
                        + "LIVE CHANGELOG"
                        + RESET
                        + String.format(
                                "  %,d rows  (+I %,d  -U %,d  +U %,d  -D %,d)   commit-to-screen lag %s",
                                n[0] + n[1] + n[2] + n[3],
                                n[0],
                                n[1],
                                n[2],
                                n[3],
                                f.lagMillis() < 0 ? "-" : f.lagMillis() + " ms"));
        lines.add(
                String.format(
                        "%-3s %9s %9s  %-10s %10s  %-12s",
                        "op", "id", "customer", "status", "amount", "committed"));
        int room = 29 - lines.size();
        for (OrdersPipeline.Change c : f.changes()) {
            if (room-- <= 0) {
                break;
            }
            lines.add(
                    String.format(
                            "%-3s %9d %9d  %-10s %10s  %-12s",
                            kind(c.kind()),
                            c.id(),
                            c.customerId(),
                            c.status(),
                            c.amount().toPlainString(),
                            c.opTs() == null
                                    ? ""
                                    : CLOCK_MS.format(c.opTs().atZone(ZoneId.systemDefault()))));
        }
        while (lines.size() < 29) {
            lines.add("");
        }
        lines.add(f.footer());
        StringBuilder sb = new StringBuilder(HOME);
        for (int i = 0; i < lines.size(); i++) {
            // no newline after the last line: it would scroll a 30-line terminal by one
            sb.append(fit(lines.get(i), WIDTH))
                    .append(CLEAR_LINE)
                    .append(i < lines.size() - 1 ? "\n" : "");
        }
        return sb.append(CLEAR_BELOW).toString();
    }

    static String clock(long epochMillis) {
        return CLOCK.format(
                java.time.Instant.ofEpochMilli(epochMillis).atZone(ZoneId.systemDefault()));
    }

    private static String totalsLine(
            String status, StatusTotals.Totals flink, StatusTotals.Totals mysql) {
        StatusTotals.Totals zero = new StatusTotals.Totals(0, BigDecimal.ZERO);
        StatusTotals.Totals a = flink == null ? zero : flink;
        StatusTotals.Totals b = mysql == null ? zero : mysql;
        long dCount = a.count() - b.count();
        BigDecimal dRevenue = a.revenue().subtract(b.revenue());
        boolean same = dCount == 0 && dRevenue.signum() == 0;
        return String.format(
                "%-12s %,10d %,16.2f   %,10d %,16.2f   %s%8s %12s%s",
                status,
                a.count(),
                a.revenue(),
                b.count(),
                b.revenue(),
                same ? GREEN : YELLOW,
                dCount == 0 ? "0" : String.format("%+d", dCount),
                dRevenue.signum() == 0 ? "0.00" : String.format("%+.2f", dRevenue),
                RESET);
    }

    /** Cuts a line to {@code width} visible characters; ANSI escape sequences take no room. */
    static String fit(String line, int width) {
        StringBuilder sb = new StringBuilder();
        int visible = 0;
        boolean cut = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '\033') {
                int end = i + 1;
                while (end < line.length() && !Character.isLetter(line.charAt(end))) {
                    end++;
                }
                sb.append(line, i, Math.min(end + 1, line.length()));
                i = end;
            } else if (visible < width) {
                sb.append(ch);
                visible++;
            } else {
                cut = true;
            }
        }
        return cut ? sb.append(RESET).toString() : sb.toString();
    }

    static String kind(RowKind k) {
        return k.shortString();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s.substring(0, width) : s + " ".repeat(width - s.length());
    }

    static String hms(Duration d) {
        long s = d.getSeconds();
        return String.format("%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }

    static String now() {
        return CLOCK.format(LocalTime.now());
    }
}

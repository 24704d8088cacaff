package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.bench.coldrun.ColdRunLine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The cold-start benchmark's figures: per program and TLS mode, medians over the rounds with their
 * spread, for the cold run (a fresh JVM's first) and the warm runs after it; ratios to the raw
 * limit (the JDBC scan for snapshots, the plain binlog client for streams) and start-up above
 * Flink's floor are taken within each round and TLS mode, then their median is shown.
 */
final class ColdStartReport {

    /** One JVM's runs of one program in one round and TLS mode. */
    private record Jvm(
            String program,
            String ssl,
            int round,
            long launchEpochMicros,
            List<ColdRunLine> lines) {}

    private final ColdStartOptions options;
    private final long tableRows;
    private final long rowChanges;
    private final long changeRecords;
    private final List<Jvm> jvms = new ArrayList<>();

    ColdStartReport(ColdStartOptions options, long tableRows, long rowChanges, long changeRecords) {
        this.options = options;
        this.tableRows = tableRows;
        this.rowChanges = rowChanges;
        this.changeRecords = changeRecords;
    }

    /** Records a program must count to be done. */
    long expectedRecords(String program) {
        if (program.equals("binlog-client")) {
            return rowChanges; // counts row changes itself
        }
        return isStream(program) ? changeRecords : tableRows; // an UPDATE is -U and +U
    }

    void add(
            String program,
            String ssl,
            int round,
            long launchEpochMicros,
            List<ColdRunLine> lines) {
        jvms.add(new Jvm(program, ssl, round, launchEpochMicros, List.copyOf(lines)));
    }

    private static boolean isStream(String program) {
        return program.contains("binlog");
    }

    /** Units per record: row changes for the streams (rates in changes/s), records otherwise. */
    private double unitsPerRecord(String program) {
        return isStream(program) && !program.equals("binlog-client")
                ? (double) rowChanges / changeRecords
                : 1.0;
    }

    private static String limitOf(String program) {
        if (program.startsWith("floor")) {
            return null;
        }
        return isStream(program) ? "binlog-client" : "scan";
    }

    private static String floorOf(String program) {
        if (program.equals("scan")
                || program.equals("binlog-client")
                || program.startsWith("floor")) {
            return null;
        }
        return program.startsWith("capstan-sql") || program.startsWith("cdc")
                ? "floor-sql"
                : "floor";
    }

    // ---- per-run figures ----

    private static double firstMillis(ColdRunLine l) {
        return (l.firstMicros() - l.submitMicros()) / 1e3;
    }

    /** From the job accepted (MiniCluster running, job submitted) to the first record. */
    private static double jobStartMillis(ColdRunLine l) {
        return l.acceptedMicros() == 0 ? Double.NaN : (l.firstMicros() - l.acceptedMicros()) / 1e3;
    }

    private double steadyRate(String program, ColdRunLine l) {
        return (l.records() - 1)
                * unitsPerRecord(program)
                * 1e6
                / Math.max(1, l.lastMicros() - l.firstMicros());
    }

    private double endToEndRate(String program, ColdRunLine l) {
        return l.records()
                * unitsPerRecord(program)
                * 1e6
                / Math.max(1, l.lastMicros() - l.submitMicros());
    }

    private double steadyCpuMicros(String program, ColdRunLine l) {
        return (l.cpuAtLastMicros() - l.cpuAtFirstMicros())
                / ((l.records() - 1) * unitsPerRecord(program));
    }

    private double wholeCpuMicros(String program, ColdRunLine l) {
        // the cold run: the whole JVM's CPU since it started; a warm run: since its submission
        long from = l.run() == 1 ? 0 : l.cpuAtSubmitMicros();
        return (l.cpuAtLastMicros() - from) / (l.records() * unitsPerRecord(program));
    }

    String markdown(String server, String machine) {
        StringBuilder md = new StringBuilder();
        md.append(
                String.format(
                        Locale.ROOT,
                        "%s; %,d rows (about 400 bytes each) and %,d row changes; %d rounds, %d runs per JVM"
                                + " (the first cold); child JVM -Xmx%s; %s.%n",
                        server,
                        tableRows,
                        rowChanges,
                        options.rounds(),
                        options.runsPerJvm(),
                        options.childHeap(),
                        machine));
        for (String ssl : options.sslModes()) {
            for (boolean cold : new boolean[] {true, false}) {
                if (!cold && options.runsPerJvm() < 2) {
                    continue;
                }
                md.append(
                        String.format(
                                Locale.ROOT,
                                "%n**%s, TLS %s** (median, min–max over %s)%n%n",
                                cold
                                        ? "Cold JVM (each program's first run in a fresh JVM)"
                                        : "Warm JVM (the runs after the first, same JVM)",
                                ssl.equals("DISABLED") ? "off" : "on",
                                cold ? "rounds" : "rounds × warm runs"));
                md.append(
                        "| program | JVM boot ms | first record ms after submission | of which after the job was accepted | above floor ms |"
                                + " rate after first (per s) | ÷ limit | end to end (per s) | ÷ limit |"
                                + " CPU µs/unit after first | ÷ limit | CPU µs/unit whole run | heap peak MB |\n");
                md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
                for (String program : options.programs()) {
                    md.append(row(program, ssl, cold));
                }
            }
        }
        md.append(
                "\nUnits: rows for the scan and snapshots, row changes for the streams (an UPDATE is one"
                        + " change and two records). ÷ limit: this program's figure over the raw limit's in the same"
                        + " round and TLS mode (JDBC scan for snapshots, plain binlog client for streams; for CPU,"
                        + " lower is better). Above floor: first-record time minus Flink's floor's in the same round"
                        + " (the DataStream floor for DataStream programs, the SQL floor for SQL programs).\n");
        return md.toString();
    }

    private String row(String program, String ssl, boolean cold) {
        List<Jvm> mine = select(program, ssl);
        if (mine.isEmpty()) {
            return "";
        }
        // per run, in the table's column order
        List<double[]> perRun = new ArrayList<>();
        for (Jvm j : mine) {
            Jvm limit = find(limitOf(program), ssl, j.round);
            Jvm floor = find(floorOf(program), ssl, j.round);
            for (ColdRunLine l : runs(j, cold)) {
                ColdRunLine limitLine = limit == null ? null : runs(limit, cold).get(0);
                ColdRunLine floorLine = floor == null ? null : runs(floor, cold).get(0);
                String lp = limitOf(program);
                perRun.add(
                        new double[] {
                            cold ? (l.mainEpochMicros() - j.launchEpochMicros) / 1e3 : Double.NaN,
                            firstMillis(l),
                            floorLine == null
                                    ? Double.NaN
                                    : firstMillis(l) - firstMillis(floorLine),
                            steadyRate(program, l),
                            limitLine == null
                                    ? Double.NaN
                                    : steadyRate(program, l) / steadyRate(lp, limitLine),
                            endToEndRate(program, l),
                            limitLine == null
                                    ? Double.NaN
                                    : endToEndRate(program, l) / endToEndRate(lp, limitLine),
                            steadyCpuMicros(program, l),
                            limitLine == null
                                    ? Double.NaN
                                    : steadyCpuMicros(program, l) / steadyCpuMicros(lp, limitLine),
                            wholeCpuMicros(program, l),
                            l.heapPeakBytes() / 1048576.0
                        });
            }
        }
        String[] formats = {
            "%.0f", "%,.0f", "%,.0f", "%,.0f", "%,.0f", "%.2f", "%,.0f", "%.2f", "%.1f", "%.2f",
            "%.1f", "%,.0f"
        };
        StringBuilder r = new StringBuilder("| ").append(program).append(" |");
        for (int c = 0; c < formats.length; c++) {
            int col = c;
            r.append(' ').append(stat(perRun, a -> a[col], formats[c])).append(" |");
        }
        return r.append('\n').toString();
    }

    private List<Jvm> select(String program, String ssl) {
        List<Jvm> out = new ArrayList<>();
        for (Jvm j : jvms) {
            if (j.program.equals(program) && j.ssl.equals(ssl)) {
                out.add(j);
            }
        }
        return out;
    }

    private Jvm find(String program, String ssl, int round) {
        if (program == null) {
            return null;
        }
        for (Jvm j : jvms) {
            if (j.program.equals(program) && j.ssl.equals(ssl) && j.round == round) {
                return j;
            }
        }
        return null;
    }

    /** The cold run, or the warm runs, of one JVM. */
    private static List<ColdRunLine> runs(Jvm j, boolean cold) {
        return cold ? j.lines.subList(0, 1) : j.lines.subList(1, j.lines.size());
    }

    /** "median (min–max)", or "—" when the figure does not apply. */
    static String stat(List<double[]> runs, ToDoubleFunction<double[]> f, String format) {
        double[] v = runs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return "—";
        }
        double median =
                v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        String m = String.format(Locale.ROOT, format, median);
        if (v.length == 1) {
            return m;
        }
        return m
                + " ("
                + String.format(Locale.ROOT, format, v[0])
                + "–"
                + String.format(Locale.ROOT, format, v[v.length - 1])
                + ")";
    }
}

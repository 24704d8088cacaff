package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.bench.coldrun.ColdRunLine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The cold-start benchmark's figures: per program and TLS mode, medians over the rounds with their
 * spread, for the cold run (a fresh JVM's first) and the warm runs after it. Ratios to the raw
 * limit (the JDBC scan for snapshots, the plain binlog client for streams) and start-up above
 * Flink's floor are taken within each round and TLS mode, and their median is shown.
 */
final class ColdStartReport {

    /** One JVM's runs of one program in one round and TLS mode. */
    private record Jvm(
            String program,
            String ssl,
            int round,
            long launchEpochMicros,
            List<ColdRunLine> lines) {}

    /** One run of a program, with its round's limit and floor runs (null where none applies). */
    private record Run(
            String program, Jvm jvm, ColdRunLine line, ColdRunLine limit, ColdRunLine floor) {}

    /** A figure of one run; NaN where it does not apply. */
    private interface Figure {
        double of(ColdStartReport report, Run run);
    }

    /** A column of the table: its header, how its figures print, how one is computed. */
    private record Column(String header, String format, Figure figure) {}

    private static final List<Column> COLUMNS =
            List.of(
                    new Column("JVM boot ms", "%.0f", (r, run) -> bootMillis(run)),
                    new Column(
                            "first record ms after submission",
                            "%,.0f",
                            (r, run) -> firstMillis(run.line)),
                    new Column(
                            "of which after the job was accepted",
                            "%,.0f",
                            (r, run) -> jobStartMillis(run.line)),
                    new Column(
                            "above floor ms",
                            "%,.0f",
                            (r, run) ->
                                    run.floor == null
                                            ? Double.NaN
                                            : jobStartMillis(run.line) - jobStartMillis(run.floor)),
                    new Column("rate after first (per s)", "%,.0f", ColdStartReport::steadyRate),
                    new Column("÷ limit", "%.2f", ratio(ColdStartReport::steadyRate)),
                    new Column("end to end (per s)", "%,.0f", ColdStartReport::endToEndRate),
                    new Column("÷ limit", "%.2f", ratio(ColdStartReport::endToEndRate)),
                    new Column("CPU µs/unit after first", "%.1f", ColdStartReport::steadyCpu),
                    new Column("÷ limit", "%.2f", ratio(ColdStartReport::steadyCpu)),
                    new Column("CPU µs/unit whole run", "%.1f", ColdStartReport::wholeCpu),
                    new Column(
                            "heap peak MB",
                            "%,.0f",
                            (r, run) -> run.line.heapPeakBytes() / 1048576.0));

    /** The launch moment of a JVM read back from its output, where it is not recorded. */
    static final long UNKNOWN_LAUNCH = -1;

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

    // ---- figures of one run ----

    private static double bootMillis(Run run) {
        return run.line.run() == 1 && run.jvm.launchEpochMicros != UNKNOWN_LAUNCH
                ? (run.line.mainEpochMicros() - run.jvm.launchEpochMicros) / 1e3
                : Double.NaN;
    }

    private static double firstMillis(ColdRunLine l) {
        return (l.firstMicros() - l.submitMicros()) / 1e3;
    }

    /** From the job accepted (MiniCluster running, job submitted) to the first record. */
    private static double jobStartMillis(ColdRunLine l) {
        return l.acceptedMicros() == 0 ? Double.NaN : (l.firstMicros() - l.acceptedMicros()) / 1e3;
    }

    private double steadyRate(Run run) {
        return steadyRate(run.program, run.line);
    }

    private double steadyRate(String program, ColdRunLine l) {
        return (l.records() - 1)
                * unitsPerRecord(program)
                * 1e6
                / Math.max(1, l.lastMicros() - l.firstMicros());
    }

    private double endToEndRate(Run run) {
        return endToEndRate(run.program, run.line);
    }

    private double endToEndRate(String program, ColdRunLine l) {
        return l.records()
                * unitsPerRecord(program)
                * 1e6
                / Math.max(1, l.lastMicros() - l.submitMicros());
    }

    private double steadyCpu(Run run) {
        return steadyCpu(run.program, run.line);
    }

    private double steadyCpu(String program, ColdRunLine l) {
        return (l.cpuAtLastMicros() - l.cpuAtFirstMicros())
                / ((l.records() - 1) * unitsPerRecord(program));
    }

    /** The cold run: the whole JVM's CPU since it started; a warm run: since its submission. */
    private double wholeCpu(Run run) {
        ColdRunLine l = run.line;
        long from = l.run() == 1 ? 0 : l.cpuAtSubmitMicros();
        return (l.cpuAtLastMicros() - from) / (l.records() * unitsPerRecord(run.program));
    }

    /** The figure of a run over the same figure of its limit's run. */
    private static Figure ratio(Figure f) {
        return (r, run) -> {
            if (run.limit == null) {
                return Double.NaN;
            }
            String limit = limitOf(run.program);
            return f.of(r, run) / f.of(r, new Run(limit, run.jvm, run.limit, null, null));
        };
    }

    // ---- the table ----

    String markdown(String server, String machine) {
        StringBuilder md = new StringBuilder();
        md.append(
                String.format(
                        Locale.ROOT,
                        "%s; %,d rows (about 400 bytes each) and %,d row changes; %d rounds, %d runs"
                                + " per JVM (the first cold); child JVM -Xmx%s; %s.%n",
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
                StringBuilder header = new StringBuilder("| program |");
                StringBuilder rule = new StringBuilder("|---|");
                for (Column c : COLUMNS) {
                    header.append(' ').append(c.header).append(" |");
                    rule.append("---|");
                }
                md.append(header).append('\n').append(rule).append('\n');
                for (String program : options.programs()) {
                    md.append(row(program, ssl, cold));
                }
            }
        }
        md.append(
                "\nUnits: rows for the scan and snapshots, row changes for the streams (an UPDATE is"
                        + " one change and two records). ÷ limit: the figure over the raw limit's in"
                        + " the same round and TLS mode (the JDBC scan for snapshots, the plain binlog"
                        + " client for streams; for CPU, lower is better). Submission: the program's"
                        + " call that builds and submits the job (for a local environment it starts"
                        + " the MiniCluster); accepted: that call returned (MiniCluster running, job"
                        + " submitted). Above floor: the time from acceptance to the first record"
                        + " minus Flink's floor's in the same round (the DataStream floor for"
                        + " DataStream programs, the SQL floor for SQL programs), that is the job's"
                        + " own start without the MiniCluster's, whose time varies by more than the"
                        + " difference.\n");
        return md.toString();
    }

    private String row(String program, String ssl, boolean cold) {
        List<Run> runs = new ArrayList<>();
        for (Jvm j : jvms) {
            if (!j.program.equals(program) || !j.ssl.equals(ssl)) {
                continue;
            }
            Jvm limit = find(limitOf(program), ssl, j.round);
            Jvm floor = find(floorOf(program), ssl, j.round);
            for (ColdRunLine l : runs(j, cold)) {
                runs.add(
                        new Run(
                                program,
                                j,
                                l,
                                limit == null ? null : runs(limit, cold).get(0),
                                floor == null ? null : runs(floor, cold).get(0)));
            }
        }
        if (runs.isEmpty()) {
            return "";
        }
        StringBuilder r = new StringBuilder("| ").append(program).append(" |");
        for (Column c : COLUMNS) {
            r.append(' ').append(stat(runs, run -> c.figure.of(this, run), c.format)).append(" |");
        }
        return r.append('\n').toString();
    }

    private Jvm find(String program, String ssl, int round) {
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
    static <R> String stat(List<R> runs, ToDoubleFunction<R> f, String format) {
        double[] v = runs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return "—";
        }
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        String m = String.format(Locale.ROOT, format, median);
        if (n == 1) {
            return m;
        }
        return m
                + " ("
                + String.format(Locale.ROOT, format, v[0])
                + "–"
                + String.format(Locale.ROOT, format, v[n - 1])
                + ")";
    }
}

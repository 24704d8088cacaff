package io.capstan.flink.mysql.bench.endtoend;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The cold-start benchmark's command line ({@code --help} prints it). Every program runs in a fresh
 * JVM per round and TLS mode; {@code --runs-per-jvm} runs in that JVM, the first cold.
 */
record ColdStartOptions(
        long rows,
        long changes,
        int rounds,
        int runsPerJvm,
        List<String> sslModes,
        List<String> programs,
        String childHeap,
        List<String> childJvmOptions,
        List<String> jfrPrograms,
        Path flink120Classpath,
        Path flink120JvmOptions,
        int writers,
        Path reportFrom,
        boolean withoutGtids) {

    static final List<String> PROGRAMS =
            List.of(
                    "floor",
                    "scan",
                    "snapshot",
                    "snapshot-object-reuse",
                    "snapshot-p2",
                    "binlog-client",
                    "binlog",
                    "binlog-object-reuse");

    /** The Flink 1.20 programs (capstan-mysql-cold-run-flink-1.20), with a classpath file. */
    static final List<String> FLINK_120_PROGRAMS =
            List.of(
                    "floor-sql",
                    "capstan-sql-snapshot",
                    "cdc-snapshot",
                    "capstan-sql-binlog",
                    "cdc-binlog");

    static final String USAGE =
            "options: --rows N (default 1000000) --changes N (500000) --rounds N (3)"
                    + " --runs-per-jvm N (3: one cold, then warm) --ssl-modes DISABLED,REQUIRED"
                    + " --programs "
                    + String.join(",", PROGRAMS)
                    + " --child-heap 2g --child-jvm \"more JVM options\" --jfr PROGRAM,... (record those programs' first round with JFR)"
                    + " --flink-1.20-classpath FILE --flink-1.20-jvm-options FILE (adds "
                    + String.join(",", FLINK_120_PROGRAMS)
                    + ") --writers N (4) --report-from DIR (print the report of the programs' kept"
                    + " output in DIR instead of running, with the same --rounds, --runs-per-jvm,"
                    + " --ssl-modes and --programs) --without-gtids (the embedded server with"
                    + " gtid_mode OFF: the binlog programs start at a file and position)";

    static ColdStartOptions parse(String[] args) {
        long rows = 1_000_000;
        long changes = 500_000;
        int rounds = 3;
        int runs = 3;
        List<String> ssl = List.of("DISABLED", "REQUIRED");
        List<String> programs = new ArrayList<>(PROGRAMS);
        String heap = "2g";
        List<String> childJvm = List.of();
        List<String> jfr = List.of();
        Path cp120 = null;
        Path opts120 = null;
        int writers = 4;
        Path reportFrom = null;
        boolean withoutGtids = false;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--help")) {
                throw new IllegalArgumentException(USAGE);
            }
            if (name.equals("--without-gtids")) {
                withoutGtids = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value; " + USAGE);
            }
            String v = args[++i];
            switch (name) {
                case "--rows" -> rows = Long.parseLong(v);
                case "--changes" -> changes = Long.parseLong(v);
                case "--rounds" -> rounds = Integer.parseInt(v);
                case "--runs-per-jvm" -> runs = Integer.parseInt(v);
                case "--ssl-modes" -> ssl = Arrays.asList(v.split(","));
                case "--programs" -> programs = new ArrayList<>(Arrays.asList(v.split(",")));
                case "--child-heap" -> heap = v;
                case "--child-jvm" -> childJvm = Arrays.asList(v.trim().split("\\s+"));
                case "--jfr" -> jfr = Arrays.asList(v.split(","));
                case "--flink-1.20-classpath" -> cp120 = Path.of(v);
                case "--flink-1.20-jvm-options" -> opts120 = Path.of(v);
                case "--writers" -> writers = Integer.parseInt(v);
                case "--report-from" -> reportFrom = Path.of(v);
                default ->
                        throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
            }
        }
        if (cp120 != null) {
            if (!Files.isReadable(cp120) || opts120 == null || !Files.isReadable(opts120)) {
                throw new IllegalArgumentException(
                        "--flink-1.20-classpath and --flink-1.20-jvm-options must both name readable"
                                + " files: build them with the command in docs/performance.md");
            }
            for (String p : FLINK_120_PROGRAMS) {
                if (!programs.contains(p)) {
                    programs.add(p);
                }
            }
        }
        for (String p : programs) {
            if (!PROGRAMS.contains(p) && !FLINK_120_PROGRAMS.contains(p)) {
                throw new IllegalArgumentException("unknown program " + p + "; " + USAGE);
            }
            if (FLINK_120_PROGRAMS.contains(p) && cp120 == null && reportFrom == null) {
                throw new IllegalArgumentException(
                        "program " + p + " needs --flink-1.20-classpath; " + USAGE);
            }
        }
        for (String s : ssl) {
            if (!s.equals("DISABLED") && !s.equals("REQUIRED")) {
                throw new IllegalArgumentException("--ssl-modes takes DISABLED and/or REQUIRED");
            }
        }
        if (rounds < 1 || runs < 1 || rows < 1 || changes < 100) {
            throw new IllegalArgumentException("rounds and runs at least 1, changes at least 100");
        }
        return new ColdStartOptions(
                rows,
                changes,
                rounds,
                runs,
                List.copyOf(ssl),
                List.copyOf(programs),
                heap,
                List.copyOf(childJvm),
                List.copyOf(jfr),
                cp120,
                opts120,
                writers,
                reportFrom,
                withoutGtids);
    }

    static boolean isFlink120(String program) {
        return FLINK_120_PROGRAMS.contains(program);
    }
}

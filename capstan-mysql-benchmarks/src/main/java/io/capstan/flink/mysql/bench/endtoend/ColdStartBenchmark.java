package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.bench.coldrun.ColdRunLine;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The cold-start benchmark: every measured program ({@link ColdRun}; with a Flink 1.20 classpath
 * also the 1.20 SQL programs, Flink CDC's {@code mysql-cdc} among them) runs in a fresh JVM, as a
 * user's program runs, once cold and then warm in the same JVM, in each TLS mode and round, against
 * one MySQL server and the same data. {@link ColdStartReport} prints the figures: from submission
 * and from the first record, beside the raw limits and Flink's floor. A benchmark, not a test: it
 * asserts nothing about speed. How to run it: docs/performance.md.
 */
public final class ColdStartBenchmark {

    private static final long CHILD_TIMEOUT_MINUTES = 30;

    private ColdStartBenchmark() {}

    public static void main(String[] args) throws Exception {
        ColdStartOptions o;
        try {
            o = ColdStartOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (o.reportFrom() != null) {
            System.out.println(
                    ColdStartLogs.read(o, o.reportFrom())
                            .markdown("(read back from " + o.reportFrom() + ")", "this machine"));
            System.exit(0);
            return;
        }
        int status = 0;
        try (BenchServer server = BenchServer.startEmbedded(SslMode.DISABLED, !o.withoutGtids())) {
            run(o, server);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // the embedded server's threads must not keep the JVM
    }

    private static void run(ColdStartOptions o, BenchServer server) throws Exception {
        String database = "capstan_cold";
        BenchTable table = new BenchTable(database, BenchTable.MAIN, false);
        server.execute(
                "DROP DATABASE IF EXISTS `" + database + "`",
                "CREATE DATABASE `" + database + "`",
                table.ddl());
        long loadNanos = DataLoader.load(server, table, o.rows(), o.writers());
        server.execute("FLUSH BINARY LOGS");
        BinlogStart before = BinlogStart.read(server);
        ChangeWorkload.Totals totals =
                ChangeWorkload.run(server, table, o.rows(), o.changes(), o.writers());
        long tableRows = o.rows() + totals.inserts - totals.deletes;
        DataLoader.checkCount(server, table, tableRows);
        EndToEndBenchmark.log(
                String.format(
                        Locale.ROOT,
                        "%s: %,d rows loaded in %.1f s, then %,d row changes; table holds %,d rows",
                        server.description(),
                        o.rows(),
                        loadNanos / 1e9,
                        totals.rowChanges(),
                        tableRows));
        ColdStartReport report =
                new ColdStartReport(o, tableRows, totals.rowChanges(), totals.rowDataRecords());
        Path logs = Path.of(System.getProperty("capstan.test.workdir", "target"), "cold-runs");
        Files.createDirectories(logs);
        int launch = 0;
        for (int round = 1; round <= o.rounds(); round++) {
            EndToEndBenchmark.log(
                    "round "
                            + round
                            + " of "
                            + o.rounds()
                            + " (load "
                            + MachineInfo.loadAverage()
                            + ")");
            for (String ssl : o.sslModes()) {
                for (String program : o.programs()) {
                    launch++;
                    long expected = report.expectedRecords(program);
                    boolean jfr = round == 1 && o.jfrPrograms().contains(program);
                    Path log = logs.resolve(ColdStartLogs.name(program, ssl, round));
                    Launched l =
                            launch(
                                    o,
                                    server,
                                    table,
                                    program,
                                    ssl,
                                    expected,
                                    before,
                                    7300 + 10 * launch,
                                    log,
                                    jfr);
                    report.add(program, ssl, round, l.launchEpochMicros, l.lines);
                    ColdRunLine cold = l.lines.get(0);
                    EndToEndBenchmark.log(
                            String.format(
                                    Locale.ROOT,
                                    "  %-21s %-8s first record %,6.0f ms after submission, %,9.0f"
                                            + " records/s after it; warm: first %,6.0f ms",
                                    program,
                                    ssl,
                                    (cold.firstMicros() - cold.submitMicros()) / 1e3,
                                    (cold.records() - 1)
                                            * 1e6
                                            / Math.max(1, cold.lastMicros() - cold.firstMicros()),
                                    l.lines.size() > 1
                                            ? (l.lines.get(1).firstMicros()
                                                            - l.lines.get(1).submitMicros())
                                                    / 1e3
                                            : Double.NaN));
                }
            }
        }
        System.out.println();
        System.out.println(
                report.markdown(
                        server.description(),
                        MachineInfo.describe(server.query("SELECT VERSION()"))));
    }

    private record Launched(long launchEpochMicros, List<ColdRunLine> lines) {}

    private static Launched launch(
            ColdStartOptions o,
            BenchServer server,
            BenchTable table,
            String program,
            String ssl,
            long expected,
            BinlogStart before,
            int serverId,
            Path log,
            boolean jfr)
            throws Exception {
        MySqlConnectionConfig c = server.reader();
        boolean flink120 = ColdStartOptions.isFlink120(program);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + o.childHeap());
        String jvmOptions =
                flink120
                        ? Files.readString(o.flink120JvmOptions()).trim()
                        : System.getProperty("bench.child.jvm", "").trim();
        for (String opt : jvmOptions.split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.addAll(o.childJvmOptions());
        if (jfr) {
            cmd.add(
                    "-XX:StartFlightRecording=filename="
                            + log.resolveSibling(program + "-" + ssl + ".jfr")
                            + ",settings=profile");
        }
        cmd.add("-cp");
        cmd.add(
                flink120
                        ? Files.readString(o.flink120Classpath()).trim()
                        : System.getProperty("java.class.path"));
        cmd.add(
                flink120
                        ? "io.capstan.flink.mysql.bench.flink120.ColdSqlProgram"
                        : ColdRun.class.getName());
        for (String[] kv :
                new String[][] {
                    {"variant", program},
                    {"host", c.hostname()},
                    {"port", Integer.toString(c.port())},
                    {"user", c.username()},
                    {"ssl-mode", ssl},
                    {"database", table.id().database()},
                    {"table", table.id().table()},
                    {"expect", Long.toString(expected)},
                    {"runs", Integer.toString(o.runsPerJvm())},
                    {"server-id", Integer.toString(serverId)},
                    {"parallelism", "1"}
                }) {
            if (flink120 && kv[0].equals("server-id")) {
                continue; // the 1.20 SQL programs name their server ids in the DDL
            }
            cmd.add("--" + kv[0]);
            cmd.add(kv[1]);
        }
        cmd.addAll(before.coldRunArguments());
        ProcessBuilder pb =
                new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put(ColdRun.PASSWORD_VARIABLE, c.password());
        long launchEpochMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        Process p = pb.start();
        if (!p.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(
                    program + " did not end within " + CHILD_TIMEOUT_MINUTES + " min; see " + log);
        }
        List<ColdRunLine> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith(ColdRunLine.PREFIX)) {
                lines.add(ColdRunLine.parse(line));
            } else if (line.startsWith(ColdRun.FAILED)) {
                throw new IllegalStateException(
                        program + " (" + ssl + ") failed: " + line + "; see " + log);
            }
        }
        if (p.exitValue() != 0 || lines.size() != o.runsPerJvm()) {
            throw new IllegalStateException(
                    program
                            + " ("
                            + ssl
                            + ") exited "
                            + p.exitValue()
                            + " with "
                            + lines.size()
                            + " of "
                            + o.runsPerJvm()
                            + " runs; see "
                            + log);
        }
        return new Launched(launchEpochMicros, lines);
    }
}

package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.bench.coldrun.ColdRunLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds the cold-start benchmark's report from the programs' kept output ({@code <program>-<TLS
 * mode>-<round>.log} in {@code target/cold-runs/}), for a run that was stopped before its end or to
 * print it again ({@code --report-from DIR}). The launch moments are not in the output, so the JVM
 * boot column stays empty; the counts come from the runs themselves.
 */
final class ColdStartLogs {

    private ColdStartLogs() {}

    static ColdStartReport read(ColdStartOptions o, Path dir) throws IOException {
        long tableRows = records(dir, o, "scan");
        long rowChanges = records(dir, o, "binlog-client");
        long changeRecords = records(dir, o, "binlog");
        ColdStartReport report = new ColdStartReport(o, tableRows, rowChanges, changeRecords);
        for (int round = 1; round <= o.rounds(); round++) {
            for (String ssl : o.sslModes()) {
                for (String program : o.programs()) {
                    List<ColdRunLine> lines = lines(dir.resolve(name(program, ssl, round)));
                    if (lines.size() == o.runsPerJvm()) {
                        report.add(program, ssl, round, ColdStartReport.UNKNOWN_LAUNCH, lines);
                    }
                }
            }
        }
        return report;
    }

    static String name(String program, String ssl, int round) {
        return program + "-" + ssl + "-" + round + ".log";
    }

    private static long records(Path dir, ColdStartOptions o, String program) throws IOException {
        for (String ssl : o.sslModes()) {
            List<ColdRunLine> lines = lines(dir.resolve(name(program, ssl, 1)));
            if (!lines.isEmpty()) {
                return lines.get(0).records();
            }
        }
        throw new IllegalArgumentException(
                "no complete output of '" + program + "' in round 1 under " + dir);
    }

    private static List<ColdRunLine> lines(Path log) throws IOException {
        List<ColdRunLine> lines = new ArrayList<>();
        if (Files.isReadable(log)) {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith(ColdRunLine.PREFIX)) {
                    lines.add(ColdRunLine.parse(line));
                }
            }
        }
        return lines;
    }
}

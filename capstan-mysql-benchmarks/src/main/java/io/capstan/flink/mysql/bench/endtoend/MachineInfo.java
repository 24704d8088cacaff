package io.capstan.flink.mysql.bench.endtoend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;

/** Where and with what a run was measured: CPU, cores, memory, load, and the versions involved. */
final class MachineInfo {

    private MachineInfo() {}

    static String cpuModel() {
        for (String line : lines("/proc/cpuinfo")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return System.getProperty("os.arch");
    }

    static String memory() {
        for (String line : lines("/proc/meminfo")) {
            if (line.startsWith("MemTotal:")) {
                long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                return String.format(Locale.ROOT, "%.1f GiB", kb / (1024.0 * 1024.0));
            }
        }
        return "unknown";
    }

    /** The 1-minute load average, or "unknown". */
    static String loadAverage() {
        List<String> l = lines("/proc/loadavg");
        return l.isEmpty() ? "unknown" : l.get(0).split(" ")[0];
    }

    static String describe(String mysqlVersion) {
        return String.format(
                Locale.ROOT,
                "%d cores (nproc) of %s, %s RAM, %s %s; Java %s (%s); Flink %s (MiniCluster in the benchmark JVM);"
                        + " MySQL %s; mysql-binlog-connector-java %s; MySQL Connector/J %s",
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                memory(),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name"),
                System.getProperty("bench.flink.version", "?"),
                mysqlVersion,
                System.getProperty("bench.binlog.version", "?"),
                System.getProperty("bench.jdbc.version", "?"));
    }

    private static List<String> lines(String file) {
        Path p = Paths.get(file);
        try {
            return Files.exists(p) ? Files.readAllLines(p) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }
}

package io.capstan.flink.mysql.e2e.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** One JVM of the cluster (JobManager, TaskManager, SQL Gateway) and its log files. */
public final class FlinkProcess {
    private final String name;
    private final Process process;
    private final Path logFile;
    private final Path outFile;

    FlinkProcess(String name, Process process, Path logFile, Path outFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.outFile = outFile;
    }

    /** For a TaskManager, its resource id as the REST API reports it (tm-1, tm-2, ...). */
    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The log4j log ({@code log.file}). */
    public Path logFile() {
        return logFile;
    }

    /** stdout and stderr of the JVM. */
    public Path outFile() {
        return outFile;
    }

    /** SIGKILL ({@link Process#destroyForcibly()} on Linux); returns the exit code, 137. */
    public int kill() {
        return ProcessReaper.kill(process);
    }

    /** A description for failure messages: the state, the log paths and the ends of the logs. */
    public String diagnostics(int lines) {
        StringBuilder text = new StringBuilder();
        text.append("--- ").append(name).append(" (pid ").append(pid()).append(", ");
        text.append(isAlive() ? "alive" : "exited with " + process.exitValue()).append(")\n");
        for (Path file : List.of(logFile, outFile)) {
            text.append("    ").append(file).append(":\n");
            for (String line : tail(file, lines)) {
                text.append("      ").append(line).append('\n');
            }
        }
        return text.toString();
    }

    static List<String> tail(Path file, int lines) {
        try {
            if (!Files.isRegularFile(file)) {
                return List.of("(missing)");
            }
            List<String> all = Files.readAllLines(file);
            return all.subList(Math.max(0, all.size() - lines), all.size());
        } catch (IOException e) {
            return List.of("(unreadable: " + e.getMessage() + ")");
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ")";
    }
}

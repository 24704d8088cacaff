package io.capstan.flink.mysql.e2e.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure no Flink JVM outlives the tests: every process started here is killed by a JVM
 * shutdown hook (a failing test, an exception in setup), and its pid is appended to a pid file in
 * the cluster's work directory so that the next start in that directory kills leftovers of a test
 * JVM that died without running its hooks (SIGKILL, a surefire timeout).
 */
final class ProcessReaper {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(ProcessReaper::killAll, "capstan-e2e-process-reaper"));
    }

    private ProcessReaper() {}

    static void register(Process process, Path pidFile) {
        LIVE.add(process);
        try {
            Files.writeString(
                    pidFile,
                    process.pid() + System.lineSeparator(),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the process with SIGKILL and waits for it; returns its exit code (137 = SIGKILL). */
    static int kill(Process process) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Process " + process.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while killing " + process.pid(), e);
        }
        LIVE.remove(process);
        return process.exitValue();
    }

    /**
     * Kills the processes listed in the pid file that still run with {@code marker} (the work
     * directory) on their command line, i.e. that are ours and not a reused pid, then deletes it.
     */
    static void killLeftovers(Path pidFile, String marker) {
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        try {
            for (String line : Files.readAllLines(pidFile)) {
                if (line.isBlank()) {
                    continue;
                }
                long pid = Long.parseLong(line.trim());
                ProcessHandle.of(pid)
                        .filter(handle -> commandLineContains(pid, marker))
                        .ifPresent(
                                handle -> {
                                    System.err.println(
                                            "capstan-e2e: killing leftover Flink process " + pid);
                                    handle.destroyForcibly();
                                    handle.onExit().join();
                                });
            }
            Files.delete(pidFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean commandLineContains(long pid, String marker) {
        Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
        try {
            return Files.isReadable(cmdline)
                    && new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8)
                            .contains(marker);
        } catch (IOException e) {
            return false; // it exited meanwhile
        }
    }

    private static void killAll() {
        for (Process process : LIVE) {
            process.destroyForcibly();
        }
        for (Process process : LIVE) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}

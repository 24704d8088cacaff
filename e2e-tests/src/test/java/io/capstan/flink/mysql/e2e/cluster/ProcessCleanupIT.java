package io.capstan.flink.mysql.e2e.cluster;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No Flink JVM outlives the tests: a test JVM that fails with its cluster open kills the cluster in
 * its shutdown hook, and the leftovers of a test JVM killed without hooks are killed by the next
 * cluster start in the same work directory.
 */
class ProcessCleanupIT {

    @Test
    void failingTestJvmLeavesNoFlinkProcessBehind() throws Exception {
        Process child = startProbe("LeakProbeThrow", "throw");
        List<Long> pids = readPids(child);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("the probe failed").isNotZero();
        assertAllGone(pids);
    }

    @Test
    void leftoversOfAKilledTestJvmAreKilledByTheNextStart() throws Exception {
        Process child = startProbe("LeakProbeKill", "wait");
        List<Long> pids = readPids(child);
        child.destroyForcibly(); // SIGKILL: no shutdown hooks run
        child.waitFor();
        Thread.sleep(1000);
        assertThat(pids)
                .as("orphans after SIGKILL of the test JVM")
                .allMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));

        Path workDir = E2eBuild.workDir().resolve("LeakProbeKill");
        // what FlinkStandaloneCluster.start() does first in its work directory
        ProcessReaper.killLeftovers(workDir.resolve("pids"), workDir.toString());
        assertAllGone(pids);
    }

    private static Process startProbe(String name, String mode) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(JvmLauncher.java());
        cmd.add("-Xmx256m");
        for (String property : List.of("capstan.e2e.cluster.classpath", "capstan.e2e.work.dir")) {
            cmd.add("-D" + property + "=" + System.getProperty(property, ""));
        }
        cmd.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        ClusterLeakProbe.class.getName(),
                        name,
                        mode));
        Path err = E2eBuild.workDir().resolve(name + "-probe.err");
        err.getParent().toFile().mkdirs();
        return new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    }

    private static List<Long> readPids(Process child) throws IOException {
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("PIDS ")) {
                List<Long> pids = new ArrayList<>();
                for (String pid : line.substring(5).trim().split(" ")) {
                    pids.add(Long.parseLong(pid));
                }
                assertThat(pids).hasSize(2);
                return pids;
            }
        }
        throw new AssertionError(
                "The probe printed no pids; see its stderr in " + E2eBuild.workDir());
    }

    private static void assertAllGone(List<Long> pids) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline
                && pids.stream().anyMatch(pid -> ProcessHandle.of(pid).isPresent())) {
            Thread.sleep(100);
        }
        assertThat(pids)
                .as("Flink processes still running")
                .noneMatch(pid -> ProcessHandle.of(pid).isPresent());
    }
}

package io.capstan.flink.mysql.e2e.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Run in a child JVM by {@link ProcessCleanupIT}: starts a one-TaskManager cluster, prints {@code
 * PIDS <jobmanager> <taskmanagers...>}, and then never closes it: with argument {@code throw} it
 * fails like a test whose cleanup never ran (the JVM exits through its shutdown hooks), with {@code
 * wait} it waits to be SIGKILLed (no hooks run).
 */
public final class ClusterLeakProbe {
    private ClusterLeakProbe() {}

    public static void main(String[] args) throws InterruptedException {
        FlinkStandaloneCluster cluster =
                FlinkStandaloneCluster.builder().name(args[0]).taskManagers(1).start();
        List<Long> pids = new ArrayList<>();
        pids.add(cluster.jobManager().pid());
        pids.addAll(cluster.taskManagerPids());
        System.out.println(
                "PIDS "
                        + pids.stream()
                                .map(String::valueOf)
                                .reduce((a, b) -> a + " " + b)
                                .orElseThrow());
        System.out.flush();
        if ("throw".equals(args[1])) {
            throw new IllegalStateException("Deliberate failure with the cluster left open");
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}

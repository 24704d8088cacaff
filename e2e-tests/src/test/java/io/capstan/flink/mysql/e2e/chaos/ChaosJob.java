package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.connector.CdcJobFixture;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The job of one chaos round across its incarnations: submitted once with startup {@code initial}
 * and then, after each checkpoint or savepoint restore, again from the state the last one left,
 * always into the same output directory (the FileSink's state continues there).
 */
final class ChaosJob {
    private static final Duration WAIT = Duration.ofMinutes(2);

    private final FlinkStandaloneCluster cluster;
    private final CdcJobFixture fixture;
    private final String name;
    private final String tables;
    private final long serverId;
    private final Path output;
    private final List<String> arguments;
    private volatile String jobId;
    private int incarnations;

    ChaosJob(
            FlinkStandaloneCluster cluster,
            CdcJobFixture fixture,
            String name,
            String tables,
            long serverId,
            Path output,
            List<String> arguments) {
        this.cluster = cluster;
        this.fixture = fixture;
        this.name = name;
        this.tables = tables;
        this.serverId = serverId;
        this.output = output;
        this.arguments = List.copyOf(arguments);
    }

    void start() {
        submit(null);
    }

    String id() {
        return jobId;
    }

    Path output() {
        return output;
    }

    /** Incarnations so far (1 + the restores). */
    int incarnations() {
        return incarnations;
    }

    void awaitRunning() {
        cluster.waitForJobState(jobId, WAIT, "RUNNING");
    }

    /**
     * Cancels the job and submits it again from its latest completed checkpoint, which is read only
     * after the job is gone (a checkpoint completed meanwhile would be lost otherwise, its files
     * already committed: the restore must take the last one).
     */
    String restoreFromLatestCheckpoint() {
        awaitRunning();
        cluster.waitForCompletedCheckpoints(jobId, 1, WAIT);
        cluster.cancelJob(jobId);
        cluster.waitForJobState(jobId, WAIT, "CANCELED");
        JsonNode latest = cluster.rest().checkpoints(jobId).path("latest");
        String path = latest.path("completed").path("external_path").asText("");
        if (path.isEmpty()) {
            path = latest.path("restored").path("external_path").asText("");
        }
        if (path.isEmpty()) {
            throw new IllegalStateException("Job " + jobId + " left no retained checkpoint");
        }
        path = newestRetained(path);
        submit(path);
        return path;
    }

    /**
     * The newest checkpoint of the job that is still on disk: a checkpoint that completed while the
     * job was cancelled subsumes (deletes) the one the REST API named last, and is the one to take.
     * A checkpoint is complete once its {@code _metadata} is written.
     */
    private static String newestRetained(String reported) {
        URI uri = URI.create(reported);
        Path dir = (uri.getScheme() == null ? Path.of(reported) : Path.of(uri)).getParent();
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(c -> c.getFileName().toString().startsWith("chk-"))
                    .filter(c -> Files.isRegularFile(c.resolve("_metadata")))
                    .max(
                            Comparator.comparingLong(
                                    c -> Long.parseLong(c.getFileName().toString().substring(4))))
                    .map(c -> c.toUri().toString())
                    .orElse(reported);
        } catch (IOException e) {
            return reported; // the job's directory is gone: the restore says why
        }
    }

    /** Stop with a savepoint (retried while a failover refuses it), then a restore from it. */
    String restoreFromSavepoint() {
        for (int attempt = 1; ; attempt++) {
            awaitRunning();
            long completed = cluster.rest().completedCheckpoints(jobId);
            cluster.waitForCompletedCheckpoints(jobId, completed + 1, WAIT);
            try {
                String savepoint = cluster.stopWithSavepoint(jobId, WAIT);
                submit(savepoint);
                return savepoint;
            } catch (IllegalStateException e) {
                if (attempt == 3 || isTerminal(cluster.jobState(jobId))) {
                    throw e;
                }
                System.out.printf(
                        "Savepoint of %s refused (attempt %d), trying again: %s%n",
                        jobId, attempt, firstLine(e.getMessage()));
            }
        }
    }

    private void submit(String savepointPath) {
        incarnations++;
        jobId =
                fixture.submit(
                        name + "-" + incarnations,
                        tables,
                        "initial",
                        serverId,
                        output,
                        arguments,
                        savepointPath);
    }

    static boolean isTerminal(String state) {
        return List.of("FAILED", "CANCELED", "FINISHED").contains(state);
    }

    static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    @Override
    public String toString() {
        return name + ", job " + jobId + " (incarnation " + incarnations + ")";
    }
}

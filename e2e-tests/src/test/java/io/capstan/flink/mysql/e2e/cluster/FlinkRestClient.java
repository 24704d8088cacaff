package io.capstan.flink.mysql.e2e.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The calls of Flink's REST API (the JobManager's) that the e2e tests use. */
public final class FlinkRestClient {
    private final RestJson rest;

    public FlinkRestClient(String baseUrl) {
        this.rest = new RestJson(baseUrl);
    }

    public String baseUrl() {
        return rest.baseUrl();
    }

    /** {@code GET /overview}: taskmanagers, slots-total, slots-available, jobs-running, ... */
    public JsonNode overview() {
        return rest.get("/overview");
    }

    /** The resource ids of the TaskManagers the JobManager currently counts as registered. */
    public Set<String> taskManagerIds() {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode tm : rest.get("/taskmanagers").path("taskmanagers")) {
            ids.add(tm.path("id").asText());
        }
        return ids;
    }

    /** {@code POST /jars/upload}; returns the jar id for {@link #runJar}. */
    public String uploadJar(Path jar) {
        try {
            JsonNode answer =
                    rest.postFile(
                            "/jars/upload",
                            "jarfile",
                            jar.getFileName().toString(),
                            Files.readAllBytes(jar),
                            "application/x-java-archive");
            String stored = answer.path("filename").asText();
            if (!"success".equals(answer.path("status").asText()) || stored.isEmpty()) {
                throw new IllegalStateException("Jar upload of " + jar + " failed: " + answer);
            }
            return Path.of(stored).getFileName().toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code POST /jars/<id>/run}; returns the job id. */
    public String runJar(String jarId, String entryClass, List<String> args, int parallelism) {
        return runJar(jarId, entryClass, args, parallelism, null);
    }

    /**
     * {@code POST /jars/<id>/run} restoring the job from {@code savepointPath} (null: a fresh
     * start; state the job cannot map back is refused); returns the job id.
     */
    public String runJar(
            String jarId,
            String entryClass,
            List<String> args,
            int parallelism,
            String savepointPath) {
        ObjectNode body = RestJson.object();
        if (savepointPath != null) {
            body.put("savepointPath", savepointPath);
            body.put("allowNonRestoredState", false);
        }
        body.put("entryClass", entryClass);
        ArrayNode programArgs = body.putArray("programArgsList");
        args.forEach(programArgs::add);
        body.put("parallelism", parallelism);
        JsonNode answer = rest.post("/jars/" + jarId + "/run", body);
        String jobId = answer.path("jobid").asText();
        if (jobId.isEmpty()) {
            throw new IllegalStateException(
                    "Running jar " + jarId + " returned no job id: " + answer);
        }
        return jobId;
    }

    /** {@code GET /jobs/<id>}: the job's details (state, vertices, ...). */
    public JsonNode job(String jobId) {
        return rest.get("/jobs/" + jobId);
    }

    /** CREATED, RUNNING, RESTARTING, FAILING, FINISHED, CANCELED, FAILED, ... */
    public String jobState(String jobId) {
        return job(jobId).path("state").asText();
    }

    /** {@code PATCH /jobs/<id>?mode=cancel}. */
    public void cancel(String jobId) {
        rest.patch("/jobs/" + jobId + "?mode=cancel");
    }

    /**
     * {@code POST /jobs/<id>/stop} without draining: a savepoint into {@code targetDirectory}, then
     * the job finishes. Returns the trigger id for {@link #savepointStatus}.
     */
    public String stopWithSavepoint(String jobId, String targetDirectory) {
        ObjectNode body = RestJson.object();
        body.put("drain", false);
        body.put("targetDirectory", targetDirectory);
        JsonNode answer = rest.post("/jobs/" + jobId + "/stop", body);
        String triggerId = answer.path("request-id").asText();
        if (triggerId.isEmpty()) {
            throw new IllegalStateException(
                    "Stop with savepoint of job " + jobId + " returned no trigger id: " + answer);
        }
        return triggerId;
    }

    /**
     * {@code GET /jobs/<id>/savepoints/<triggerId>}: {@code status.id} is IN_PROGRESS or COMPLETED;
     * when completed, {@code operation} holds {@code location} or {@code failure-cause}.
     */
    public JsonNode savepointStatus(String jobId, String triggerId) {
        return rest.get("/jobs/" + jobId + "/savepoints/" + triggerId);
    }

    /**
     * {@code GET /jobs/<id>/checkpoints}: counts, and under {@code latest} the last {@code
     * completed} and {@code restored} checkpoint with its {@code external_path}.
     */
    public JsonNode checkpoints(String jobId) {
        return rest.get("/jobs/" + jobId + "/checkpoints");
    }

    /**
     * {@code GET /jobs/<id>/vertices/<vertex>/jm-operator-metrics}: the metrics of the vertex's
     * operator coordinator (a source's enumerator), as {@code [{"id": ..., "value": ...}]}; {@code
     * get} null lists the ids only. Values come through Flink's metric fetcher ({@code
     * metrics.fetcher.update-interval}).
     */
    public JsonNode jobManagerOperatorMetrics(String jobId, String vertexId, String get) {
        return rest.get(
                "/jobs/"
                        + jobId
                        + "/vertices/"
                        + vertexId
                        + "/jm-operator-metrics"
                        + (get == null ? "" : "?get=" + get));
    }

    /** The number of completed checkpoints of the job. */
    public long completedCheckpoints(String jobId) {
        return rest.get("/jobs/" + jobId + "/checkpoints")
                .path("counts")
                .path("completed")
                .asLong();
    }

    /**
     * How many times the job failed over: its {@code numRestarts} metric, or the number of failures
     * in its exception history if that is more. The metric reaches the REST API through Flink's
     * metric fetcher, which can lag (a CI run saw it at 0 for two minutes after two restarts while
     * a TaskManager was lost); the exception history is kept by the JobMaster itself.
     */
    public long restarts(String jobId) {
        long metric = 0;
        for (JsonNode m : rest.get("/jobs/" + jobId + "/metrics?get=numRestarts")) {
            metric = m.path("value").asLong();
        }
        long failures = exceptions(jobId).path("exceptionHistory").path("entries").size();
        return Math.max(metric, failures);
    }

    /** The root exception and the history of the job's failures, as the REST API gives them. */
    public JsonNode exceptions(String jobId) {
        return rest.get("/jobs/" + jobId + "/exceptions");
    }

    /** The resource ids of the TaskManagers that run at least one subtask of the job now. */
    public Set<String> taskManagersOfJob(String jobId) {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode vertex : job(jobId).path("vertices")) {
            String path =
                    "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/taskmanagers";
            for (JsonNode tm : rest.get(path).path("taskmanagers")) {
                String id = tm.path("taskmanager-id").asText();
                // Subtasks not (yet) deployed, e.g. during a restart, are listed as "(unassigned)".
                // Only TaskManagers running a subtask: one holding only finished subtasks (an idle
                // source reader ends after "no more splits") is no victim for a kill test.
                boolean running =
                        tm.path("status-counts").path("RUNNING").asInt(0) > 0
                                || "RUNNING".equals(tm.path("status").asText());
                if (!id.isEmpty() && !id.startsWith("(") && running) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }

    /** The ids of all jobs the cluster knows. */
    public List<String> jobIds() {
        List<String> ids = new ArrayList<>();
        for (JsonNode job : rest.get("/jobs").path("jobs")) {
            ids.add(job.path("id").asText());
        }
        return ids;
    }
}

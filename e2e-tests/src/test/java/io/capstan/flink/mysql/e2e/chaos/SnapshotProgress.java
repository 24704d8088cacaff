package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.cluster.FlinkRestClient;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

/**
 * Where the job's snapshot is, from the enumerator's gauges ({@code isSnapshotting}, {@code
 * snapshotEstimatedRemainingSeconds}) read over REST: when the handoff is near. Unknown while the
 * job (re)starts or the metric fetcher has not caught up.
 *
 * @param known whether the gauges could be read
 * @param snapshotting 1 until the binlog split is handed out
 * @param remainingSeconds the estimated seconds to the snapshot's end (-1 unknown)
 */
record SnapshotProgress(boolean known, boolean snapshotting, long remainingSeconds) {
    private static final String SOURCE_NAME = "mysql-changes";
    static final SnapshotProgress UNKNOWN = new SnapshotProgress(false, true, -1);

    static SnapshotProgress of(FlinkRestClient rest, String jobId) {
        try {
            String vertex = null;
            for (JsonNode v : rest.job(jobId).path("vertices")) {
                if (v.path("name").asText().contains(SOURCE_NAME)) {
                    vertex = v.path("id").asText();
                }
            }
            if (vertex == null) {
                return UNKNOWN;
            }
            String snapshotting = null;
            String remaining = null;
            for (JsonNode m : rest.jobManagerOperatorMetrics(jobId, vertex, null)) {
                String id = m.path("id").asText();
                if (id.equals("isSnapshotting") || id.endsWith(".isSnapshotting")) {
                    snapshotting = id;
                } else if (id.equals("snapshotEstimatedRemainingSeconds")
                        || id.endsWith(".snapshotEstimatedRemainingSeconds")) {
                    remaining = id;
                }
            }
            if (snapshotting == null || remaining == null) {
                return UNKNOWN;
            }
            long isSnapshotting = -1;
            long remainingSeconds = -1;
            for (JsonNode m :
                    rest.jobManagerOperatorMetrics(jobId, vertex, snapshotting + "," + remaining)) {
                long value = (long) Double.parseDouble(m.path("value").asText("-1"));
                if (m.path("id").asText().equals(snapshotting)) {
                    isSnapshotting = value;
                } else {
                    remainingSeconds = value;
                }
            }
            return isSnapshotting < 0
                    ? UNKNOWN
                    : new SnapshotProgress(true, isSnapshotting == 1, remainingSeconds);
        } catch (RuntimeException e) {
            return UNKNOWN; // the job is between incarnations, or its REST view is not there yet
        }
    }
}

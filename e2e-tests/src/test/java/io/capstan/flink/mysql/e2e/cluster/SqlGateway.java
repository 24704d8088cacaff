package io.capstan.flink.mysql.e2e.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A Flink SQL Gateway JVM ({@code org.apache.flink.table.gateway.SqlGateway}) that submits to a
 * {@link FlinkStandaloneCluster} ({@code execution.target: remote}), and the calls of its REST API
 * ({@code /v1/sessions/...}) that tests need. Start it with {@link
 * FlinkStandaloneCluster#startSqlGateway}; the cluster closes it.
 */
public final class SqlGateway implements AutoCloseable {
    private static final String MAIN = "org.apache.flink.table.gateway.SqlGateway";

    private final FlinkProcess process;
    private final int port;
    private final RestJson rest;

    private SqlGateway(FlinkProcess process, int port) {
        this.process = process;
        this.port = port;
        this.rest = new RestJson("http://127.0.0.1:" + port);
    }

    static SqlGateway start(
            JvmLauncher launcher,
            String name,
            int clusterRestPort,
            List<Path> extraJars,
            Duration timeout) {
        int port = FreePorts.next();
        FlinkProcess process =
                launcher.start(
                        name,
                        MAIN,
                        List.of("-Xmx512m", "-Xms128m"),
                        extraJars,
                        List.of(
                                "-Dsql-gateway.endpoint.rest.address=127.0.0.1",
                                "-Dsql-gateway.endpoint.rest.bind-address=127.0.0.1",
                                "-Dsql-gateway.endpoint.rest.port=" + port,
                                "-Dexecution.target=remote",
                                "-Drest.address=127.0.0.1",
                                "-Drest.port=" + clusterRestPort),
                        Map.of());
        SqlGateway gateway = new SqlGateway(process, port);
        gateway.awaitUp(timeout);
        return gateway;
    }

    private void awaitUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "The SQL Gateway died on start\n" + process.diagnostics(40));
            }
            try {
                rest.get("/v1/info");
                return;
            } catch (RuntimeException e) {
                last = e;
            }
            sleep(250);
        }
        process.kill();
        throw new IllegalStateException(
                "The SQL Gateway did not answer within "
                        + timeout
                        + " ("
                        + last
                        + ")\n"
                        + process.diagnostics(40));
    }

    public int port() {
        return port;
    }

    public FlinkProcess process() {
        return process;
    }

    /** Opens a session ({@code POST /v1/sessions}). */
    public Session openSession() {
        JsonNode answer = rest.post("/v1/sessions", RestJson.object());
        return new Session(answer.path("sessionHandle").asText());
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.kill();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /** One SQL Gateway session: its catalog, SET options and tables live until it is closed. */
    public final class Session implements AutoCloseable {
        private final String handle;

        private Session(String handle) {
            this.handle = handle;
        }

        public String handle() {
            return handle;
        }

        /**
         * Executes one statement and reads its whole result: DDL and SET answer OK; an INSERT
         * answers as soon as its job is submitted, with the job id ({@link SqlResult#jobId()}); a
         * query must be bounded (use {@link #executeQuery} for an unbounded one).
         */
        public SqlResult execute(String statement) {
            return executeQuery(statement, Integer.MAX_VALUE, Duration.ofMinutes(5));
        }

        /**
         * Executes one statement and reads its result until it ends or {@code maxRows} rows have
         * come, then closes the operation (which cancels a still running query job).
         */
        public SqlResult executeQuery(String statement, int maxRows, Duration timeout) {
            return executeUntil(statement, result -> result.rows().size() >= maxRows, timeout);
        }

        /**
         * Executes one statement and reads its result until it ends or {@code done} holds for the
         * rows read so far (checked after each page), then closes the operation (which cancels a
         * still running query job); for an unbounded query whose end is a condition on its rows.
         */
        public SqlResult executeUntil(
                String statement, Predicate<SqlResult> done, Duration timeout) {
            ObjectNode body = RestJson.object();
            body.put("statement", statement);
            String operation =
                    rest.post("/v1/sessions/" + handle + "/statements", body)
                            .path("operationHandle")
                            .asText();
            List<String> columns = new ArrayList<>();
            List<SqlRow> rows = new ArrayList<>();
            String jobId = null;
            String next =
                    "/v1/sessions/"
                            + handle
                            + "/operations/"
                            + operation
                            + "/result/0?rowFormat=JSON";
            long deadline = System.nanoTime() + timeout.toNanos();
            while (next != null && !done.test(new SqlResult(columns, rows, jobId))) {
                if (System.nanoTime() > deadline) {
                    closeOperation(operation);
                    throw new IllegalStateException(
                            "No end of the result within "
                                    + timeout
                                    + " after "
                                    + rows.size()
                                    + " rows");
                }
                JsonNode page = rest.get(next);
                String type = page.path("resultType").asText();
                if (page.hasNonNull("jobID")) {
                    jobId = page.path("jobID").asText();
                }
                JsonNode results = page.path("results");
                if (columns.isEmpty()) {
                    for (JsonNode column : results.path("columns")) {
                        columns.add(column.path("name").asText());
                    }
                }
                for (JsonNode row : results.path("data")) {
                    List<String> fields = new ArrayList<>();
                    for (JsonNode field : row.path("fields")) {
                        fields.add(
                                field.isNull()
                                        ? null
                                        : field.isValueNode() ? field.asText() : field.toString());
                    }
                    rows.add(new SqlRow(row.path("kind").asText("INSERT"), fields));
                }
                if ("EOS".equals(type)) {
                    next = null;
                } else {
                    String uri = page.path("nextResultUri").asText(null);
                    if (uri == null) {
                        next = null;
                    } else {
                        next =
                                uri.contains("rowFormat")
                                        ? uri
                                        : uri + (uri.contains("?") ? "&" : "?") + "rowFormat=JSON";
                    }
                    if ("NOT_READY".equals(type) || results.path("data").isEmpty()) {
                        sleep(200);
                    }
                }
            }
            if (next != null) {
                closeOperation(operation);
            }
            if (jobId == null
                    && columns.size() == 1
                    && "job id".equals(columns.get(0))
                    && rows.size() == 1) {
                jobId = rows.get(0).fields().get(0);
            }
            return new SqlResult(columns, rows, jobId);
        }

        private void closeOperation(String operation) {
            rest.delete("/v1/sessions/" + handle + "/operations/" + operation + "/close");
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                rest.delete("/v1/sessions/" + handle);
            }
        }
    }

    /**
     * One row of a result: its changelog kind (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE) and
     * fields as text, null for NULL.
     */
    public record SqlRow(String kind, List<String> fields) {}

    /**
     * The result of one statement: its columns, its rows as a changelog and, for an INSERT, the job
     * id.
     */
    public record SqlResult(List<String> columns, List<SqlRow> rows, String jobId) {
        /** The job id of an INSERT, or an error that the statement started no job. */
        public String requireJobId() {
            if (jobId == null) {
                throw new IllegalStateException("The statement started no job; columns " + columns);
            }
            return jobId;
        }

        /**
         * The rows the changelog ends with: INSERT and UPDATE_AFTER add a row, UPDATE_BEFORE and
         * DELETE retract an equal one (a retraction of a row not there is an error).
         */
        public List<List<String>> materialized() {
            List<List<String>> table = new ArrayList<>();
            for (SqlRow row : rows) {
                switch (row.kind()) {
                    case "INSERT", "UPDATE_AFTER" -> table.add(row.fields());
                    case "UPDATE_BEFORE", "DELETE" -> {
                        if (!table.remove(row.fields())) {
                            throw new IllegalStateException(
                                    "The changelog retracts a row it never added ("
                                            + row.kind()
                                            + ")");
                        }
                    }
                    default -> throw new IllegalStateException("Unknown row kind " + row.kind());
                }
            }
            return table;
        }
    }
}

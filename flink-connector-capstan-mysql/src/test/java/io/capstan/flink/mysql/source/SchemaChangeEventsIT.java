package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema-change records ({@code includeSchemaChanges(true)}) on a real server while a writer keeps
 * inserting: {@code ADD COLUMN} (with a DEFAULT whose value must not appear in the record), {@code
 * RENAME COLUMN}, {@code DROP COLUMN}. Each record is failed once on first sight (so it is emitted
 * again after the restore from a checkpoint before it), and the TaskManager is killed and restarted
 * after the RENAME's record was committed. Through an exactly-once file sink: exactly one record
 * per DDL, each row once, and every row after a record carries exactly its columns.
 */
class SchemaChangeEventsIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Fails the first time it sees each schema-change record: it is read again after a restore. */
    static final class FailOnFirstSchemaChange implements MapFunction<String, String> {
        private static final long serialVersionUID = 1L;
        static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
        static final AtomicLong FIRED = new AtomicLong();

        @Override
        public String map(String value) throws Exception {
            // keyed by transaction, not text: the record's ts_ms differs each time it is emitted
            if (value.contains("\"tableChanges\"")
                    && SEEN.add(MAPPER.readTree(value).path("source").path("gtid").asText())) {
                FIRED.incrementAndGet();
                throw new IllegalStateException("injected failure at a schema-change record");
            }
            return value;
        }
    }

    @Test
    void oneRecordPerDdlAtItsPlaceAcrossFailures(
            @TempDir Path sink, @InjectMiniCluster MiniCluster cluster) throws Exception {
        DB.execute("CREATE TABLE sce_t (id BIGINT PRIMARY KEY, v INT)");
        String start = DB.server().gtidExecuted();
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .databaseList(DB.name())
                        .tableList(DB.name() + ".sce_t")
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.gtidSet(start))
                        .deserializer(new JsonDebeziumDeserializer())
                        .heartbeatInterval(Duration.ofSeconds(1))
                        .includeSchemaChanges(true)
                        .build();
        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .uid("capstan-source")
                .map(new FailOnFirstSchemaChange())
                .uid("fail")
                .sinkTo(new TwoPhaseFileSink(sink))
                .uid("sink");
        JobClient job = env.executeAsync("schema-change-events");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        Thread writer =
                new Thread(
                        () -> {
                            try (Connection c = DB.openRootConnection();
                                    PreparedStatement insert =
                                            c.prepareStatement(
                                                    "INSERT INTO "
                                                            + DB.name()
                                                            + ".sce_t (id, v) VALUES (?, ?)")) {
                                for (long id = 1; writing.get(); id++) {
                                    insert.setLong(1, id);
                                    insert.setInt(2, (int) id);
                                    insert.executeUpdate();
                                    written.set(id);
                                    Thread.sleep(5);
                                }
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        "sce-writer");
        try {
            writer.start();
            awaitCommitted(sink, 30, 0);
            DB.execute("ALTER TABLE sce_t ADD COLUMN c INT DEFAULT 4242");
            awaitCommitted(sink, 30, 1);
            DB.execute("ALTER TABLE sce_t RENAME COLUMN c TO d");
            awaitCommitted(sink, 30, 2);
            // the RENAME's record is committed: a TaskManager loss now must not repeat it
            cluster.terminateTaskManager(0).get();
            cluster.startTaskManager();
            awaitCommitted(sink, 30, 2);
            DB.execute("ALTER TABLE sce_t DROP COLUMN d");
            awaitCommitted(sink, 30, 3);
            writing.set(false);
            writer.join(10_000);
            long rows = written.get();
            SourceJobs.await(
                    "every row committed",
                    Duration.ofMinutes(2),
                    () -> rowsOf(committed(sink)) >= rows);
            Thread.sleep(1_000); // a duplicate would show
            List<String> lines = committed(sink);

            List<JsonNode> schemaChanges = new ArrayList<>();
            Set<Long> ids = new HashSet<>();
            List<String> columns = List.of("id", "v");
            for (String line : lines) {
                JsonNode n = MAPPER.readTree(line);
                if (n.has("tableChanges")) {
                    assertThat(line).doesNotContain("4242").doesNotContainIgnoringCase("DEFAULT");
                    assertThat(n.path("ddl").isNull()).isTrue();
                    schemaChanges.add(n);
                    columns = new ArrayList<>();
                    for (JsonNode c : n.path("tableChanges").get(0).path("table").path("columns")) {
                        columns.add(c.path("name").asText());
                    }
                    continue;
                }
                assertThat(n.path("op").asText()).isEqualTo("c");
                List<String> keys = new ArrayList<>();
                for (Iterator<String> k = n.path("after").fieldNames(); k.hasNext(); ) {
                    keys.add(k.next());
                }
                long id = n.path("after").path("id").asLong();
                assertThat(keys).as("columns of row %s", id).isEqualTo(columns);
                assertThat(ids.add(id)).as("row %s once", id).isTrue();
            }
            assertThat(schemaChanges).hasSize(3);
            assertThat(schemaChanges)
                    .extracting(n -> n.path("ddlKind").asText())
                    .containsOnly("ALTER TABLE");
            assertThat(
                            schemaChanges.stream()
                                    .map(n -> n.path("tableChanges").get(0).path("table"))
                                    .map(SchemaChangeEventsIT::names))
                    .containsExactly(
                            List.of("id", "v", "c"), List.of("id", "v", "d"), List.of("id", "v"));
            assertThat(schemaChanges.get(0).path("tableChanges").get(0).path("type").asText())
                    .isEqualTo("ALTER");
            assertThat(ids).hasSize((int) rows);
            assertThat(FailOnFirstSchemaChange.FIRED.get()).isEqualTo(3);
        } finally {
            writing.set(false);
            writer.join(10_000);
            job.cancel();
        }
    }

    /**
     * DDLs read long after they ran: the first ALTER's columns are gone from the server (a second
     * ALTER followed), so its record carries none; the second's are exact. Rows carry their own.
     */
    @Test
    void aDdlSupersededBeforeTheStreamReadItCarriesNoColumns() throws Exception {
        DB.execute("CREATE TABLE sce_s (id BIGINT PRIMARY KEY, v INT)");
        String start = DB.server().gtidExecuted();
        DB.execute(
                "INSERT INTO sce_s VALUES (1, 1)",
                "ALTER TABLE sce_s ADD COLUMN c1 INT",
                "INSERT INTO sce_s VALUES (2, 2, 2)",
                "ALTER TABLE sce_s ADD COLUMN c2 INT",
                "INSERT INTO sce_s VALUES (3, 3, 3, 3)");
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .databaseList(DB.name())
                        .tableList(DB.name() + ".sce_s")
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.gtidSet(start))
                        .deserializer(new JsonDebeziumDeserializer())
                        .includeSchemaChanges(true)
                        .build();
        List<String> out = new java.util.concurrent.CopyOnWriteArrayList<>();
        OUT.clear();
        StreamExecutionEnvironment env = SourceJobs.env(500, null);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .map(
                        j -> {
                            OUT.add(j);
                            return 0;
                        })
                .returns(Integer.class)
                .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
        JobClient job = env.executeAsync("superseded-ddl");
        try {
            SourceJobs.await("five records", Duration.ofMinutes(2), () -> OUT.size() >= 5);
            Thread.sleep(500);
            out.addAll(OUT);
        } finally {
            job.cancel();
        }
        List<String> shapes = new ArrayList<>();
        for (String line : out) {
            JsonNode n = MAPPER.readTree(line);
            if (n.has("tableChanges")) {
                JsonNode table = n.path("tableChanges").get(0).path("table");
                shapes.add("schema:" + (table.isNull() ? "unknown" : names(table)));
            } else {
                List<String> keys = new ArrayList<>();
                n.path("after").fieldNames().forEachRemaining(keys::add);
                shapes.add("row:" + keys);
            }
        }
        assertThat(shapes)
                .containsExactly(
                        "row:[id, v]",
                        "schema:unknown",
                        "row:[id, v, c1]",
                        "schema:[id, v, c1, c2]",
                        "row:[id, v, c1, c2]");
    }

    static final java.util.concurrent.ConcurrentLinkedQueue<String> OUT =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    private static List<String> names(JsonNode table) {
        List<String> names = new ArrayList<>();
        for (JsonNode c : table.path("columns")) {
            names.add(c.path("name").asText());
        }
        return names;
    }

    private static List<String> committed(Path sink) {
        try {
            return TwoPhaseFileSink.committedLines(sink);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long rowsOf(List<String> lines) {
        return lines.stream().filter(l -> !l.contains("\"tableChanges\"")).count();
    }

    /** Waits until {@code more} rows beyond the current ones and {@code schemaChanges} records. */
    private static void awaitCommitted(Path sink, int more, int schemaChanges)
            throws InterruptedException {
        long target = rowsOf(committed(sink)) + more;
        SourceJobs.await(
                more + " more rows and " + schemaChanges + " schema changes committed",
                Duration.ofMinutes(2),
                () -> {
                    List<String> lines = committed(sink);
                    return rowsOf(lines) >= target && lines.size() - rowsOf(lines) >= schemaChanges;
                });
    }
}

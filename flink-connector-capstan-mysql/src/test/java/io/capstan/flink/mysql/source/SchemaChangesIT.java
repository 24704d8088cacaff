package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializerColumnsTest.RowTypeInfo;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.ChangelogView;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;
import io.capstan.flink.mysql.testing.SchemaChangeWorkload;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema changes of captured tables while writers keep writing ({@link SchemaChangeWorkload}: ADD
 * COLUMN last / AFTER / FIRST, DROP and RENAME of an undeclared column, MODIFY widening a declared
 * column, ADD INDEX, a gh-ost and a pt-osc run, each on its own table), streamed by one job through
 * both shipped deserializers at once: {@code RowDataDeserializer} declaring {@code id, v, name} and
 * {@code JsonDebeziumDeserializer}. Each output, applied by key with its before images checked
 * ({@link ChangelogView}), must end equal to MySQL: nothing lost, repeated or retracted.
 */
class SchemaChangesIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2);

    static final ConcurrentLinkedQueue<String[]> ROWS = new ConcurrentLinkedQueue<>();
    static final ConcurrentLinkedQueue<String> JSON = new ConcurrentLinkedQueue<>();

    private static final RowType DECLARED =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new IntType(),
                        new VarCharType(VarCharType.MAX_LENGTH)
                    },
                    new String[] {"id", "v", "name"});

    private static <T> CapstanMySqlSource<T> source(
            String start, io.capstan.flink.mysql.CapstanDeserializer<T> deserializer) {
        return CapstanMySqlSource.<T>builder()
                .hostname(DB.server().host())
                .port(DB.server().port())
                .username(DB.server().connectorAccount().username())
                .password(DB.server().connectorAccount().password())
                .databaseList(DB.name())
                .tableList(DB.name() + "\\.sc_.*")
                .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                .startupOptions(StartupOptions.gtidSet(start))
                .deserializer(deserializer)
                .heartbeatInterval(Duration.ofSeconds(1))
                .parseOnLineSchemaChanges(true)
                .build();
    }

    @Test
    void everySchemaChangeKeepsTheStreamRunningExactly() throws Exception {
        SchemaChangeWorkload workload = new SchemaChangeWorkload(DB);
        workload.createTables();
        String start = DB.server().gtidExecuted();

        StreamExecutionEnvironment env = SourceJobs.env(500, null);
        env.fromSource(
                        source(start, new RowDataDeserializer(new RowTypeInfo(DECLARED))),
                        WatermarkStrategy.noWatermarks(),
                        "rowdata")
                .map(
                        r -> {
                            ROWS.add(
                                    new String[] {
                                        r.getRowKind().shortString(),
                                        String.valueOf(r.getLong(0)),
                                        r.getInt(1) + "|" + r.getString(2)
                                    });
                            return 0;
                        })
                .returns(Integer.class)
                .sinkTo(new DiscardingSink<>());
        env.fromSource(
                        source(start, new JsonDebeziumDeserializer()),
                        WatermarkStrategy.noWatermarks(),
                        "json")
                .map(
                        j -> {
                            JSON.add(j);
                            return 0;
                        })
                .returns(Integer.class)
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("schema-changes");
        try {
            workload.startWriters();
            workload.runChanges();
            workload.stopWriters();

            ChangelogView rows = new ChangelogView();
            ChangelogView json = new ChangelogView();
            SourceJobs.await(
                    "both outputs equal to MySQL",
                    Duration.ofMinutes(3),
                    () -> {
                        drain(rows, json);
                        if (job.getJobStatus().join().isGloballyTerminalState()) {
                            throw new AssertionError(
                                    "the job ended: "
                                            + job.getJobExecutionResult()
                                                    .handle(
                                                            (r, e) ->
                                                                    ExceptionUtils.findThrowable(
                                                                                    e,
                                                                                    CapstanHaltException
                                                                                            .class)
                                                                            .map(
                                                                                    Throwable
                                                                                            ::getMessage)
                                                                            .orElse(
                                                                                    String.valueOf(
                                                                                            e)))
                                                    .join());
                        }
                        return equalsMySql(workload, rows) && equalsMySql(workload, json);
                    });
            Thread.sleep(1_000); // anything extra (a duplicate) would show
            drain(rows, json);
            assertThat(rows.errors()).isEmpty();
            assertThat(json.errors()).isEmpty();
            for (String t : SchemaChangeWorkload.TABLES) {
                assertThat(rows.rows(t)).as("RowData " + t).isEqualTo(workload.contents(t));
                assertThat(json.rows(t)).as("JSON " + t).isEqualTo(workload.contents(t));
            }
            assertThat(rows.changes()).isGreaterThan(workload.changesWritten());
        } finally {
            job.cancel();
        }
    }

    private static boolean equalsMySql(SchemaChangeWorkload workload, ChangelogView view) {
        try {
            for (String t : SchemaChangeWorkload.TABLES) {
                if (!view.rows(t).equals(workload.contents(t))) {
                    return false;
                }
            }
            return true;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static void drain(ChangelogView rows, ChangelogView json) {
        for (String[] r = ROWS.poll(); r != null; r = ROWS.poll()) {
            long id = Long.parseLong(r[1]);
            rows.apply(SchemaChangeWorkload.tableOf(id), r[0], id, r[2]);
        }
        for (String j = JSON.poll(); j != null; j = JSON.poll()) {
            try {
                JsonNode n = MAPPER.readTree(j);
                String table = n.path("source").path("table").asText();
                String op = n.path("op").asText();
                List<String[]> changes = new ArrayList<>();
                if (!n.path("before").isNull()) {
                    changes.add(
                            new String[] {
                                op.equals("u") ? RowKind.UPDATE_BEFORE.shortString() : "-D",
                                image(n.path("before"))
                            });
                }
                if (!n.path("after").isNull()) {
                    changes.add(
                            new String[] {op.equals("u") ? "+U" : "+I", image(n.path("after"))});
                }
                for (String[] c : changes) {
                    String[] idAndValue = c[1].split("#", 2);
                    json.apply(table, c[0], Long.parseLong(idAndValue[0]), idAndValue[1]);
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static String image(JsonNode row) {
        return row.path("id").asLong()
                + "#"
                + row.path("v").asInt()
                + "|"
                + row.path("name").asText();
    }
}

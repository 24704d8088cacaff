package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The no-values rule: rows holding a marker string are streamed with DEBUG logging on for
 * io.capstan, the job is failed once on purpose, and the marker appears in the output but never in
 * any captured log line or any logged exception's text (messages, causes, stack traces).
 */
class ValuesStayOutOfLogsIT {

    private static final String MARKER = "ZZMARKER7Q41";

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    /** Keeps every log event's formatted message and thrown stack trace. */
    static final class Capture extends AbstractAppender {
        final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();

        Capture() {
            super("rule1-capture", null, null, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            StringBuilder sb =
                    new StringBuilder(event.getLoggerName())
                            .append(' ')
                            .append(event.getMessage().getFormattedMessage());
            if (event.getThrown() != null) {
                StringWriter trace = new StringWriter();
                event.getThrown().printStackTrace(new PrintWriter(trace));
                sb.append('\n').append(trace);
            }
            lines.add(sb.toString());
        }
    }

    private final Capture capture = new Capture();

    @BeforeEach
    void captureEverything() {
        capture.start();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        config.getRootLogger().addAppender(capture, Level.ALL, null);
        for (LoggerConfig logger : config.getLoggers().values()) {
            logger.addAppender(capture, Level.ALL, null);
        }
        ctx.updateLoggers();
        Configurator.setLevel("io.capstan", Level.DEBUG);
        Configurator.setLevel("com.github.shyiko.mysql.binlog", Level.DEBUG);
    }

    @AfterEach
    void stopCapturing() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        config.getRootLogger().removeAppender(capture.getName());
        for (LoggerConfig logger : config.getLoggers().values()) {
            logger.removeAppender(capture.getName());
        }
        Configurator.setLevel("io.capstan", Level.INFO);
        Configurator.setLevel("com.github.shyiko.mysql.binlog", Level.WARN);
        ctx.updateLoggers();
        capture.stop();
    }

    @Test
    void theMarkerNeverReachesLogsOrExceptions() throws Exception {
        DB.execute(Workload.createTable("secrets"));
        String start = DB.server().gtidExecuted();
        FailAtCounts.arm(List.of(150L));

        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(
                env,
                SourceJobs.source(
                        DB, StartupOptions.gtidSet(start), new JsonDebeziumDeserializer()),
                sinkDir);
        JobClient job = env.executeAsync("rule-1");

        Workload w = new Workload(DB, MARKER);
        w.insert("secrets", 1, 200, 20);
        w.bumpVersion("secrets", 1, 100, 10);
        w.delete("secrets", 151, 200, 50);
        int expected = w.expected().size();
        SourceJobs.await(
                "all changes committed",
                Duration.ofMinutes(2),
                () -> SourceJobs.committedCount(sinkDir) >= expected);
        job.cancel().get();

        assertThat(FailAtCounts.fired()).isEqualTo(1);
        assertThat(SourceJobs.committed(sinkDir)).allMatch(line -> line.contains(MARKER));
        // The capture works: it saw the connector's own DEBUG/INFO lines and the injected failure.
        assertThat(capture.lines).anyMatch(l -> l.startsWith("io.capstan"));
        assertThat(capture.lines).anyMatch(l -> l.contains("injected failure"));
        assertThat(capture.lines).noneMatch(l -> l.contains(MARKER));
    }

    /**
     * The same for the snapshot and its handoff: rows whose payload holds the marker and whose keys
     * (so also the chunk boundaries, which travel in splits, events and state) start with a marker
     * number, read in small chunks with one injected failure, then streamed.
     */
    @Test
    void snapshotRowsKeysAndChunkBoundariesNeverReachLogsOrExceptions() throws Exception {
        String keyMarker = "987654321";
        DB.execute(Workload.createTable("snap_secrets"));
        StringBuilder sql = new StringBuilder("INSERT INTO snap_secrets VALUES ");
        for (int i = 0; i < 300; i++) {
            sql.append(i == 0 ? "(" : ", (")
                    .append(keyMarker)
                    .append(String.format("%03d", i))
                    .append(", ")
                    .append(i)
                    .append(", 1, '")
                    .append(MARKER)
                    .append("')");
        }
        DB.execute(sql.toString());
        FailAtCounts.arm(List.of(120L));

        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(
                env,
                io.capstan.flink.mysql.CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .tableList(DB.name() + ".snap_secrets")
                        .serverId(4711)
                        .startupOptions(StartupOptions.initial())
                        .chunkSize(40)
                        .deserializer(new JsonDebeziumDeserializer())
                        .build(),
                sinkDir);
        JobClient job = env.executeAsync("rule-1-snapshot");
        SourceJobs.await(
                "the snapshot committed",
                Duration.ofMinutes(2),
                () -> SourceJobs.committedCount(sinkDir) >= 300);
        DB.execute("UPDATE snap_secrets SET ver = 2 WHERE seq < 10");
        SourceJobs.await(
                "the stream committed",
                Duration.ofMinutes(2),
                () -> SourceJobs.committedCount(sinkDir) >= 310);
        job.cancel().get();

        assertThat(FailAtCounts.fired()).isEqualTo(1);
        assertThat(SourceJobs.committed(sinkDir)).allMatch(line -> line.contains(MARKER));
        assertThat(capture.lines).anyMatch(l -> l.contains("CapstanEnumerator"));
        assertThat(capture.lines).noneMatch(l -> l.contains(MARKER));
        assertThat(capture.lines).noneMatch(l -> l.contains(keyMarker));
    }
}

package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Source and pipeline of the snapshot ITs: source (parallelism N) → failure map → two-phase sink.
 */
final class SnapshotJobs {
    private SnapshotJobs() {}

    static CapstanMySqlSourceBuilder<String> source(MySqlTestDatabase db, StartupOptions start) {
        return CapstanMySqlSource.<String>builder()
                .hostname(db.server().host())
                .port(db.server().port())
                .username(db.server().connectorAccount().username())
                .password(db.server().connectorAccount().password())
                .databaseList(db.name())
                .serverId(ThreadLocalRandom.current().nextLong(200_000, 300_000))
                .startupOptions(start)
                .deserializer(new SnapshotLineDeserializer())
                .heartbeatInterval(Duration.ofSeconds(1));
    }

    static void pipeline(
            StreamExecutionEnvironment env,
            CapstanMySqlSource<String> source,
            Path sinkDir,
            int parallelism) {
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .setParallelism(parallelism)
                .uid("capstan-source")
                .map(new FailInPhases())
                .setParallelism(1)
                .uid("fail-in-phases")
                .sinkTo(new TwoPhaseFileSink(sinkDir))
                .setParallelism(1)
                .uid("two-phase-sink");
    }
}

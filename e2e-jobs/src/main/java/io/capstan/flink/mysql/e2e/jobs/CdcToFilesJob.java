package io.capstan.flink.mysql.e2e.jobs;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.SnapshotOptions;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The connector on a real cluster: {@link CapstanMySqlSource} with {@link VersionedRowLines} into
 * Flink's exactly-once {@link FileSink} (files become visible only when the checkpoint that covers
 * them completes). The source's records are rebalanced so that every sink subtask (and so every
 * TaskManager) writes part of the output.
 *
 * <p>Arguments: {@code --hostname H --port P --username U --password-file FILE --database DB
 * --tables REGEX[,REGEX] --start MODE --server-id N --output DIR [--checkpoint-interval MS]
 * [--chunk-size ROWS] [--scan-newly-added-table true|false] [--snapshot-max-rows-per-second ROWS]}
 * where MODE is {@code latest}, {@code earliest}, {@code initial}, {@code snapshot}, {@code
 * gtid:SET} or {@code timestamp:EPOCH_MILLIS}. The password is read from a file (not an argument),
 * so that it is in neither the REST request nor any log line. {@code --scan-newly-added-table true}
 * lets a restore from a savepoint snapshot tables its longer {@code --tables} list adds (scan mode
 * {@code initial} only). {@code --snapshot-max-rows-per-second} throttles the snapshot (0, the
 * default: no limit), so that a test can make it last long enough to be interrupted.
 */
public final class CdcToFilesJob {

    private CdcToFilesJob() {}

    public static void main(String[] args) throws Exception {
        JobArgs arguments = JobArgs.parse(args);
        long checkpointInterval = arguments.longValue("checkpoint-interval", 500);

        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(arguments.required("hostname"))
                        .port((int) arguments.longValue("port", 3306))
                        .username(arguments.required("username"))
                        .password(readPassword(Path.of(arguments.required("password-file"))))
                        .databaseList(arguments.required("database"))
                        .tableList(arguments.required("tables").split(","))
                        .serverId(arguments.longValue("server-id", 5400))
                        .startupOptions(startupOptions(arguments.required("start")))
                        .chunkSize(
                                (int)
                                        arguments.longValue(
                                                "chunk-size", SnapshotOptions.DEFAULT_CHUNK_SIZE))
                        .scanNewlyAddedTableEnabled(
                                arguments.booleanValue("scan-newly-added-table", false))
                        .snapshotMaxRowsPerSecond(
                                arguments.longValue("snapshot-max-rows-per-second", 0))
                        .deserializer(new VersionedRowLines())
                        .build();
        FileSink<String> sink =
                FileSink.forRowFormat(
                                new org.apache.flink.core.fs.Path(arguments.required("output")),
                                new SimpleStringEncoder<String>())
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(OnCheckpointRollingPolicy.build())
                        .build();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(checkpointInterval, CheckpointingMode.EXACTLY_ONCE);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "mysql-changes")
                .uid("mysql-changes")
                .rebalance()
                .sinkTo(sink)
                .uid("change-files");
        env.execute("capstan-e2e cdc to files");
    }

    static StartupOptions startupOptions(String mode) {
        if (mode.startsWith("gtid:")) {
            return StartupOptions.gtidSet(mode.substring("gtid:".length()));
        }
        if (mode.startsWith("timestamp:")) {
            return StartupOptions.timestamp(Long.parseLong(mode.substring("timestamp:".length())));
        }
        return switch (mode) {
            case "latest" -> StartupOptions.latest();
            case "earliest" -> StartupOptions.earliest();
            case "initial" -> StartupOptions.initial();
            case "snapshot" -> StartupOptions.snapshot();
            default ->
                    throw new IllegalArgumentException(
                            "Job argument --start must be latest, earliest, initial, snapshot, gtid:SET or"
                                    + " timestamp:EPOCH_MILLIS");
        };
    }

    private static String readPassword(Path file) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(
                    "Job argument --password-file: file is not readable");
        }
        return Files.readString(file).strip();
    }
}

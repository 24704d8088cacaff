package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs {@link CapstanMySqlSource} jobs in a MiniCluster inside this JVM: source, RowData
 * deserializer (as the SQL connector uses it), and {@link ProbeSink}. One MiniCluster serves every
 * Flink phase of a benchmark run.
 */
final class FlinkJobs implements AutoCloseable {

    static final int SLOTS = 2;
    private static final long CHECKPOINT_INTERVAL_MILLIS = 2000;

    private final MiniCluster cluster;

    private FlinkJobs(MiniCluster cluster) {
        this.cluster = cluster;
    }

    static FlinkJobs start() throws Exception {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("64m"));
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(SLOTS)
                                .build());
        cluster.start();
        return new FlinkJobs(cluster);
    }

    /**
     * The job's latest completed checkpoint: total state size in bytes, or -1 if none completed.
     */
    static final class CheckpointSize {
        final long stateBytes;
        final long checkpoints;

        CheckpointSize(long stateBytes, long checkpoints) {
            this.stateBytes = stateBytes;
            this.checkpoints = checkpoints;
        }
    }

    /**
     * A running job of the source over {@code table}, from {@code startup}, parallelism {@code
     * parallelism}.
     */
    JobID submit(
            MySqlConnectionConfig c,
            BenchTable table,
            TableSchema schema,
            StartupOptions startup,
            int parallelism)
            throws Exception {
        return submit(c, table, schema, startup, parallelism, 0);
    }

    /**
     * As {@link #submit(MySqlConnectionConfig, BenchTable, TableSchema, StartupOptions, int)}, with
     * {@code scan.snapshot.max-rows-per-second} set to {@code snapshotMaxRowsPerSecond} for the
     * whole job (0: the option is left unset, no limit).
     */
    JobID submit(
            MySqlConnectionConfig c,
            BenchTable table,
            TableSchema schema,
            StartupOptions startup,
            int parallelism,
            long snapshotMaxRowsPerSecond)
            throws Exception {
        ProbeSink.RECORDS.get(); // loads the class (and its statics) in this class loader first
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        env.enableCheckpointing(CHECKPOINT_INTERVAL_MILLIS);
        CapstanMySqlSourceBuilder<RowData> builder =
                CapstanMySqlSource.<RowData>builder()
                        .hostname(c.hostname())
                        .port(c.port())
                        .username(c.username())
                        .password(c.password())
                        .sslMode(c.sslMode())
                        .tableList(table.id().database() + "\\." + table.id().table())
                        .serverId(BinlogReads.nextServerId())
                        .startupOptions(startup)
                        .deserializer(
                                new RowDataDeserializer(InternalTypeInfo.of(schema.rowType())));
        if (snapshotMaxRowsPerSecond > 0) {
            builder.snapshotMaxRowsPerSecond(snapshotMaxRowsPerSecond);
        }
        CapstanMySqlSource<RowData> source = builder.build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "capstan-source")
                .sinkTo(new ProbeSink())
                .name("probe-sink");
        JobGraph graph = env.getStreamGraph().getJobGraph();
        JobID id = cluster.submitJob(graph).get().getJobID();
        // a small bounded job may already be done when first looked at
        waitFor(
                () -> status(id) == JobStatus.RUNNING || status(id).isGloballyTerminalState(),
                Duration.ofMinutes(2),
                "job running");
        return id;
    }

    JobStatus status(JobID id) {
        try {
            return cluster.getJobStatus(id).get();
        } catch (Exception e) {
            throw new IllegalStateException("job status unavailable", e);
        }
    }

    /** Waits for a checkpoint that completes after this call, then reads its size. */
    CheckpointSize nextCheckpointSize(JobID id) throws Exception {
        long before = completedCheckpoints(id);
        long deadline =
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CHECKPOINT_INTERVAL_MILLIS * 5);
        while (completedCheckpoints(id) <= before && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        CheckpointStatsSnapshot stats = graph(id).getCheckpointStatsSnapshot();
        CompletedCheckpointStats latest =
                stats == null ? null : stats.getHistory().getLatestCompletedCheckpoint();
        return new CheckpointSize(
                latest == null ? -1 : latest.getStateSize(), completedCheckpoints(id));
    }

    private long completedCheckpoints(JobID id) throws Exception {
        CheckpointStatsSnapshot stats = graph(id).getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }

    private AccessExecutionGraph graph(JobID id) throws Exception {
        return cluster.getExecutionGraph(id).get(30, TimeUnit.SECONDS);
    }

    void cancel(JobID id) throws Exception {
        cluster.cancelJob(id).get(30, TimeUnit.SECONDS);
        waitFor(() -> status(id).isGloballyTerminalState(), Duration.ofMinutes(1), "job cancelled");
    }

    /** Throws if the job failed, so a broken source is not mistaken for a slow one. */
    void requireRunning(JobID id) {
        JobStatus s = status(id);
        if (s.isGloballyTerminalState()) {
            String cause = "";
            try {
                cause =
                        cluster.requestJobResult(id)
                                .get(10, TimeUnit.SECONDS)
                                .getSerializedThrowable()
                                .map(
                                        t ->
                                                ": "
                                                        + t.getOriginalErrorClassName()
                                                        + " "
                                                        + t.getMessage())
                                .orElse("");
            } catch (Exception ignored) {
                // the status is enough
            }
            throw new IllegalStateException("the source job ended as " + s + cause);
        }
    }

    static void waitFor(BooleanSupplier condition, Duration timeout, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "timed out after " + timeout + " waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}

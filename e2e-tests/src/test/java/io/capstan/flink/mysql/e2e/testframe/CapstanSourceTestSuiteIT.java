package io.capstan.flink.mysql.e2e.testframe;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.environment.TestEnvironment;
import org.apache.flink.connector.testframe.environment.TestEnvironmentSettings;
import org.apache.flink.connector.testframe.external.source.DataStreamSourceExternalContext;
import org.apache.flink.connector.testframe.external.source.TestingSourceSettings;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestExternalSystem;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SourceTestSuiteBase;
import org.apache.flink.connector.testframe.utils.MetricQuerier;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.metrics.MetricNames;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.messages.job.JobDetailsInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink's own source test suite ({@code flink-connector-test-utils}) against capstan-mysql on the
 * harness's real MySQL and a MiniCluster. See docs/testing.md ("Flink's connector test suite") for
 * which cases apply and why.
 */
// The framework waits without timeouts (e.g. for records that never come): bound every case.
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
@Tag(FlinkLines.EVERY_LINE)
class CapstanSourceTestSuiteIT extends SourceTestSuiteBase<String> {

    @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestExternalSystem MySqlExternalSystem mysql = new MySqlExternalSystem();

    @TestContext
    CapstanSourceExternalContextFactory binlogFromCaseStart =
            new CapstanSourceExternalContextFactory(mysql, UnboundedStart.BINLOG_FROM_CASE_START);

    @TestContext
    CapstanSourceExternalContextFactory initial =
            new CapstanSourceExternalContextFactory(mysql, UnboundedStart.INITIAL);

    @TestSemantics CheckpointingMode[] semantics = {CheckpointingMode.EXACTLY_ONCE};

    /**
     * Not applicable as written: the framework's case runs the unbounded source at parallelism 4
     * and then waits, without a timeout, until all 4 source subtasks are RUNNING. capstan-mysql has
     * exactly one binlog split; the 3 readers that can never get it are sent "no more splits" and
     * FINISH (by design: the same enumerator serves the bounded modes, where a reader without a
     * split must end). So the framework waits forever. The same check of {@code numRecordsIn} runs
     * in {@link #testSourceMetricsWithOneBinlogSplit}.
     */
    @Override
    @TestTemplate
    @Disabled(
            "waits for all 4 source subtasks RUNNING; ours has one binlog split and the 3 idle"
                    + " readers FINISH, so it never returns: see testSourceMetricsWithOneBinlogSplit")
    public void testSourceMetrics(
            TestEnvironment testEnv,
            DataStreamSourceExternalContext<String> externalContext,
            CheckpointingMode semantic)
            throws Exception {
        super.testSourceMetrics(testEnv, externalContext, semantic);
    }

    /**
     * The framework's {@code testSourceMetrics}, except that it waits for the source subtasks to be
     * RUNNING or FINISHED (the readers without a split) with at least one RUNNING: 4 tables written
     * before the job starts, read at parallelism 4 into a discarding sink, and the source's {@code
     * numRecordsIn} summed over its subtasks must reach exactly the number of rows written (one
     * record per row change, nothing counted twice).
     */
    @TestTemplate
    @DisplayName("Test source metrics (idle readers finish)")
    public void testSourceMetricsWithOneBinlogSplit(
            TestEnvironment testEnv,
            DataStreamSourceExternalContext<String> externalContext,
            CheckpointingMode semantic)
            throws Exception {
        // In the initial context the readers that read snapshot chunks finish after the handoff,
        // and the REST aggregate over subtasks no longer includes finished ones (measured: the
        // sum stayed below the number of chunks read), so the total is not observable there.
        Assumptions.assumeTrue(
                ((CapstanSourceExternalContext) externalContext).unboundedStart()
                        == UnboundedStart.BINLOG_FROM_CASE_START,
                "numRecordsIn of finished snapshot readers is not in the REST aggregate");
        TestingSourceSettings settings =
                TestingSourceSettings.builder()
                        .setBoundedness(Boundedness.CONTINUOUS_UNBOUNDED)
                        .setCheckpointingMode(semantic)
                        .build();
        int splits = 4;
        List<List<String>> written = new ArrayList<>();
        for (int i = 0; i < splits; i++) {
            written.add(generateAndWriteTestData(i, externalContext, settings));
        }
        long total = written.stream().mapToLong(List::size).sum();
        String sourceName = "metricTestSource" + written.hashCode();
        StreamExecutionEnvironment env =
                testEnv.createExecutionEnvironment(
                        TestEnvironmentSettings.builder()
                                .setConnectorJarPaths(externalContext.getConnectorJarPaths())
                                .build());
        env.fromSource(
                        tryCreateSource(externalContext, settings),
                        WatermarkStrategy.noWatermarks(),
                        sourceName)
                .setParallelism(splits)
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("Metrics Test");
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            RestClient rest = new RestClient(new Configuration(), executor);
            awaitCondition(
                    () -> "source subtasks running or finished, one running",
                    Duration.ofMinutes(1),
                    () ->
                            runningOrIdleFinished(
                                    MetricQuerier.getJobDetails(
                                            rest, testEnv.getRestEndpoint(), job.getJobID())));
            MetricQuerier metrics = new MetricQuerier(new Configuration());
            Object[] last = {null};
            awaitCondition(
                    () ->
                            "numRecordsIn == "
                                    + total
                                    + ", last seen "
                                    + last[0]
                                    + " with transactionsProcessed "
                                    + sourceMetric(
                                            metrics,
                                            testEnv,
                                            job.getJobID(),
                                            sourceName,
                                            "transactionsProcessed"),
                    Duration.ofMinutes(1),
                    () -> {
                        last[0] =
                                sourceMetric(
                                        metrics,
                                        testEnv,
                                        job.getJobID(),
                                        sourceName,
                                        MetricNames.IO_NUM_RECORDS_IN);
                        return last[0] instanceof Double && (Double) last[0] == total;
                    });
            // Nothing more arrives: the sum stays exact after another metric refresh.
            Thread.sleep(1_500);
            assertThat(
                            sourceMetric(
                                    metrics,
                                    testEnv,
                                    job.getJobID(),
                                    sourceName,
                                    MetricNames.IO_NUM_RECORDS_IN))
                    .isEqualTo((double) total);
        } finally {
            job.cancel().get();
            executor.shutdownNow();
        }
    }

    /** The sum over the source's subtasks, or the exception while it is not reported yet. */
    private static Object sourceMetric(
            MetricQuerier metrics,
            TestEnvironment testEnv,
            JobID job,
            String sourceName,
            String metric) {
        try {
            // The operator's own metric only: the per-table groups (database.<db>.table.<t>,
            // mysql-cdc's names) hold a numRecordsIn too, and the querier would take any id
            // ending in the metric's name.
            return metrics.getAggregatedMetricsByRestAPI(
                    testEnv.getRestEndpoint(), job, sourceName, metric, sourceName + "." + metric);
        } catch (Exception | AssertionError e) {
            return e.toString();
        }
    }

    private static boolean runningOrIdleFinished(JobDetailsInfo details) {
        for (JobDetailsInfo.JobVertexDetailsInfo vertex : details.getJobVertexInfos()) {
            int running = vertex.getTasksPerState().getOrDefault(ExecutionState.RUNNING, 0);
            int finished = vertex.getTasksPerState().getOrDefault(ExecutionState.FINISHED, 0);
            if (running < 1 || running + finished != vertex.getParallelism()) {
                return false;
            }
        }
        return !details.getJobVertexInfos().isEmpty();
    }

    private static void awaitCondition(
            java.util.function.Supplier<String> what, Duration timeout, Condition condition)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out after " + timeout + " waiting for " + what.get());
            }
            Thread.sleep(200);
        }
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }
}

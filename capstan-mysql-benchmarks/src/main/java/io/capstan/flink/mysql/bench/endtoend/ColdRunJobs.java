package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.bench.coldrun.ColdRunClock;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.util.concurrent.TimeUnit;

/**
 * The Flink programs of the cold-start benchmark, each as a user writes it: {@code
 * StreamExecutionEnvironment.getExecutionEnvironment()} (a local MiniCluster, started by {@code
 * executeAsync}), the source, and a sink that counts records ({@link ColdRunClock#records}).
 * Flink's defaults otherwise (object reuse off, no checkpointing for the bounded jobs, checkpoints
 * every 2 s for the binlog job as a streaming job has them).
 */
final class ColdRunJobs {

    private static final long TIMEOUT_MINUTES = 30;

    private ColdRunJobs() {}

    /** Flink's own floor: a trivial bounded source of {@code count} numbers. */
    static void floor(long count) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        run(env, new NumberSequenceSource(1, count), "floor");
    }

    /** The snapshot of {@code table} at {@code parallelism}, bounded. */
    static void snapshot(
            MySqlConnectionConfig c, BenchTable table, int parallelism, boolean objectReuse)
            throws Exception {
        StreamExecutionEnvironment env = environment(objectReuse);
        env.setParallelism(parallelism);
        run(env, source(c, table, StartupOptions.snapshot(), 7200), "capstan-snapshot");
    }

    /** The binary log from {@code start} until the expected records arrived, then cancelled. */
    static void binlog(
            MySqlConnectionConfig c,
            BenchTable table,
            StartupOptions start,
            int serverId,
            boolean objectReuse)
            throws Exception {
        StreamExecutionEnvironment env = environment(objectReuse);
        env.setParallelism(1);
        env.enableCheckpointing(2000);
        run(env, source(c, table, start, serverId), "capstan-binlog");
    }

    /**
     * A local environment; {@code objectReuse}: Flink's {@code pipeline.object-reuse}, safe with
     * capstan-mysql's deserializers (each record a new object).
     */
    private static StreamExecutionEnvironment environment(boolean objectReuse) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (objectReuse) {
            env.getConfig().enableObjectReuse();
        }
        return env;
    }

    private static CapstanMySqlSource<RowData> source(
            MySqlConnectionConfig c, BenchTable table, StartupOptions startup, int serverId) {
        return CapstanMySqlSource.<RowData>builder()
                .hostname(c.hostname())
                .port(c.port())
                .username(c.username())
                .password(c.password())
                .sslMode(c.sslMode())
                .tableList(table.id().database() + "\\." + table.id().table())
                .serverId(serverId)
                .startupOptions(startup)
                .deserializer(new RowDataDeserializer(InternalTypeInfo.of(declaredRowType())))
                .build();
    }

    /** The row type a user declares for {@code orders} (docs/datastream.md's type table). */
    static RowType declaredRowType() {
        return (RowType)
                DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                DataTypes.FIELD("qty", DataTypes.INT().notNull()),
                                DataTypes.FIELD("customer", DataTypes.STRING().notNull()),
                                DataTypes.FIELD("amount", DataTypes.DECIMAL(12, 2).notNull()),
                                DataTypes.FIELD("created_at", DataTypes.TIMESTAMP(3).notNull()),
                                DataTypes.FIELD("updated_at", DataTypes.TIMESTAMP_LTZ(3).notNull()),
                                DataTypes.FIELD("status", DataTypes.TINYINT().notNull()),
                                DataTypes.FIELD("score", DataTypes.DOUBLE().notNull()),
                                DataTypes.FIELD("note", DataTypes.STRING()),
                                DataTypes.FIELD("attrs", DataTypes.STRING()))
                        .getLogicalType();
    }

    private static <T> void run(StreamExecutionEnvironment env, Source<T, ?, ?> source, String name)
            throws Exception {
        env.fromSource(source, WatermarkStrategy.noWatermarks(), name)
                .sinkTo(new CountingSink<>())
                .name("counting-sink");
        JobClient job = env.executeAsync(name);
        ColdRunClock.jobAccepted();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
        while (!ColdRunClock.complete()) {
            JobStatus status = job.getJobStatus().get(30, TimeUnit.SECONDS);
            if (status.isGloballyTerminalState() && !ColdRunClock.complete()) {
                job.getJobExecutionResult().get(30, TimeUnit.SECONDS); // throws the job's failure
                throw new IllegalStateException(
                        "the job ended as "
                                + status
                                + " after "
                                + ColdRunClock.records()
                                + " records");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "no complete run within " + TIMEOUT_MINUTES + " min");
            }
            Thread.sleep(5);
        }
        JobStatus status = job.getJobStatus().get(30, TimeUnit.SECONDS);
        if (!status.isGloballyTerminalState()) {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
        job.getJobExecutionResult().handle((r, e) -> null).get(1, TimeUnit.MINUTES);
    }

    /** Counts every record; nothing else. */
    static final class CountingSink<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(T element, Context context) {
                    ColdRunClock.records(1);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}

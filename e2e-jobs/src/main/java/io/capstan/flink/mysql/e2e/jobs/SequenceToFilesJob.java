package io.capstan.flink.mysql.e2e.jobs;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;

/**
 * The trivial job that proves the real-cluster path: a rate-limited bounded sequence 0..count-1,
 * keyed into {@link #KEYS} groups whose running count lives in checkpointed keyed state, written by
 * the exactly-once {@link FileSink}. Each output line is {@code value,key,countInKey}. After any
 * number of failures, exactly-once means every value appears once and each key's counts are exactly
 * 1..n (a lost or replayed record or state update shows as a gap or a duplicate).
 *
 * <p>Arguments: {@code --output DIR --count N --rate RECORDS_PER_SECOND --checkpoint-interval MS}.
 */
public final class SequenceToFilesJob {

    public static final int KEYS = 4;

    private SequenceToFilesJob() {}

    public static void main(String[] args) throws Exception {
        JobArgs arguments = JobArgs.parse(args);
        String output = arguments.required("output");
        long count = arguments.longValue("count", 3_000);
        double rate = arguments.longValue("rate", 200);
        long checkpointInterval = arguments.longValue("checkpoint-interval", 500);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(checkpointInterval, CheckpointingMode.EXACTLY_ONCE);

        DataGeneratorSource<Long> source =
                new DataGeneratorSource<>(
                        index -> index, count, RateLimiterStrategy.perSecond(rate), Types.LONG);
        FileSink<String> sink =
                FileSink.forRowFormat(new Path(output), new SimpleStringEncoder<String>())
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(OnCheckpointRollingPolicy.build())
                        .build();

        env.fromSource(source, WatermarkStrategy.noWatermarks(), "sequence")
                .uid("sequence")
                .keyBy(value -> value % KEYS, Types.LONG)
                .map(new CountPerKey())
                .uid("count-per-key")
                .sinkTo(sink)
                .uid("files");
        env.execute("capstan-e2e sequence to files");
    }

    /** Numbers the values of each key with a running count kept in keyed state. */
    static final class CountPerKey extends RichMapFunction<Long, String> {
        private transient ValueState<Long> seen;

        @Override
        public void open(OpenContext openContext) {
            seen = getRuntimeContext().getState(new ValueStateDescriptor<>("seen", Types.LONG));
        }

        @Override
        public String map(Long value) throws Exception {
            Long previous = seen.value();
            long next = previous == null ? 1 : previous + 1;
            seen.update(next);
            return value + "," + (value % KEYS) + "," + next;
        }
    }
}

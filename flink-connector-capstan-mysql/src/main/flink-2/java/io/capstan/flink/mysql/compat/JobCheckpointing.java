package io.capstan.flink.mysql.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.RichSourceReaderContext;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;

import javax.annotation.Nullable;

/**
 * The job's checkpointing as a source reader sees it, on the Flink 2.x line: Flink 2 hands readers
 * a {@link RichSourceReaderContext} whose runtime context carries the job's configuration.
 *
 * <p>One of the per-line adapter classes: the same class, with the same members, is in {@code
 * src/main/flink-1.20/java}; the build compiles one of the two with the shared sources.
 *
 * @param enabled whether the job checkpoints
 * @param unaligned whether its checkpoints may be unaligned
 */
@Internal
public record JobCheckpointing(boolean enabled, boolean unaligned) {

    /** The job's checkpointing, or null when the context does not show it. */
    @Nullable
    public static JobCheckpointing of(SourceReaderContext context) {
        if (context instanceof RichSourceReaderContext rich
                && rich.getRuntimeContext() instanceof StreamingRuntimeContext runtime) {
            Configuration job = runtime.getJobConfiguration();
            return new JobCheckpointing(
                    CheckpointingOptions.isCheckpointingEnabled(job),
                    CheckpointingOptions.isUnalignedCheckpointEnabled(job));
        }
        return null;
    }
}

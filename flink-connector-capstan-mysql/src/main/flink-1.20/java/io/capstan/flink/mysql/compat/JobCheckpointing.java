package io.capstan.flink.mysql.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;

import javax.annotation.Nullable;

import java.lang.reflect.Field;

/**
 * The job's checkpointing as a source reader sees it, on the Flink 1.20 line.
 *
 * <p>Flink 1.20's reader context has no runtime context (Flink 2 added {@code
 * RichSourceReaderContext}); it is an inner class of the {@code SourceOperator} that runs the
 * reader, and that operator's stream config says how the job checkpoints. So the operator is read
 * from the context's enclosing-instance field, once, when the reader starts (never per record). Any
 * other context (a test's, or a Flink whose context has no such field) shows nothing: null, as on
 * 2.x for a context that is not rich.
 *
 * <p>One of the per-line adapter classes: the same class, with the same members, is in {@code
 * src/main/flink-2/java}; the build compiles one of the two with the shared sources.
 *
 * @param enabled whether the job checkpoints
 * @param unaligned whether its checkpoints may be unaligned
 */
@Internal
public record JobCheckpointing(boolean enabled, boolean unaligned) {

    /** The job's checkpointing, or null when the context does not show it. */
    @Nullable
    public static JobCheckpointing of(SourceReaderContext context) {
        AbstractStreamOperator<?> operator = enclosingOperator(context);
        if (operator == null) {
            return null;
        }
        StreamConfig config = operator.getOperatorConfig();
        boolean enabled = config.isCheckpointingEnabled();
        // as Flink 2's CheckpointingOptions.isUnalignedCheckpointEnabled: exactly-once only
        return new JobCheckpointing(
                enabled,
                enabled
                        && config.isExactlyOnceCheckpointMode()
                        && config.isUnalignedCheckpointsEnabled());
    }

    @Nullable
    private static AbstractStreamOperator<?> enclosingOperator(SourceReaderContext context) {
        for (Field field : context.getClass().getDeclaredFields()) {
            if (field.isSynthetic()
                    && AbstractStreamOperator.class.isAssignableFrom(field.getType())) {
                try {
                    field.setAccessible(true);
                    return (AbstractStreamOperator<?>) field.get(context);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // a Flink that forbids the access shows nothing: the caller's fallback applies
                    return null;
                }
            }
        }
        return null;
    }
}

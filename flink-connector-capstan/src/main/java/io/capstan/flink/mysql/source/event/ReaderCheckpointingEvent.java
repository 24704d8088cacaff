package io.capstan.flink.mysql.source.event;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader → enumerator, before the first split request: whether the job checkpoints (read from the
 * job configuration, which only the readers can see). Without checkpoints the enumerator hands out
 * the binlog split as soon as the last chunk is finished instead of waiting for one.
 */
@Internal
public final class ReaderCheckpointingEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final boolean checkpointingEnabled;

    public ReaderCheckpointingEvent(boolean checkpointingEnabled) {
        this.checkpointingEnabled = checkpointingEnabled;
    }

    public boolean checkpointingEnabled() {
        return checkpointingEnabled;
    }

    @Override
    public String toString() {
        return "ReaderCheckpointingEvent{enabled=" + checkpointingEnabled + "}";
    }
}

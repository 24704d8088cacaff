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
    private final boolean unalignedCheckpoints;

    public ReaderCheckpointingEvent(boolean checkpointingEnabled, boolean unalignedCheckpoints) {
        this.checkpointingEnabled = checkpointingEnabled;
        this.unalignedCheckpoints = unalignedCheckpoints;
    }

    public boolean checkpointingEnabled() {
        return checkpointingEnabled;
    }

    /** Whether checkpoints may be unaligned (barriers overtaking records). */
    public boolean unalignedCheckpoints() {
        return unalignedCheckpoints;
    }

    @Override
    public String toString() {
        return "ReaderCheckpointingEvent{enabled="
                + checkpointingEnabled
                + ", unaligned="
                + unalignedCheckpoints
                + "}";
    }
}

package io.capstan.flink.mysql.source.event;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import java.util.List;

/**
 * Enumerator → reader: the completions of these chunks (by split id) are in the enumerator's state,
 * so the reader may drop them from its own.
 */
@Internal
public final class ChunksAcknowledgedEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<String> splitIds;

    public ChunksAcknowledgedEvent(List<String> splitIds) {
        this.splitIds = List.copyOf(splitIds);
    }

    public List<String> splitIds() {
        return splitIds;
    }

    @Override
    public String toString() {
        return "ChunksAcknowledgedEvent{chunks=" + splitIds.size() + "}";
    }
}

package io.capstan.flink.mysql.source.event;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

import java.util.List;

/**
 * Reader → enumerator, right after a restore (before the reader registers and asks for splits): the
 * restored state holds these chunks unread, so they will be read again at a new G. A completion the
 * enumerator received for them after that checkpoint belongs to output that was rolled back, and is
 * dropped.
 */
@Internal
public final class ChunksReopenedEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<String> splitIds;

    public ChunksReopenedEvent(List<String> splitIds) {
        this.splitIds = List.copyOf(splitIds);
    }

    public List<String> splitIds() {
        return splitIds;
    }

    @Override
    public String toString() {
        return "ChunksReopenedEvent{chunks=" + splitIds.size() + "}";
    }
}

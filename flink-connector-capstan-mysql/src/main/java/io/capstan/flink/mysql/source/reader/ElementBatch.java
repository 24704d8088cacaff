package io.capstan.flink.mysql.source.reader;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * One fetch: elements of one split, each handed to the emitter on its own, and the splits this
 * fetch finishes (a chunk split finishes with its one element).
 */
final class ElementBatch implements RecordsWithSplitIds<SourceElement> {

    private final String splitId;
    private final List<SourceElement> elements;
    private final Set<String> finished;
    private boolean splitReturned;
    private int next;

    private ElementBatch(
            @Nullable String splitId, List<SourceElement> elements, Set<String> finished) {
        this.splitId = splitId;
        this.elements = elements;
        this.finished = finished;
    }

    static ElementBatch empty() {
        return new ElementBatch(null, Collections.emptyList(), Collections.emptySet());
    }

    static ElementBatch of(String splitId, List<SourceElement> elements) {
        return new ElementBatch(splitId, elements, Collections.emptySet());
    }

    /** No element: the split ends here (the binlog split stopped at a transaction boundary). */
    static ElementBatch finished(String splitId) {
        return new ElementBatch(splitId, Collections.emptyList(), Set.of(splitId));
    }

    /** A whole chunk: one element, and its split finishes with it. */
    static ElementBatch finishedChunk(String splitId, ChunkElement chunk) {
        return new ElementBatch(splitId, List.of(chunk), Set.of(splitId));
    }

    @Nullable
    @Override
    public String nextSplit() {
        if (splitReturned || splitId == null || elements.isEmpty()) {
            return null;
        }
        splitReturned = true;
        return splitId;
    }

    @Nullable
    @Override
    public SourceElement nextRecordFromSplit() {
        return next < elements.size() ? elements.get(next++) : null;
    }

    @Override
    public Set<String> finishedSplits() {
        return finished;
    }
}

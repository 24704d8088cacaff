package io.capstan.flink.mysql.source.split;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A unit of work the enumerator hands to a reader: one snapshot chunk, or the binlog split.
 * Immutable; progress lives in the reader's {@link CapstanSplitState}.
 *
 * <p>Code tells the kinds apart by {@link #kind()} and the typed accessors, never by casting.
 */
@Internal
public interface CapstanSplit extends SourceSplit {

    SplitKind kind();

    /**
     * This split as a binlog split.
     *
     * @throws IllegalStateException when it is of another kind
     */
    default BinlogSplit asBinlogSplit() {
        throw new IllegalStateException("split " + splitId() + " is a " + kind() + " split");
    }

    /**
     * This split as a snapshot chunk split.
     *
     * @throws IllegalStateException when it is of another kind
     */
    default SnapshotChunkSplit asSnapshotChunkSplit() {
        throw new IllegalStateException("split " + splitId() + " is a " + kind() + " split");
    }
}

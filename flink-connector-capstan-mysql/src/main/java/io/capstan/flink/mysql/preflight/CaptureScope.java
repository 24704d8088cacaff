package io.capstan.flink.mysql.preflight;

import org.apache.flink.annotation.Internal;

/**
 * What the source will read, which decides the privileges preflight requires: the snapshot's brief
 * table lock needs LOCK TABLES, streaming the binlog does not.
 */
@Internal
public enum CaptureScope {
    /**
     * Only the binlog: the stream-only start modes, and a binlog split resumed after a snapshot.
     */
    BINLOG_ONLY,
    /** Chunks of the tables' rows (under the brief lock), then the binlog. */
    SNAPSHOT_AND_BINLOG
}

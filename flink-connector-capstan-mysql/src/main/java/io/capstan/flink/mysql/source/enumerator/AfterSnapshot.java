package io.capstan.flink.mysql.source.enumerator;

/** What follows the snapshot, decided by the configured start mode. */
enum AfterSnapshot {
    /** {@code initial}: the binlog split, with the cursor gate over the finished chunks. */
    STREAM,
    /** {@code snapshot}: nothing; every reader ends. */
    END
}

package io.capstan.flink.mysql;

import org.apache.flink.annotation.PublicEvolving;

/** Where a new job (one not restored from a checkpoint or savepoint) begins reading. */
@PublicEvolving
public enum StartupMode {
    /** Backfill the existing rows, then stream the binlog." */
    INITIAL(true, false),
    /** Backfill the existing rows and finish (bounded)." */
    SNAPSHOT(true, true),
    /** Stream every transaction committed after the server's current {@code gtid_executed}. */
    LATEST(false, false),
    /** Stream every transaction not in a given GTID set. */
    GTID_SET(false, false),
    /** Stream everything the server still holds in its binary logs. */
    EARLIEST(false, false),
    /** Stream the transactions committed at or after a point in time. */
    TIMESTAMP(false, false);

    private final boolean readsSnapshot;
    private final boolean bounded;

    StartupMode(boolean readsSnapshot, boolean bounded) {
        this.readsSnapshot = readsSnapshot;
        this.bounded = bounded;
    }

    /** Whether this mode backfills existing rows before (or instead of) streaming. */
    public boolean readsSnapshot() {
        return readsSnapshot;
    }

    /** Whether a job in this mode finishes on its own. */
    public boolean isBounded() {
        return bounded;
    }
}

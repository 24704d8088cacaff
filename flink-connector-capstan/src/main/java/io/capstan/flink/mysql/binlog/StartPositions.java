package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.gtid.GtidSet;

/** API placeholder: the implementation follows in the next commit on this branch. */
public final class StartPositions {
    private StartPositions() {}

    /** The server's current {@code @@global.gtid_executed}: stream what commits from now on. */
    public static BinlogStartPosition latest(MySqlConnectionConfig connection) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Everything the server still holds ({@code @@global.gtid_purged} as processed set). */
    public static BinlogStartPosition earliest(MySqlConnectionConfig connection) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Every transaction not in {@code processed}, validated against the server. */
    public static BinlogStartPosition gtidSet(MySqlConnectionConfig connection, GtidSet processed) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /**
     * Earliest position; the streamer must be configured with {@link
     * BinlogStreamerConfig.Builder#startTimestampMillis} to drop earlier transactions.
     */
    public static BinlogStartPosition timestamp(MySqlConnectionConfig connection, long startTimestampMillis) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}

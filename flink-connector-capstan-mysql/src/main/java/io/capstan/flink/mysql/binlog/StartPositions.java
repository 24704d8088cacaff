package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

/**
 * Resolves a user's start choice to a validated {@link BinlogStartPosition} by reading the server's
 * {@link ServerGtidState} on a connection of its own (the source itself goes through the JDBC
 * proxy; this is for callers that hold only a connection config).
 */
@Internal
public final class StartPositions {

    private StartPositions() {}

    /** The server's current {@code @@global.gtid_executed}: stream what commits from now on. */
    public static BinlogStartPosition latest(MySqlConnectionConfig connection) {
        return ServerGtidState.read(connection).latest();
    }

    /** Everything the server still holds: {@code @@global.gtid_purged} as the processed set. */
    public static BinlogStartPosition earliest(MySqlConnectionConfig connection) {
        return ServerGtidState.read(connection).earliest();
    }

    /**
     * Every transaction not in {@code processed}. Halts with {@code source_identity_mismatch} when
     * the set holds transactions the server never executed, and with {@code data_gap} when the
     * server already purged transactions outside it.
     */
    public static BinlogStartPosition gtidSet(MySqlConnectionConfig connection, GtidSet processed) {
        return ServerGtidState.read(connection).resumeFrom(processed, connection.address());
    }

    /**
     * Halts (data_gap, source_identity_mismatch, gtid_mode_not_on) unless the server can serve
     * {@code position} exactly.
     *
     * @return the server's state the check read
     */
    public static ServerGtidState validate(
            MySqlConnectionConfig connection, BinlogStartPosition position) {
        ServerGtidState state = ServerGtidState.read(connection);
        ResumeCheck.check(position, state, connection.address());
        return state;
    }
}

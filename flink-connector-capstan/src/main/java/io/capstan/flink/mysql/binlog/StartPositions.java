package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.gtid.GtidSet;
import java.sql.SQLException;

/** TEMPORARY stand-in for branch binlog's StartPositions (replaced on merge). */
public final class StartPositions {
    private StartPositions() {}

    public static BinlogStartPosition latest(MySqlConnectionConfig c) throws SQLException {
        throw new UnsupportedOperationException("stand-in");
    }

    public static BinlogStartPosition earliest(MySqlConnectionConfig c) throws SQLException {
        throw new UnsupportedOperationException("stand-in");
    }

    public static BinlogStartPosition gtidSet(MySqlConnectionConfig c, GtidSet s) throws SQLException {
        throw new UnsupportedOperationException("stand-in");
    }

    public static BinlogStartPosition timestamp(MySqlConnectionConfig c, long millis) throws SQLException {
        throw new UnsupportedOperationException("stand-in");
    }
}

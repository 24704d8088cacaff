package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.binlog.BinlogStartPosition;
import io.capstan.flink.mysql.binlog.StartPositions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

/** Turns the user's {@link StartupOptions} into a validated binlog start position on the server. */
final class StartPositionResolver {

    private StartPositionResolver() {}

    static BinlogStartPosition resolve(MySqlConnectionConfig connection, StartupOptions options)
            throws Exception {
        switch (options.mode()) {
            case LATEST:
                return StartPositions.latest(connection);
            case EARLIEST:
                return StartPositions.earliest(connection);
            case GTID_SET:
                return StartPositions.gtidSet(connection, options.gtidSet());
            case TIMESTAMP:
                return StartPositions.timestamp(connection, options.timestampMillis());
            default:
                // initial/snapshot start the binlog from their chunks' positions, never here;
                // this guards a wrong wiring rather than user input.
                throw new CapstanHaltException(
                        HaltReason.INVALID_START_POSITION,
                        "startupOptions " + options + " have no binlog start position of their own"
                                + " (the snapshot modes start from their chunks' positions).");
        }
    }
}

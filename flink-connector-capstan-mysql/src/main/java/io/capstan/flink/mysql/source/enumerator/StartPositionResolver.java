package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.JdbcProxy;

import java.io.IOException;

/** Turns the user's {@link StartupOptions} into a validated binlog start position on the server. */
final class StartPositionResolver {

    private StartPositionResolver() {}

    /**
     * A specific offset on a server without GTIDs: the file and position as given (a position
     * before the file's first event is its start); a GTID set cannot name its transactions.
     */
    private static GtidSet positionStart(ServerGtidState server, StartupOptions options) {
        if (options.binlogFile() == null) {
            throw new CapstanHaltException(
                    HaltReason.INVALID_START_POSITION,
                    "scan.startup.specific-offset.gtid-set names GTIDs, but the server has gtid_mode "
                            + server.files().gtidMode()
                            + " (its transactions have no GTIDs). Remedy: start from a binlog"
                            + " file and position instead: 'scan.startup.specific-offset.file' and"
                            + " 'scan.startup.specific-offset.pos' (SHOW BINARY LOGS lists the"
                            + " files).");
        }
        return server.files()
                .axis()
                .before(
                        new BinlogPositionAxis.Position(
                                BinlogPositionAxis.fileIndex(options.binlogFile()),
                                Math.max(4, options.binlogPosition())));
    }

    /**
     * A file/position start on a MariaDB that runs on its GTIDs: the server translates it itself,
     * exactly, so the message says how rather than guessing a transaction boundary here.
     */
    private static CapstanHaltException mariaDbFilePosition(StartupOptions options) {
        return new CapstanHaltException(
                HaltReason.INVALID_START_POSITION,
                "scan.startup.specific-offset.file and .pos name a binlog position, but the MariaDB"
                        + " server has gtid_strict_mode = ON, so the job runs on MariaDB GTIDs and"
                        + " starts from a GTID position. Remedy: set"
                        + " 'scan.startup.specific-offset.gtid-set' (DataStream:"
                        + " StartupOptions.gtidSet) to the position MariaDB gives for it: SELECT"
                        + " BINLOG_GTID_POS('"
                        + options.binlogFile()
                        + "', "
                        + options.binlogPosition()
                        + ").");
    }

    static BinlogStartPosition resolve(JdbcProxy mysql, StartupOptions options) throws IOException {
        switch (options.mode()) {
            case LATEST:
                return mysql.gtidState().latest();
            case EARLIEST:
                return mysql.gtidState().earliest();
            case GTID_SET:
                ServerGtidState server = mysql.gtidState();
                if (server.positionMode()) {
                    return server.resumeFrom(positionStart(server, options), mysql.serverAddress());
                }
                if (server.mariaDb() && options.binlogFile() != null) {
                    throw mariaDbFilePosition(options);
                }
                // A file/position start is translated here, when a new job plans its split, and
                // never on restore (a restored split resumes from its own state).
                GtidSet start =
                        options.binlogFile() != null
                                ? mysql.gtidSetBefore(
                                        options.binlogFile(), options.binlogPosition())
                                : options.gtidSet();
                return server.resumeFrom(start, mysql.serverAddress());
            case TIMESTAMP:
                // StartupOptions refuses a negative timestamp. The streamer drops the transactions
                // committed before the timestamp.
                return mysql.gtidState().earliest();
            default:
                // initial/snapshot start the binlog from their chunks' positions, never here;
                // this guards a wrong wiring rather than user input.
                throw new CapstanHaltException(
                        HaltReason.INVALID_START_POSITION,
                        "startupOptions "
                                + options
                                + " have no binlog start position of their own"
                                + " (the snapshot modes start from their chunks' positions).");
        }
    }
}

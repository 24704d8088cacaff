package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;

import com.github.shyiko.mysql.binlog.BinaryLogClient;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Where a binlog reader of the benchmark starts: the server's {@code SHOW MASTER STATUS} at one
 * moment (the file and position where the next transaction will start, and on a server with GTIDs
 * the GTID set executed by then). The same point serves every reader on either kind of server
 * (docs/adr/0012): the Flink source starts at the file and position ({@link
 * StartupOptions#specificOffset}, which a server with GTIDs translates into the GTID set before
 * it), the plain client dumps by GTID set when there is one and by file and position otherwise, and
 * the streamer starts after the same transactions as a set of GTIDs or of binlog positions.
 */
final class BinlogStart {

    final String file;
    final long position;

    /** {@code Executed_Gtid_Set} at the position, or null on a server without GTIDs. */
    final String gtidSet;

    private final String serverUuid;

    private BinlogStart(String file, long position, String gtidSet, String serverUuid) {
        this.file = file;
        this.position = position;
        this.gtidSet = gtidSet;
        this.serverUuid = serverUuid;
    }

    /** The server's current end of the binary log, read in one statement with its GTID set. */
    static BinlogStart read(BenchServer server) {
        try (Connection c = server.openAdmin();
                Statement st = c.createStatement()) {
            String mode;
            String uuid;
            try (ResultSet rs =
                    st.executeQuery("SELECT @@global.gtid_mode, @@global.server_uuid")) {
                rs.next();
                mode = rs.getString(1);
                uuid = rs.getString(2);
            }
            try (ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next()) {
                    throw new IllegalStateException(
                            "SHOW MASTER STATUS returned no row on "
                                    + server
                                    + " (binary log off?)");
                }
                String executed = rs.getString("Executed_Gtid_Set");
                return new BinlogStart(
                        rs.getString("File"),
                        rs.getLong("Position"),
                        "ON".equalsIgnoreCase(mode)
                                ? ServerGtidState.parse(executed).toString()
                                : null,
                        uuid);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not read SHOW MASTER STATUS on " + server + " (" + e.getMessage() + ")",
                    e);
        }
    }

    /** The Flink source's start: this file and position, on either kind of server. */
    StartupOptions startupOptions() {
        return StartupOptions.specificOffset(file, position);
    }

    /**
     * The cold-run programs' start: {@code --gtid-before} on a server with GTIDs (a GTID-set start
     * needs no translation at the job's start), else {@code --binlog-file} and {@code
     * --binlog-pos}.
     */
    List<String> coldRunArguments() {
        return gtidSet != null
                ? List.of("--gtid-before", gtidSet)
                : List.of("--binlog-file", file, "--binlog-pos", Long.toString(position));
    }

    /** The plain client's start: by GTID set on a server with GTIDs, else by file and position. */
    void applyTo(BinaryLogClient client) {
        if (gtidSet != null) {
            client.setGtidSet(gtidSet);
        } else {
            client.setBinlogFilename(file);
            client.setBinlogPosition(position);
        }
    }

    /**
     * The streamer's start: after the transactions before this point, GTIDs or, without GTIDs,
     * binlog positions on the server's position axis.
     */
    BinlogStartPosition streamerStart() {
        return BinlogStartPosition.of(
                gtidSet != null
                        ? ServerGtidState.parse(gtidSet)
                        : BinlogPositionAxis.of(serverUuid)
                                .before(
                                        new BinlogPositionAxis.Position(
                                                BinlogPositionAxis.fileIndex(file), position)));
    }

    @Override
    public String toString() {
        return file + ":" + position + (gtidSet != null ? " (GTID set " + gtidSet + ")" : "");
    }
}

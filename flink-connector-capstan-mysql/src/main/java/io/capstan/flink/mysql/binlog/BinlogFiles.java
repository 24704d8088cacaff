package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A server's binary log as binlog positions see it, for a server without GTIDs (position mode,
 * docs/adr/0012): its {@code server_uuid} (whose {@link BinlogPositionAxis} the positions lie on),
 * its {@code gtid_mode}, the files it still lists ({@code SHOW BINARY LOGS}) and where it writes
 * now ({@code SHOW MASTER STATUS}). File names and offsets are positions, not row values: they may
 * be logged.
 *
 * @param serverUuid {@code @@global.server_uuid}, or MariaDB's server identity ({@link
 *     ServerDialect})
 * @param gtidMode {@code @@global.gtid_mode}, or {@link ServerDialect#MARIADB_GTID_MODE}
 * @param files the files the server lists, oldest first
 * @param current where the server writes its next event
 */
@Internal
public record BinlogFiles(String serverUuid, String gtidMode, List<File> files, Position current) {

    /** One listed binlog file: its name and its size in bytes. */
    public record File(String name, long size) {}

    public BinlogFiles {
        Objects.requireNonNull(serverUuid, "serverUuid");
        Objects.requireNonNull(gtidMode, "gtidMode");
        Objects.requireNonNull(current, "current");
        files = List.copyOf(files);
    }

    /** Whether the server writes GTIDs for every transaction: else the job runs on positions. */
    public boolean gtidsOn() {
        return ServerDialect.gtidsOn(gtidMode);
    }

    /**
     * How messages name the server: {@code server_uuid X}, or on MariaDB its server identity
     * ({@link ServerDialect}).
     */
    public String identity() {
        return (mariaDb() ? "server identity " : "server_uuid ") + serverUuid;
    }

    /** The remedy's way to follow a failover: GTIDs, in the server's own terms. */
    String followFailovers() {
        return mariaDb()
                ? "run the MariaDB servers with gtid_strict_mode = ON to follow failovers exactly"
                        + " (a job started then runs on MariaDB's GTIDs)"
                : "run the servers with gtid_mode = ON to follow failovers exactly";
    }

    private boolean mariaDb() {
        return ServerDialect.isMariaDb(gtidMode);
    }

    public BinlogPositionAxis axis() {
        return BinlogPositionAxis.of(serverUuid);
    }

    /** Every transaction the server has written so far: those before {@link #current()}. */
    public GtidSet written() {
        return axis().before(current);
    }

    /** The transactions no longer in a listed file: those before the first file's first event. */
    public GtidSet purged() {
        return files.isEmpty()
                ? written()
                : axis().before(new Position(BinlogPositionAxis.fileIndex(files.get(0).name()), 4));
    }

    /** The listed file of this index, or null when the server does not list it. */
    public String fileName(long fileIndex) {
        for (File f : files) {
            if (BinlogPositionAxis.fileIndex(f.name()) == fileIndex) {
                return f.name();
            }
        }
        return null;
    }

    /**
     * Halts unless a stream can start at {@code resume}: its file must be listed and the offset
     * within it. A file no longer listed was purged (or removed by {@code RESET MASTER}); an offset
     * past a file's end, or a file after the last one, is a position this server never wrote.
     *
     * @throws CapstanHaltException {@code data_gap} or {@code source_identity_mismatch}
     */
    public void requireServes(Position resume, String address) {
        String name = fileName(resume.fileIndex());
        long size = -1;
        for (File f : files) {
            if (f.name().equals(name)) {
                size = f.size();
            }
        }
        String at = describe(resume);
        if (name != null && resume.offset() <= size) {
            return;
        }
        boolean purgedFile =
                !files.isEmpty()
                        && resume.fileIndex() < BinlogPositionAxis.fileIndex(files.get(0).name());
        if (purgedFile) {
            throw new CapstanHaltException(
                    HaltReason.DATA_GAP,
                    "the stream must resume at binlog position "
                            + at
                            + " but "
                            + address
                            + " no longer lists that file (its oldest is "
                            + files.get(0).name()
                            + "): it was purged, so the changes in it are lost to the job. Remedy:"
                            + " start without state (a new snapshot), and keep binlogs longer"
                            + " (binlog_expire_logs_seconds) than the job may be down.");
        }
        throw new CapstanHaltException(
                HaltReason.SOURCE_IDENTITY_MISMATCH,
                "the stream must resume at binlog position "
                        + at
                        + " but "
                        + address
                        + " ("
                        + identity()
                        + ") never wrote that position (its files: "
                        + describeFiles()
                        + "): the binary log was reset (RESET MASTER) or the server rebuilt."
                        + " Without GTIDs a position is exact only on the log it came from."
                        + " Remedy: start without state (a new snapshot); "
                        + followFailovers()
                        + ".");
    }

    /** {@code file:offset}, as MySQL names positions. */
    public String describe(Position p) {
        String name = fileName(p.fileIndex());
        return (name != null ? name : "file #" + p.fileIndex()) + ":" + p.offset();
    }

    private String describeFiles() {
        if (files.isEmpty()) {
            return "none";
        }
        File last = files.get(files.size() - 1);
        return files.get(0).name() + " to " + last.name() + " (" + last.size() + " bytes)";
    }

    /**
     * Reads the files and the current position on an open connection ({@code REPLICATION CLIENT} is
     * needed, as for the binlog itself), for the server of this uuid and mode.
     */
    public static BinlogFiles read(Connection c, String serverUuid, String gtidMode)
            throws SQLException {
        try (Statement s = c.createStatement()) {
            List<File> files = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
                while (rs.next()) {
                    files.add(new File(rs.getString(1), rs.getLong(2)));
                }
            }
            try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next()) {
                    throw new SQLException("SHOW MASTER STATUS returned no row (binary log off?)");
                }
                return new BinlogFiles(serverUuid, gtidMode, files, currentPosition(rs));
            }
        }
    }

    /** The position of a {@code SHOW MASTER STATUS} row (File, Position). */
    public static Position currentPosition(ResultSet masterStatus) throws SQLException {
        return new Position(
                BinlogPositionAxis.fileIndex(masterStatus.getString(1)), masterStatus.getLong(2));
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "BinlogFiles{server_uuid=%s, gtid_mode=%s, files=%s, current=%s}",
                serverUuid,
                gtidMode,
                describeFiles(),
                describe(current));
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * The server's {@code gtid_executed} and {@code gtid_purged}, read together with its binary log
 * files ({@link BinlogFiles}), and the start positions they allow: sets of GTIDs on a server with
 * {@code gtid_mode = ON} (on MariaDB with {@code gtid_strict_mode}: its GTIDs, docs/adr/0013), sets
 * of binlog positions (docs/adr/0012) on a server without. The reads over JDBC are static; the rest
 * is pure.
 */
@Internal
public final class ServerGtidState {

    final GtidSet executed;
    final GtidSet purged;
    final boolean gtidsOn;
    @Nullable final BinlogFiles files;

    private ServerGtidState(
            GtidSet executed, GtidSet purged, boolean gtidsOn, @Nullable BinlogFiles files) {
        this.executed = Objects.requireNonNull(executed, "executed");
        this.purged = Objects.requireNonNull(purged, "purged");
        this.gtidsOn = gtidsOn;
        this.files = files;
    }

    /** A server with GTIDs on whose files are not known (they are read only without GTIDs). */
    public static ServerGtidState of(GtidSet executed, GtidSet purged) {
        return new ServerGtidState(executed, purged, true, null);
    }

    /** A server whose {@code gtid_mode} is the one its files were read with. */
    public static ServerGtidState of(GtidSet executed, GtidSet purged, BinlogFiles files) {
        return new ServerGtidState(executed, purged, files.gtidsOn(), files);
    }

    /**
     * Whether a job starting now runs on binlog positions: the server does not write a GTID for
     * every transaction ({@code gtid_mode} other than {@code ON}).
     */
    public boolean positionMode() {
        return !gtidsOn;
    }

    /** The server's binary log files: read on a server without GTIDs and on MariaDB, else null. */
    @Nullable
    public BinlogFiles files() {
        return files;
    }

    /** Stream what commits from now on. */
    public BinlogStartPosition latest() {
        return BinlogStartPosition.of(positionMode() ? files.written() : executed);
    }

    /** Everything the server still holds: the purged transactions as the processed set. */
    public BinlogStartPosition earliest() {
        return BinlogStartPosition.of(positionMode() ? files.purged() : purged);
    }

    /**
     * Every transaction not in {@code processed}. Halts with {@code source_identity_mismatch} when
     * the set holds transactions the server never executed, and with {@code data_gap} when the
     * server already purged transactions outside it.
     */
    public BinlogStartPosition resumeFrom(GtidSet processed, String serverAddress) {
        BinlogStartPosition position = BinlogStartPosition.of(processed);
        ResumeCheck.check(position, this, serverAddress);
        return position;
    }

    /**
     * Both sets, on a connection of its own.
     *
     * @throws IllegalStateException when they cannot be read (scrubbed by {@link SqlErrors#scrub})
     */
    static ServerGtidState read(MySqlConnectionConfig config) {
        try (Connection c = JdbcConnections.open(config)) {
            return read(c);
        } catch (SQLException e) {
            IOException scrubbed =
                    SqlErrors.scrub(
                            "could not read gtid_executed/gtid_purged from " + config.address(), e);
            throw new IllegalStateException(scrubbed.getMessage(), scrubbed.getCause());
        }
    }

    /**
     * Both sets and the mode in one query, on an open connection; on a server without GTIDs, and on
     * every MariaDB (whose binlog positions stay readable in either mode), also its binary log
     * files. A MariaDB's purged set is the binlog state before its oldest listed file.
     */
    public static ServerGtidState read(Connection c) throws SQLException {
        ServerDialect dialect = ServerDialect.of(c);
        GtidSet executed;
        GtidSet purged;
        String mode;
        String uuid;
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT "
                                        + dialect.gtidExecuted()
                                        + ", "
                                        + dialect.gtidPurged()
                                        + ", "
                                        + dialect.gtidMode()
                                        + ", "
                                        + dialect.serverIdentityExpression())) {
            rs.next();
            executed = dialect.gtidSet(rs.getString(1));
            purged = dialect.gtidSet(rs.getString(2));
            mode = rs.getString(3) == null ? "OFF" : rs.getString(3);
            uuid = ServerDialect.serverIdentity(rs.getString(4));
        }
        boolean gtidsOn = ServerDialect.gtidsOn(mode);
        if (dialect == ServerDialect.MARIADB) {
            BinlogFiles files = BinlogFiles.read(c, uuid, mode);
            return new ServerGtidState(
                    executed, gtidsOn ? stateBeforeOldestFile(c, files) : purged, gtidsOn, files);
        }
        return gtidsOn
                ? new ServerGtidState(executed, purged, true, null)
                : of(executed, purged, BinlogFiles.read(c, uuid, mode));
    }

    /**
     * MariaDB's binlog state before its oldest listed binary log file: the Gtid_list event each
     * file opens with lists it (docs/adr/0013), as {@code SHOW BINLOG EVENTS} prints it in brackets
     * ({@code [0-1-5,0-2-9]}). Every transaction outside it is still in the binary log.
     */
    private static GtidSet stateBeforeOldestFile(Connection c, BinlogFiles files)
            throws SQLException {
        if (files.files().isEmpty()) {
            throw new SQLException("SHOW BINARY LOGS listed no file (binary log off?)");
        }
        String oldest = files.files().get(0).name();
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + oldest.replace("\\", "\\\\").replace("'", "''")
                                        + "' LIMIT 4")) {
            while (rs.next()) {
                if ("Gtid_list".equalsIgnoreCase(rs.getString("Event_type"))) {
                    String info = rs.getString("Info").trim();
                    if (info.startsWith("[") && info.endsWith("]")) {
                        info = info.substring(1, info.length() - 1);
                    }
                    return ServerDialect.MARIADB.gtidSet(info);
                }
            }
        }
        throw new SQLException(
                "the oldest binary log file " + oldest + " opens with no Gtid_list event");
    }

    /** The server's {@code gtid_executed}, on an open connection. */
    public static GtidSet executed(Connection c) throws SQLException {
        ServerDialect dialect = ServerDialect.of(c);
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT " + dialect.gtidExecuted())) {
            rs.next();
            return dialect.gtidSet(rs.getString(1));
        }
    }

    /**
     * A MySQL GTID set as the server prints it (nullable): MySQL separates the UUIDs of a long set
     * with ",\n".
     */
    public static GtidSet parse(String text) {
        return ServerDialect.MYSQL.gtidSet(text);
    }

    /** Whether the server is a MariaDB. */
    public boolean mariaDb() {
        return files != null && ServerDialect.isMariaDb(files.gtidMode());
    }

    @Override
    public String toString() {
        return "ServerGtidState{executed="
                + executed
                + ", purged="
                + purged
                + (files == null ? "" : ", " + files)
                + "}";
    }
}

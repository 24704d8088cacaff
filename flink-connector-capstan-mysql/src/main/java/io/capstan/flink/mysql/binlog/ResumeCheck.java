package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.GtidModeChange;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;

import javax.annotation.Nullable;

/**
 * Whether a server can serve a resume position, from its {@code gtid_executed} and {@code
 * gtid_purged}: the same test as MySQL's {@code GTID_SUBSET(@@global.gtid_purged, start)} and
 * {@code GTID_SUBSET(start, @@global.gtid_executed)}, done before connecting so the failure names
 * the missing transactions. MySQL itself only refuses a start holding more of <em>its own</em>
 * server UUID's transactions than it executed; a server that lacks another UUID's transactions (a
 * replica promoted before it caught up, an old primary after a failover) would stream silently
 * without the lacking ones, so this check is the only guard there. Pure.
 */
final class ResumeCheck {

    private ResumeCheck() {}

    /** Throws the halt for a position the server cannot serve exactly. */
    static void check(BinlogStartPosition start, ServerGtidState server, String address) {
        check(start, server, address, null);
    }

    /**
     * The check before a reconnect, against the server now answering at {@code address}. When its
     * {@code server_uuid} differs from {@code previousUuid} (a failover, or the address now leads
     * elsewhere) the halt says so.
     *
     * @param previousUuid the server of the previous connection, or null when unknown
     * @return whether the server changed: it passed, and the stream continues exactly from it
     */
    static boolean checkReconnect(
            BinlogStartPosition start, String previousUuid, ServerIdentity now, String address) {
        boolean changed = previousUuid != null && !previousUuid.equals(now.serverUuid());
        String failover =
                changed
                        ? " The server at "
                                + address
                                + " is now "
                                + (now.gtids().mariaDb()
                                        ? "MariaDB server_id "
                                                + now.serverId()
                                                + " (server identity "
                                                + now.serverUuid()
                                                + "; the previous connection reached "
                                                + previousUuid
                                                + ")."
                                        : "server_uuid "
                                                + now.serverUuid()
                                                + " (the previous connection reached "
                                                + previousUuid
                                                + ").")
                        : null;
        check(start, now.gtids(), address, failover);
        return changed;
    }

    private static void check(
            BinlogStartPosition start, ServerGtidState server, String address, String failover) {
        if (BinlogPositionAxis.isPositionSet(start.processed())) {
            // a job on positions continues on a MariaDB that now has strict mode: its files stay
            if (server.gtidsOn && !server.mariaDb()) {
                throw GtidModeChange.halt(true, "the server at " + address);
            }
            checkPositions(start, server.files, address, failover);
            return;
        }
        if (server.positionMode()) {
            throw GtidModeChange.halt(false, "the server at " + address, server.mariaDb());
        }
        GtidSet processed = start.processed();
        GtidSet held = start.isInsideTransaction() ? processed.add(start.partialGtid()) : processed;
        if (server.mariaDb() && (held.isEmpty() || MariaDbGtidAxes.isMariaDbSet(held))) {
            MariaDbResumeCheck.check(held, processed, server, address, failover);
            return;
        }
        GtidSet executed = server.executed;
        GtidSet purged = server.purged;
        GtidSet foreign = held.subtract(executed);
        if (!foreign.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.SOURCE_IDENTITY_MISMATCH,
                    "the resume position contains transactions "
                            + foreign
                            + " that the server at "
                            + address
                            + " never executed (its gtid_executed is "
                            + executed
                            + ")"
                            + lackingRemedy(failover));
        }
        GtidSet missing = purged.subtract(processed);
        if (!missing.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.DATA_GAP,
                    "transactions "
                            + missing
                            + " needed to resume from "
                            + processed
                            + " were already purged from the binlog of "
                            + address
                            + " (gtid_purged "
                            + purged
                            + ")."
                            + purgedRemedy(failover));
        }
    }

    /**
     * A position-mode start: the positions must lie on this server's axis (the same {@code
     * server_uuid}) and their first missing position must be in a file the server still lists.
     */
    private static void checkPositions(
            BinlogStartPosition start, BinlogFiles files, String address, String failover) {
        BinlogPositionAxis axis = files.axis();
        if (!axis.holds(start.processed())) {
            throw new CapstanHaltException(
                    HaltReason.SOURCE_IDENTITY_MISMATCH,
                    "the resume position is a binlog position of another server than the one at "
                            + address
                            + " ("
                            + files.identity()
                            + ")."
                            + (failover == null ? "" : failover)
                            + " Without GTIDs a binlog file and offset are exact only on the server"
                            + " that wrote them, so a failover or a rebuilt server cannot be"
                            + " followed. Remedy: point the job at the server the position came"
                            + " from, or start without state (a new snapshot); "
                            + files.followFailovers()
                            + ".");
        }
        files.requireServes(axis.firstMissing(start.processed()), address);
    }

    /** How a halt for a server that lacks delivered transactions ends: why, and the remedy. */
    static String lackingRemedy(@Nullable String failover) {
        return failover == null
                ? ": the position belongs to another server or the server was rebuilt. Remedy:"
                        + " point the job at the server the position came from, or start without"
                        + " state (a new snapshot)."
                : "."
                        + failover
                        + " It lacks transactions the job already delivered: a replica promoted"
                        + " before it caught up, or an old primary after the writes moved on."
                        + " Remedy: point the job at a server that holds them (let a replica apply"
                        + " everything before promoting it), or start without state (a new"
                        + " snapshot).";
    }

    /** How a halt for purged transactions ends: the changed server, and the remedy. */
    static String purgedRemedy(@Nullable String failover) {
        return (failover == null ? "" : failover)
                + " Remedy: start without state (a new snapshot), and keep binlogs"
                + " longer (binlog_expire_logs_seconds) than the job may be down"
                + (failover == null
                        ? "."
                        : "; a replica to fail over to needs log_slave_updates ="
                                + " ON (log_replica_updates) and the same binlog"
                                + " retention.");
    }
}

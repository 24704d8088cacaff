package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.Internal;

/**
 * A job runs on GTIDs (MySQL's, or MariaDB's under {@code gtid_strict_mode}: {@link
 * MariaDbGtidAxes}) or, on a server without them, on binlog positions (docs/adr/0012), and stays
 * so: positions of one kind are never compared with another's (a GTID is never "in" a set of
 * positions, so a gate would emit what a chunk holds and a handoff would wait forever). Where a
 * server's set meets the job's, a change of the server's {@code gtid_mode} (on MariaDB its {@code
 * gtid_strict_mode}) since the job started halts here. Pure.
 */
@Internal
public final class GtidModeChange {

    private GtidModeChange() {}

    /**
     * @param jobs a set the job holds (empty: of either kind)
     * @param servers a set read from the server now, or a chunk's
     * @param where where they met, for the message
     * @throws CapstanHaltException {@code gtid_mode_changed} when the kinds differ
     */
    public static void requireSameKind(GtidSet jobs, GtidSet servers, String where) {
        if (jobs.isEmpty() || servers.isEmpty()) {
            return;
        }
        boolean jobOnPositions = BinlogPositionAxis.isPositionSet(jobs);
        boolean jobOnMariaDb = MariaDbGtidAxes.isMariaDbSet(jobs);
        boolean serversOnPositions = BinlogPositionAxis.isPositionSet(servers);
        if (jobOnPositions == serversOnPositions
                && jobOnMariaDb == MariaDbGtidAxes.isMariaDbSet(servers)) {
            return;
        }
        if (!jobOnPositions && !serversOnPositions) {
            // GTIDs of MySQL against MariaDB's: no mode changed, the server is another one
            throw new CapstanHaltException(
                    HaltReason.SOURCE_IDENTITY_MISMATCH,
                    "the job's positions are "
                            + (jobOnMariaDb ? "MariaDB" : "MySQL")
                            + " GTIDs but "
                            + where
                            + " holds "
                            + (jobOnMariaDb ? "MySQL" : "MariaDB")
                            + " GTIDs: it is another server. Remedy: point the job at its server"
                            + " again, or start it without state (a new snapshot).");
        }
        throw halt(jobOnPositions, where, jobOnMariaDb || MariaDbGtidAxes.isMariaDbSet(servers));
    }

    /** {@link #halt(boolean, String, boolean)} on a MySQL server. */
    public static CapstanHaltException halt(boolean positions, String where) {
        return halt(positions, where, false);
    }

    /**
     * The halt when the job runs on {@code positions} (else GTIDs) and the server now does not.
     *
     * @param mariaDb whether the server is a MariaDB, whose GTIDs count only under strict mode
     */
    public static CapstanHaltException halt(boolean positions, String where, boolean mariaDb) {
        if (mariaDb) {
            return new CapstanHaltException(
                    HaltReason.GTID_MODE_CHANGED,
                    (positions
                                    ? "the job runs on binlog positions (its MariaDB server had"
                                            + " gtid_strict_mode = OFF when it started) but "
                                    : "the job runs on MariaDB GTIDs (its server had"
                                            + " gtid_strict_mode = ON when it started) but ")
                            + where
                            + " now has "
                            + (positions ? "gtid_strict_mode = ON" : "gtid_strict_mode = OFF")
                            + ": the job's positions and the server's cannot be compared."
                            + " Remedy: "
                            + (positions
                                    ? "restart the job without state (a new snapshot) to run on"
                                            + " MariaDB GTIDs."
                                    : "SET GLOBAL gtid_strict_mode = ON (and gtid_strict_mode = ON"
                                            + " under [mariadb] in the server's option file),"
                                            + " then restart from the last checkpoint; or restart"
                                            + " the job without state (a new snapshot)."));
        }
        return new CapstanHaltException(
                HaltReason.GTID_MODE_CHANGED,
                (positions
                                ? "the job runs on binlog positions (its server had gtid_mode other"
                                        + " than ON when it started) but "
                                : "the job runs on GTIDs but ")
                        + where
                        + " now has "
                        + (positions ? "gtid_mode = ON" : "gtid_mode other than ON")
                        + ": the job's positions and the server's cannot be compared. Remedy:"
                        + " restart the job without state (a new snapshot) in the server's new"
                        + " mode"
                        + (positions
                                ? "."
                                : ", or set gtid_mode = ON again and restart from the last"
                                        + " checkpoint."));
    }
}

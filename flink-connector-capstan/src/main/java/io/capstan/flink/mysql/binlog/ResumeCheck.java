package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;

/**
 * Whether a server can serve a resume position, from its {@code gtid_executed} and {@code
 * gtid_purged}: the same test as MySQL's {@code GTID_SUBSET(@@global.gtid_purged, start)} and
 * {@code GTID_SUBSET(start, @@global.gtid_executed)}, done before connecting so the failure names
 * the missing transactions. Pure.
 */
final class ResumeCheck {

    private ResumeCheck() {}

    /** Throws the halt for a position the server cannot serve exactly. */
    static void check(BinlogStartPosition start, GtidSet executed, GtidSet purged, String address) {
        GtidSet processed = start.processed();
        GtidSet foreign = processed.subtract(executed);
        if (!foreign.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.SOURCE_IDENTITY_MISMATCH,
                    "the resume position contains transactions "
                            + foreign
                            + " that the server at "
                            + address
                            + " never executed (its gtid_executed is "
                            + executed
                            + "): the position belongs"
                            + " to another server or the server was rebuilt. Remedy: point the job at the"
                            + " server the position came from, or start without state (a new snapshot).");
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
                            + "). Remedy: start without state (a new snapshot), and keep binlogs"
                            + " longer (binlog_expire_logs_seconds) than the job may be down.");
        }
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.gtid.MariaDbGtidPosition;
import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a MariaDB server can serve a resume position on MariaDB GTIDs (docs/adr/0013, decision
 * 8), compared domain by domain, as MariaDB's positions are: under {@code gtid_strict_mode} a
 * position holds a GTID when its domain's sequence number is at least the GTID's.
 *
 * <ol>
 *   <li>The server must hold every domain of the position at least as far: MariaDB itself accepts a
 *       dump from a domain it never wrote, so a promoted replica that lacks delivered transactions,
 *       or another server, would stream on silently without this check.
 *   <li>The position must hold the state before the server's oldest binary log file: else
 *       transactions it needs were purged.
 * </ol>
 *
 * Pure.
 */
final class MariaDbResumeCheck {

    private MariaDbResumeCheck() {}

    /**
     * @param held the processed set and the transaction the start resumes inside, if any
     * @param processed the processed set
     * @param failover the sentence naming a changed server, or null
     */
    static void check(
            GtidSet held,
            GtidSet processed,
            ServerGtidState server,
            String address,
            @Nullable String failover) {
        MariaDbGtidPosition job = MariaDbGtidAxes.position(held);
        MariaDbGtidPosition servers = MariaDbGtidAxes.position(server.executed);
        List<String> lacking = lacking(servers, job);
        if (!lacking.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.SOURCE_IDENTITY_MISMATCH,
                    "the resume position '"
                            + job
                            + "' holds transactions that the MariaDB server at "
                            + address
                            + " never wrote (its gtid_binlog_pos is '"
                            + servers
                            + "'; "
                            + String.join(", ", lacking)
                            + ")"
                            + ResumeCheck.lackingRemedy(failover));
        }
        MariaDbGtidPosition resume = MariaDbGtidAxes.position(processed);
        MariaDbGtidPosition oldest = MariaDbGtidAxes.position(server.purged);
        List<String> purged = lacking(resume, oldest);
        if (!purged.isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.DATA_GAP,
                    "transactions needed to resume from '"
                            + resume
                            + "' were already purged from the binary log of the MariaDB server at "
                            + address
                            + " (its oldest binary log file starts after '"
                            + oldest
                            + "'; "
                            + String.join(", ", purged)
                            + ")."
                            + ResumeCheck.purgedRemedy(failover));
        }
    }

    /** The domains of {@code wanted} that {@code has} does not hold as far, for the message. */
    private static List<String> lacking(MariaDbGtidPosition has, MariaDbGtidPosition wanted) {
        List<String> lacking = new ArrayList<>();
        for (DomainGtid g : wanted.gtids()) {
            if (!has.holds(g)) {
                lacking.add(
                        "domain "
                                + g.domain()
                                + ": "
                                + has.gtidOf(g.domain()).map(DomainGtid::toString).orElse("none")
                                + " against "
                                + g);
            }
        }
        return lacking;
    }
}

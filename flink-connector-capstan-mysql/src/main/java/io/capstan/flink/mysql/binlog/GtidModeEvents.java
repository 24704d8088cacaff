package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The stream of a job on GTIDs, in front of the {@link TransactionAssembler}. A MySQL server's
 * events pass as they are. On a MariaDB (docs/adr/0013), which the first FORMAT_DESCRIPTION names:
 *
 * <ol>
 *   <li>each MARIADB_GTID event becomes the GTID event of its transaction on {@link
 *       MariaDbGtidAxes} ({@link MariaDbEvents#transactionStart}: XA halts, a body opens where
 *       MariaDB writes no BEGIN);
 *   <li>each domain's sequence numbers must grow: the server skips what the start position holds,
 *       so a GTID at or below its domain's last one means the order {@code gtid_strict_mode}
 *       promised is broken (the variable is dynamic, and the binlog library turns it off for its
 *       own dump session), and it halts before any row of it;
 *   <li>the processed set grows in the shape of a binlog state ({@link MariaDbGtidAxes#advance});
 *   <li>an event the binlog library cannot decode halts, and so does a start event of the other
 *       server kind.
 * </ol>
 */
final class GtidModeEvents implements ProcessedGrowth {

    private final TransactionAssembler assembler;
    private final Map<Long, Long> lastSequence = new HashMap<>(); // per domain
    private Boolean mariaDb; // the server kind its first FORMAT_DESCRIPTION named; null before

    GtidModeEvents(TransactionAssembler assembler) {
        this.assembler = assembler;
    }

    /** Each domain's last sequence number is the processed set's, as a connection starts. */
    void connect(GtidSet processed) {
        lastSequence.clear();
        if (MariaDbGtidAxes.isMariaDbSet(processed)) {
            for (DomainGtid g : MariaDbGtidAxes.position(processed).gtids()) {
                lastSequence.put(g.domain(), g.sequence());
            }
        }
    }

    /** Hands {@code event} to the assembler as it takes it. */
    void onEvent(Event event) throws InterruptedException {
        assembler.onEvent(translate(event));
    }

    Event translate(Event event) {
        EventHeaderV4 header = event.getHeader();
        EventType type = header.getEventType();
        switch (type) {
            case FORMAT_DESCRIPTION:
                serverKind(((FormatDescriptionEventData) event.getData()).getServerVersion());
                return event;
            case MARIADB_GTID:
                if (!Boolean.TRUE.equals(mariaDb)) {
                    throw MariaDbEvents.otherServerKind("a MariaDB transaction start");
                }
                return begin(header, (MariadbGtidEventData) event.getData());
            case GTID:
            case ANONYMOUS_GTID:
                if (Boolean.TRUE.equals(mariaDb)) {
                    throw MariaDbEvents.otherServerKind("a MySQL transaction start (" + type + ")");
                }
                return event;
            case UNKNOWN:
                if (Boolean.TRUE.equals(mariaDb)) { // the library lost what it held
                    throw MariaDbEvents.unknownEvent(
                            "after " + MariaDbGtidAxes.readable(assembler.processed()));
                }
                return event; // on MySQL as before: 8.0.26+'s HEARTBEAT_LOG_EVENT_V2
            default:
                return event;
        }
    }

    private void serverKind(String serverVersion) {
        boolean wasMariaDb = Boolean.TRUE.equals(mariaDb);
        mariaDb = MariaDbEvents.serverKind(mariaDb, serverVersion);
        if (mariaDb && !wasMariaDb) {
            assembler.growProcessed(this);
        }
    }

    private Event begin(EventHeaderV4 header, MariadbGtidEventData d) {
        DomainGtid g = new DomainGtid(d.getDomainId(), d.getServerId(), d.getSequence());
        Long last = lastSequence.get(g.domain());
        if (last != null && g.sequence() <= last) {
            throw new CapstanHaltException(
                    HaltReason.GTID_ORDER_BROKEN,
                    "the MariaDB binlog holds transaction "
                            + g
                            + " after sequence number "
                            + last
                            + " of domain "
                            + g.domain()
                            + " (the job's position is "
                            + MariaDbGtidAxes.readable(assembler.processed())
                            + "): the sequence numbers of a domain no longer grow, as"
                            + " gtid_strict_mode promises, so the job's positions cannot tell which"
                            + " transactions it holds. None of its rows was emitted. Remedy: SET"
                            + " GLOBAL gtid_strict_mode = ON on every server of the topology (and"
                            + " keep one writer per domain), then start the job without state (a"
                            + " new snapshot).");
        }
        lastSequence.put(g.domain(), g.sequence());
        Gtid at = MariaDbGtidAxes.gtid(g);
        return PositionModeEvents.gtidEvent(
                header, MariaDbEvents.transactionStart(d, UUID.fromString(at.uuid()), at));
    }

    @Override
    public GtidSet ended(
            GtidSet processed,
            Gtid gtid,
            @Nullable Gtid prepared,
            Event end,
            Collection<Gtid> held) {
        // no XA part on MariaDB: MariaDbEvents halts on its flags
        return MariaDbGtidAxes.advance(processed, gtid);
    }

    /**
     * An end fills its pair's sequence numbers below it ({@link MariaDbGtidAxes#advance}): the
     * reader checkpoints that set, not the GTID alone, so that after a failover to another server
     * id of a domain the checkpoint still has a binlog state's shape, as chunks' positions do.
     */
    @Override
    public boolean reportsProcessedSet() {
        return true;
    }
}

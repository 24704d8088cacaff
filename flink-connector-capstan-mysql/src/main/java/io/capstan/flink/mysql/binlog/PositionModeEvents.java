package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.RotateEventData;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

/**
 * The stream of a server without GTIDs (position mode, docs/adr/0012), in front of the {@link
 * TransactionAssembler}:
 *
 * <ol>
 *   <li>tracks the binlog file the events come from (each connection and each rotation begins with
 *       a ROTATE event naming it);
 *   <li>turns the event that starts a transaction (ANONYMOUS_GTID, GTID on a server that has turned
 *       GTIDs on since the job started, MARIADB_GTID on a MariaDB: {@link MariaDbEvents}) into a
 *       GTID event whose GTID is the transaction's ordinal on the server's {@link
 *       BinlogPositionAxis}, so the assembler, the gate and the state see a GTID as on any other
 *       server; the server kind the first FORMAT_DESCRIPTION names stays, a start event of the
 *       other kind halts, and so does, on a MariaDB, an event the binlog library does not know;
 *   <li>drops whole transactions already in the processed set: the stream resumes at the first
 *       position missing from it (an XA part held until its outcome leaves a hole), and what
 *       follows may hold transactions already processed, which a GTID server would not send;
 *   <li>grows the processed set by position ({@link ProcessedGrowth}): after each event read
 *       outside a transaction, every position before its end is processed, except the held XA
 *       parts.
 * </ol>
 *
 * A transaction's events run from its start event to its end; dropping one drops the kinds of event
 * a transaction holds, so it needs no knowledge of how each kind of transaction ends, and any other
 * event ends the dropping (fail closed: what follows is read, never dropped unseen). Table maps
 * pass even inside a dropped transaction: the rows events' decoding looks their table ids up.
 */
final class PositionModeEvents implements ProcessedGrowth {

    /** What a transaction holds between its start event and its end: dropped with it. */
    private static final Set<EventType> INSIDE_A_TRANSACTION =
            EnumSet.of(
                    EventType.QUERY,
                    EventType.INTVAR,
                    EventType.RAND,
                    EventType.USER_VAR,
                    EventType.ROWS_QUERY,
                    EventType.WRITE_ROWS,
                    EventType.UPDATE_ROWS,
                    EventType.DELETE_ROWS,
                    EventType.EXT_WRITE_ROWS,
                    EventType.EXT_UPDATE_ROWS,
                    EventType.EXT_DELETE_ROWS,
                    EventType.PARTIAL_UPDATE_ROWS_EVENT,
                    EventType.BEGIN_LOAD_QUERY,
                    EventType.APPEND_BLOCK,
                    EventType.EXECUTE_LOAD_QUERY,
                    EventType.DELETE_FILE,
                    EventType.TRANSACTION_PAYLOAD,
                    EventType.XID,
                    EventType.XA_PREPARE,
                    EventType.ANNOTATE_ROWS);

    private final TransactionAssembler assembler;
    private final BinlogPositionAxis axis;
    private final String axisId;
    private final UUID axisUuid;
    private long fileIndex = -1;
    private boolean skipping;
    private Gtid lastPassed;
    private long reached; // every ordinal below it is processed or held: no growth to compute
    private BinlogFiles listed; // the server's files as last read: where a connection starts
    private Boolean mariaDb; // the server kind its first FORMAT_DESCRIPTION named; null before

    /**
     * @param axisId the id of the axis the job's positions lie on
     */
    PositionModeEvents(TransactionAssembler assembler, String axisId) {
        this.assembler = assembler;
        this.axis = BinlogPositionAxis.withAxisId(axisId);
        this.axisId = axisId;
        this.axisUuid = UUID.fromString(axisId);
    }

    /**
     * The events of a stream starting at {@code start}, in front of {@code assembler}, whose
     * processed set then grows by position; null when {@code start} is a set of GTIDs.
     */
    @Nullable
    static PositionModeEvents inFrontOf(TransactionAssembler assembler, BinlogStartPosition start) {
        if (!BinlogPositionAxis.isPositionSet(start.processed())) {
            return null;
        }
        // one axis: the one server a position-mode job reads
        PositionModeEvents events =
                new PositionModeEvents(assembler, start.processed().sourceIds().get(0));
        assembler.growProcessed(events);
        return events;
    }

    /** The server's files, as the start's check read them. */
    void listed(BinlogFiles files) {
        listed = files;
    }

    /**
     * Starts {@code client} at the first position missing from the processed set, in the file the
     * server lists for it ({@code checked}: the check before this connection, when it ran); halts
     * when it lists none.
     */
    void connect(
            BinaryLogClient client,
            BinlogStartPosition position,
            @Nullable ServerIdentity checked,
            MySqlConnectionConfig connection) {
        fileIndex = -1; // the connection's first event is a ROTATE naming the file
        skipping = false;
        reached = 0;
        if (checked != null) {
            listed = checked.gtids().files();
        } else if (listed == null) {
            listed = ServerGtidState.read(connection).files();
        }
        Position first = listed.axis().firstMissing(position.processed());
        listed.requireServes(first, connection.address());
        client.setBinlogFilename(listed.fileName(first.fileIndex()));
        client.setBinlogPosition(first.offset());
    }

    /** Hands {@code event} to the assembler as it takes it, or drops it. */
    void onEvent(Event event) throws InterruptedException {
        Event e = translate(event, assembler.processed());
        if (e != null) {
            assembler.onEvent(e);
        }
    }

    /**
     * The event as the assembler takes it, or null to drop it.
     *
     * @param processed the processed set now
     */
    @Nullable
    Event translate(Event event, GtidSet processed) {
        EventHeaderV4 header = event.getHeader();
        EventType type = header.getEventType();
        switch (type) {
            case ROTATE:
                fileIndex =
                        BinlogPositionAxis.fileIndex(
                                ((RotateEventData) event.getData()).getBinlogFilename());
                skipping = false;
                return event;
            case FORMAT_DESCRIPTION:
                serverKind(((FormatDescriptionEventData) event.getData()).getServerVersion());
                skipping = false;
                return event;
            case PREVIOUS_GTIDS:
            case MARIADB_GTID_LIST:
            case BINLOG_CHECKPOINT:
            case STOP:
            case INCIDENT:
                skipping = false;
                return event;
            case GTID:
            case ANONYMOUS_GTID:
                if (Boolean.TRUE.equals(mariaDb)) {
                    throw MariaDbEvents.otherServerKind("a MySQL transaction start (" + type + ")");
                }
                return begin(event, header, processed);
            case MARIADB_GTID:
                if (!Boolean.TRUE.equals(mariaDb)) {
                    throw MariaDbEvents.otherServerKind("a MariaDB transaction start");
                }
                return begin(event, header, processed);
            case UNKNOWN:
                if (!Boolean.FALSE.equals(mariaDb)) { // the library lost what it held
                    throw MariaDbEvents.unknownEvent(
                            "at " + BinlogPositionAxis.readable(at(header)));
                }
                // On MySQL as before: e.g. 8.0.26+'s HEARTBEAT_LOG_EVENT_V2, which holds no change.
                skipping = false;
                return event;
            case TABLE_MAP:
            case HEARTBEAT:
                return event;
            default:
                if (skipping && INSIDE_A_TRANSACTION.contains(type)) {
                    return null;
                }
                // Any other event ends a dropped transaction: the assembler takes it (and halts
                // on what it cannot place, e.g. rows of an unknown kind of transaction start).
                skipping = false;
                return event;
        }
    }

    private void serverKind(String serverVersion) {
        mariaDb = MariaDbEvents.serverKind(mariaDb, serverVersion);
    }

    /** The event's start as a transaction on the axis. */
    private Gtid at(EventHeaderV4 header) {
        if (fileIndex < 0) {
            throw new IllegalStateException("an event came before the stream named its file");
        }
        return Gtid.of(
                axisId, BinlogPositionAxis.ordinal(new Position(fileIndex, header.getPosition())));
    }

    private Event begin(Event event, EventHeaderV4 header, GtidSet processed) {
        Gtid at = at(header);
        GtidEventData d =
                event.getData() instanceof MariadbGtidEventData m
                        // halts on XA first: even a processed one is no transaction to drop
                        ? MariaDbEvents.transactionStart(m, axisUuid, at)
                        : withOrdinal(event.getData(), at.transactionId());
        skipping = processed.contains(at);
        return skipping ? null : gtidEvent(header, d);
    }

    /** A GTID event of {@code d} in the place of the start event whose header is {@code header}. */
    static Event gtidEvent(EventHeaderV4 header, GtidEventData d) {
        EventHeaderV4 h = new EventHeaderV4();
        h.setTimestamp(header.getTimestamp());
        h.setEventType(EventType.GTID);
        h.setServerId(header.getServerId());
        h.setEventLength(header.getEventLength());
        h.setNextPosition(header.getNextPosition());
        h.setFlags(header.getFlags());
        return new Event(h, d);
    }

    private GtidEventData withOrdinal(GtidEventData d, long ordinal) {
        return new GtidEventData(
                new MySqlGtid(axisUuid, ordinal),
                d.getFlags(),
                d.getLastCommitted(),
                d.getSequenceNumber(),
                d.getImmediateCommitTimestamp(),
                d.getOriginalCommitTimestamp(),
                d.getTransactionLength(),
                d.getImmediateServerVersion(),
                d.getOriginalServerVersion());
    }

    @Override
    public GtidSet ended(
            GtidSet processed,
            Gtid gtid,
            @Nullable Gtid prepared,
            Event end,
            Collection<Gtid> held) {
        return between(
                ProcessedGrowth.BY_GTID.ended(processed, gtid, prepared, end, held), end, held);
    }

    @Override
    public GtidSet between(GtidSet processed, Event event, Collection<Gtid> held) {
        if (skipping || fileIndex < 0) {
            return processed; // inside a dropped transaction everything is processed already
        }
        EventHeaderV4 header = event.getHeader();
        Position end;
        if (header.getEventType() == EventType.ROTATE) {
            // the file named is the one read next, from the position named
            end = new Position(fileIndex, ((RotateEventData) event.getData()).getBinlogPosition());
        } else if (header.getEventType() == EventType.HEARTBEAT || header.getNextPosition() <= 0) {
            return processed; // no position of its own (a compressed transaction's inner events)
        } else {
            end = new Position(fileIndex, header.getNextPosition());
        }
        long endOrdinal = BinlogPositionAxis.ordinal(end);
        if (endOrdinal <= reached) {
            return processed; // the end event of a transaction, again after its end
        }
        reached = endOrdinal;
        GtidSet grown = axis.through(processed, end, held);
        if (grown != processed) {
            lastPassed = Gtid.of(axisId, endOrdinal - 1);
        }
        return grown;
    }

    @Override
    public boolean reportsProcessedSet() {
        return true;
    }

    @Override
    public Gtid lastPassed() {
        return lastPassed;
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.anonymousGtid;
import static io.capstan.flink.mysql.binlog.Events.formatDescription;
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.mariaDbGtid;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stream of a job on GTIDs (docs/adr/0013): MySQL's events pass as they are; on a MariaDB each
 * MARIADB_GTID event becomes a GTID event on the (domain, server id) axes, each domain's sequence
 * numbers must grow, and the processed set grows in the shape of a binlog state.
 */
class GtidModeEventsTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T_ORDERS = 101;
    private static final String MARIADB = "10.11.6-MariaDB-log";
    private static final int TRANSACTIONAL = MariadbGtidEventData.FL_TRANSACTIONAL;
    private static final int DDL = MariadbGtidEventData.FL_STANDALONE | MariadbGtidEventData.FL_DDL;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();
    private TransactionAssembler assembler;

    /** A connection of a job whose processed set is {@code processed}, before any event. */
    private GtidModeEvents connected(GtidSet processed) {
        assembler =
                new TransactionAssembler(
                        new TableSchemaCache(ORDERS::equals, metrics),
                        BinlogStartPosition.of(processed),
                        null,
                        metrics,
                        out::add,
                        (db, sql, gtid) -> {},
                        TruncateHandling.HALT,
                        1000,
                        false);
        GtidModeEvents events = new GtidModeEvents(assembler);
        events.connect(processed);
        return events;
    }

    /** A MariaDB connection at {@code position} ({@code 0-1-5}), its FORMAT_DESCRIPTION read. */
    private GtidModeEvents onMariaDbAt(String position) throws Exception {
        GtidModeEvents events = connected(MariaDbGtidAxes.ofState(position));
        events.onEvent(formatDescription(MARIADB));
        return events;
    }

    private static Gtid axisGtid(long domain, long server, long sequence) {
        return MariaDbGtidAxes.gtid(new DomainGtid(domain, server, sequence));
    }

    private static HaltReason haltOf(GtidModeEvents events, Event event) {
        try {
            events.translate(event);
            return null;
        } catch (CapstanHaltException e) {
            return e.reason();
        }
    }

    private static Event[] innoDb(Event start, int id) {
        return new Event[] {
            start, tableMap(T_ORDERS, "shop", "orders", 2), insert(T_ORDERS, row(id, 0)), xid()
        };
    }

    private void feed(GtidModeEvents events, Event... stream) throws Exception {
        for (Event e : stream) {
            events.onEvent(e);
        }
    }

    @Test
    void mySqlEventsPassAsTheSameInstances() {
        GtidModeEvents events = connected(GtidSet.parse(UUID_A + ":1-5"));
        Event beforeAnyFormat = gtid(UUID_A, 6, 1L);
        assertThat(events.translate(beforeAnyFormat)).isSameAs(beforeAnyFormat);
        Event format = formatDescription("8.0.36");
        assertThat(events.translate(format)).isSameAs(format);
        Event anonymous = anonymousGtid();
        for (Event e :
                new Event[] {
                    gtid(UUID_A, 7, 1L),
                    anonymous,
                    query("BEGIN"),
                    tableMap(T_ORDERS, "shop", "orders", 2),
                    insert(T_ORDERS, row(1, 0)),
                    xid(),
                    Events.event(EventType.UNKNOWN, null) // 8.0.26+'s HEARTBEAT_LOG_EVENT_V2
                }) {
            assertThat(events.translate(e)).as("%s", e.getHeader().getEventType()).isSameAs(e);
        }
    }

    @Test
    void aMariaDbGtidBecomesTheGtidEventOfItsAxisAndOpensABodyUnlessStandalone() throws Exception {
        GtidModeEvents events = onMariaDbAt("0-1-4");
        Event start = mariaDbGtid(0, 1, 5, TRANSACTIONAL);
        start.<EventHeaderV4>getHeader().setNextPosition(777);

        Event translated = events.translate(start);
        assertThat(translated.getHeader().getEventType()).isEqualTo(EventType.GTID);
        assertThat(translated.<EventHeaderV4>getHeader().getNextPosition()).isEqualTo(777);
        assertThat(translated.getHeader().getTimestamp())
                .isEqualTo(start.getHeader().getTimestamp());
        GtidEventData data = translated.getData();
        Gtid expected = axisGtid(0, 1, 5);
        assertThat(data.getMySqlGtid().getServerId().toString()).isEqualTo(expected.uuid());
        assertThat(data.getMySqlGtid().getTransactionId()).isEqualTo(expected.transactionId());
        assertThat(data)
                .as("no BEGIN follows: the event opens the body")
                .isInstanceOf(MariaDbEvents.BodyOpened.class);

        GtidEventData ddl = events.translate(mariaDbGtid(0, 1, 6, DDL)).getData();
        assertThat(ddl.getMySqlGtid().getTransactionId()).isEqualTo(6);
        assertThat(ddl)
                .as("a standalone statement opens no body")
                .isNotInstanceOf(MariaDbEvents.BodyOpened.class);
    }

    @Test
    void anXaTransactionHaltsAtItsGtidEvent() throws Exception {
        for (int flag : new int[] {MariaDbEvents.FL_PREPARED_XA, MariaDbEvents.FL_COMPLETED_XA}) {
            GtidModeEvents events = onMariaDbAt("0-1-4");
            assertThat(haltOf(events, mariaDbGtid(0, 1, 5, TRANSACTIONAL | flag)))
                    .isEqualTo(HaltReason.XA_UNSUPPORTED);
        }
    }

    @Test
    void aDomainsSequenceNumberAtOrBelowThePositionsHaltsAndAHigherOneOfAnotherServerPasses()
            throws Exception {
        assertThat(haltOf(onMariaDbAt("0-1-5"), mariaDbGtid(0, 2, 5, TRANSACTIONAL)))
                .as("the same sequence number from another server")
                .isEqualTo(HaltReason.GTID_ORDER_BROKEN);
        assertThat(haltOf(onMariaDbAt("0-1-5"), mariaDbGtid(0, 1, 5, TRANSACTIONAL)))
                .as("the position's own GTID again")
                .isEqualTo(HaltReason.GTID_ORDER_BROKEN);
        assertThat(haltOf(onMariaDbAt("0-1-5"), mariaDbGtid(0, 1, 3, TRANSACTIONAL)))
                .isEqualTo(HaltReason.GTID_ORDER_BROKEN);
        assertThat(haltOf(onMariaDbAt("0-1-5"), mariaDbGtid(0, 2, 6, TRANSACTIONAL)))
                .as("a failover's new server id goes on with the domain's sequence")
                .isNull();
    }

    @Test
    void theOrderHaltNamesTheGtidTheDomainAndTheJobsPositionBeforeAnyRow() throws Exception {
        GtidModeEvents events = onMariaDbAt("0-1-5");
        assertThatThrownBy(() -> feed(events, innoDb(mariaDbGtid(0, 2, 4, TRANSACTIONAL), 1)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.GTID_ORDER_BROKEN);
                            assertThat(e.getMessage())
                                    .contains("0-2-4")
                                    .contains("domain 0")
                                    .contains("'0-1-5'")
                                    .contains("gtid_strict_mode");
                        });
        assertThat(out).isEmpty();
    }

    @Test
    void eachGtidReadRaisesItsDomainsBar() throws Exception {
        GtidModeEvents events = onMariaDbAt("0-1-5");
        feed(events, innoDb(mariaDbGtid(0, 2, 8, TRANSACTIONAL), 1));
        assertThat(haltOf(events, mariaDbGtid(0, 1, 7, TRANSACTIONAL)))
                .as("below the last GTID read, though above the connect position")
                .isEqualTo(HaltReason.GTID_ORDER_BROKEN);
        assertThat(haltOf(events, mariaDbGtid(0, 1, 9, TRANSACTIONAL))).isNull();
    }

    @Test
    void domainsAreOrderedEachOnItsOwn() throws Exception {
        GtidModeEvents events = onMariaDbAt("0-1-5,1-1-100");
        assertThat(haltOf(events, mariaDbGtid(2, 1, 1, TRANSACTIONAL)))
                .as("a domain the position does not hold yet")
                .isNull();
        assertThat(haltOf(events, mariaDbGtid(0, 1, 6, TRANSACTIONAL))).isNull();
        assertThat(haltOf(events, mariaDbGtid(1, 1, 6, TRANSACTIONAL)))
                .as("domain 1's bar is its own 100, not domain 0's")
                .isEqualTo(HaltReason.GTID_ORDER_BROKEN);
        assertThat(haltOf(events, mariaDbGtid(1, 1, 101, TRANSACTIONAL))).isNull();
        assertThat(haltOf(events, mariaDbGtid(2, 1, 1, TRANSACTIONAL)))
                .as("domain 2 read its 1 above")
                .isEqualTo(HaltReason.GTID_ORDER_BROKEN);
    }

    @Test
    void aReconnectTakesTheBarsFromTheProcessedSetAlone() throws Exception {
        GtidModeEvents events = onMariaDbAt("0-1-5");
        events.translate(mariaDbGtid(0, 1, 9, TRANSACTIONAL)); // read, never ended
        events.connect(MariaDbGtidAxes.ofState("0-1-5"));
        events.onEvent(formatDescription(MARIADB));
        assertThat(haltOf(events, mariaDbGtid(0, 1, 6, TRANSACTIONAL)))
                .as("the server sends the rest of the position again")
                .isNull();
    }

    @Test
    void aMySqlTransactionStartOnAMariaDbBinlogHaltsAsAnotherServer() throws Exception {
        assertThat(haltOf(onMariaDbAt("0-1-5"), gtid(UUID_A, 1, 1L)))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        Event anonymous = anonymousGtid();
        assertThat(haltOf(onMariaDbAt("0-1-5"), anonymous))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void aMariaDbTransactionStartOnAMySqlBinlogOrBeforeAnyFormatHaltsAsAnotherServer() {
        GtidModeEvents beforeFormat = connected(GtidSet.parse(UUID_A + ":1-5"));
        assertThat(haltOf(beforeFormat, mariaDbGtid(0, 1, 6, TRANSACTIONAL)))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        GtidModeEvents mysql = connected(GtidSet.parse(UUID_A + ":1-5"));
        mysql.translate(formatDescription("8.0.36"));
        assertThat(haltOf(mysql, mariaDbGtid(0, 1, 6, TRANSACTIONAL)))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(haltOf(mysql, formatDescription(MARIADB)))
                .as("the other kind's FORMAT_DESCRIPTION")
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void anEventTheLibraryDoesNotKnowHaltsOnMariaDbNamingThePosition() throws Exception {
        GtidModeEvents events = onMariaDbAt("0-1-5");
        assertThatThrownBy(() -> events.translate(Events.event(EventType.UNKNOWN, null)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.UNKNOWN_BINLOG_EVENT);
                            assertThat(e.getMessage()).contains("'0-1-5'");
                        });
    }

    @Test
    void anEndedTransactionGrowsTheProcessedSetAsABinlogStateDoes() throws Exception {
        GtidSet start = MariaDbGtidAxes.ofState("0-1-5");
        GtidModeEvents events = onMariaDbAt("0-1-5");

        feed(events, innoDb(mariaDbGtid(0, 2, 6, TRANSACTIONAL), 1));
        GtidSet afterFailover = MariaDbGtidAxes.advance(start, axisGtid(0, 2, 6));
        assertThat(assembler.processed()).isEqualTo(afterFailover);
        assertThat(assembler.processed()).isEqualTo(MariaDbGtidAxes.ofState("0-1-5,0-2-6"));

        // gtid_seq_no skipped 7..8: the set keeps the shape of a state, with no hole
        feed(events, mariaDbGtid(0, 2, 9, DDL), query("CREATE TABLE shop.other (i INT)"));
        assertThat(assembler.processed())
                .isEqualTo(MariaDbGtidAxes.advance(afterFailover, axisGtid(0, 2, 9)))
                .isEqualTo(MariaDbGtidAxes.ofState("0-1-5,0-2-9"));

        List<RowChange> rows =
                out.stream().filter(r -> r instanceof RowChange).map(r -> (RowChange) r).toList();
        assertThat(rows).extracting(RowChange::gtid).containsExactly(axisGtid(0, 2, 6));
        assertThat(
                        out.stream()
                                .filter(r -> r instanceof TransactionEnd)
                                .map(r -> ((TransactionEnd) r).gtid()))
                .containsExactly(axisGtid(0, 2, 6), axisGtid(0, 2, 9));

        // what the reader checkpoints, applying each end to the start, is the stream's own set
        GtidSet checkpointed = start;
        for (BinlogRecord r : out) {
            if (r instanceof TransactionEnd end) {
                checkpointed = end.appliedTo(checkpointed);
            }
        }
        assertThat(checkpointed).isEqualTo(assembler.processed());
    }

    @Test
    void endedAdvancesThePairsAxisUpToTheGtid() {
        GtidModeEvents events = connected(GtidSet.empty());
        GtidSet processed = MariaDbGtidAxes.ofState("0-1-5,1-3-2");
        Gtid ended = axisGtid(1, 3, 7);
        assertThat(events.ended(processed, ended, null, xid(), List.of()))
                .isEqualTo(MariaDbGtidAxes.advance(processed, ended))
                .isEqualTo(MariaDbGtidAxes.ofState("0-1-5,1-3-7"));
    }
}

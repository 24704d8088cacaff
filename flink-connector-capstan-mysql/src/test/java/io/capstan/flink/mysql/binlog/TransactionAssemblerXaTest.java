package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** XA transactions in the assembler: held at prepare, delivered at commit, dropped at rollback. */
class TransactionAssemblerXaTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T_ORDERS = 101;
    private static final long PREPARE_TIME = 1_700_000_000_000_000L;
    private static final long COMMIT_TIME = 1_700_000_100_000_000L;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();

    private TransactionAssembler assembler(BinlogStartPosition start, int maxPendingRows) {
        return assembler(start, maxPendingRows, false);
    }

    private TransactionAssembler assembler(
            BinlogStartPosition start, int maxPendingRows, boolean startsAfterSnapshot) {
        return new TransactionAssembler(
                new TableSchemaCache(ORDERS::equals, metrics),
                start,
                null,
                metrics,
                out::add,
                DdlObserver.NONE,
                TruncateHandling.HALT,
                maxPendingRows,
                startsAfterSnapshot);
    }

    private TransactionAssembler assembler(String processed) {
        return assembler(BinlogStartPosition.of(GtidSet.parse(processed)), 1000);
    }

    private static void feed(TransactionAssembler a, Event... events) throws Exception {
        for (Event e : events) {
            a.onEvent(e);
        }
    }

    private static Event xaPrepareEvent(String gtrid, boolean onePhase) {
        XAPrepareEventData d = new XAPrepareEventData();
        byte[] g = gtrid.getBytes(StandardCharsets.US_ASCII);
        d.setData(g);
        d.setGtridLength(g.length);
        d.setBqualLength(0);
        d.setFormatID(1);
        d.setOnePhase(onePhase);
        return Events.event(EventType.XA_PREPARE, d);
    }

    private static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.US_ASCII)) {
            b.append(String.format("%02x", x));
        }
        return "X'" + b + "',X'',1";
    }

    /** The prepared part of XA transaction {@code xid} inserting {@code ids}, as MySQL logs it. */
    private static Event[] prepared(long n, String xid, int... ids) {
        List<Event> e = new ArrayList<>();
        e.add(gtid(UUID_A, n, PREPARE_TIME));
        e.add(query("XA START " + hex(xid)));
        e.add(tableMap(T_ORDERS, "shop", "orders", 2));
        for (int id : ids) {
            e.add(insert(T_ORDERS, row(id, id * 10)));
        }
        e.add(query("XA END " + hex(xid)));
        e.add(xaPrepareEvent(xid, false));
        return e.toArray(new Event[0]);
    }

    private static Event[] outcome(long n, String verb, String xid) {
        return new Event[] {gtid(UUID_A, n, COMMIT_TIME), query("XA " + verb + " " + hex(xid))};
    }

    private static Event[] ordinary(long n, int id) {
        return new Event[] {
            gtid(UUID_A, n, COMMIT_TIME),
            query("BEGIN"),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(id, 0)),
            xid()
        };
    }

    private List<String> summary() {
        return out.stream()
                .map(
                        r ->
                                r instanceof RowChange c
                                        ? c.operation()
                                                + "#"
                                                + c.indexInTransaction()
                                                + "@"
                                                + c.gtid().transactionId()
                                                + "="
                                                + c.after().getInt(0)
                                        : "END@"
                                                + r.gtid().transactionId()
                                                + (((TransactionEnd) r).preparedGtid() == null
                                                        ? ""
                                                        : "+"
                                                                + ((TransactionEnd) r)
                                                                        .preparedGtid()
                                                                        .transactionId()))
                .collect(Collectors.toList());
    }

    /**
     * A prepared part cut by the next GTID (no XA PREPARE event): its held rows may have been
     * prepared and committed on the server all the same, so it halts rather than drop them.
     */
    @Test
    void aPreparedPartCutByTheNextGtidHalts() throws Exception {
        TransactionAssembler a = assembler(UUID_A + ":1");
        Event[] part = prepared(2, "cut", 1, 2);
        feed(a, java.util.Arrays.copyOf(part, part.length - 2)); // no XA END, no XA PREPARE
        assertThatThrownBy(() -> feed(a, gtid(UUID_A, 3, COMMIT_TIME)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.TRANSACTION_WITHOUT_END);
                            assertThat(e.getMessage()).contains(UUID_A + ":2").contains("passed 2");
                        });
    }

    @Test
    void aPreparedPartIsHeldAndDeliveredAtItsCommitUnderTheCommitsGtid() throws Exception {
        TransactionAssembler a = assembler("");
        feed(a, prepared(1, "x1", 7, 8));
        assertThat(out).isEmpty();
        assertThat(a.resumePosition()).isEqualTo(BinlogStartPosition.of(GtidSet.parse("")));

        feed(a, ordinary(2, 9));
        // The ordinary transaction passes the pending one; the prepared GTID stays out of the set.
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":2"));

        feed(a, outcome(3, "COMMIT", "x1"));
        assertThat(summary())
                .containsExactly(
                        "INSERT#0@2=9", "END@2", "INSERT#0@3=7", "INSERT#1@3=8", "END@3+1");
        assertThat(out.get(2).commitTimestampMicros()).isEqualTo(COMMIT_TIME);
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-3"));
        assertThat(out.get(4))
                .isEqualTo(new TransactionEnd(Gtid.of(UUID_A, 3), COMMIT_TIME, Gtid.of(UUID_A, 1)));
    }

    @Test
    void aRollbackDropsTheHeldRowsAndEndsBothParts() throws Exception {
        TransactionAssembler a = assembler("");
        feed(a, prepared(1, "x1", 7));
        feed(a, outcome(2, "ROLLBACK", "x1"));
        assertThat(summary()).containsExactly("END@2+1");
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
    }

    @Test
    void interleavedXaTransactionsAreDeliveredInTheOrderOfTheirCommits() throws Exception {
        TransactionAssembler a = assembler("");
        feed(a, prepared(1, "a", 1));
        feed(a, prepared(2, "b", 2));
        feed(a, outcome(3, "COMMIT", "b"));
        feed(a, ordinary(4, 4));
        feed(a, outcome(5, "COMMIT", "a"));
        assertThat(summary())
                .containsExactly(
                        "INSERT#0@3=2",
                        "END@3+2",
                        "INSERT#0@4=4",
                        "END@4",
                        "INSERT#0@5=1",
                        "END@5+1");
    }

    @Test
    void aOnePhaseCommitIsAnOrdinaryTransaction() throws Exception {
        TransactionAssembler a = assembler("");
        feed(
                a,
                gtid(UUID_A, 1, COMMIT_TIME),
                query("XA START " + hex("x")),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(5, 0), row(6, 0)),
                query("XA END " + hex("x")),
                xaPrepareEvent("x", true));
        assertThat(summary()).containsExactly("INSERT#0@1=5", "INSERT#1@1=6", "END@1");
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
    }

    @Test
    void aResumeInsideTheCommitsDeliverySkipsTheRowsAlreadyEmitted() throws Exception {
        // Checkpointed after the commit's first row: the prepared part is read again.
        TransactionAssembler a =
                assembler(BinlogStartPosition.of(GtidSet.parse(""), Gtid.of(UUID_A, 3), 1), 1000);
        feed(a, prepared(1, "x1", 7, 8));
        feed(a, outcome(3, "COMMIT", "x1"));
        assertThat(summary()).containsExactly("INSERT#1@3=8", "END@3+1");
    }

    @Test
    void aReconnectForgetsTheHeldPartsWhichTheServerSendsAgain() throws Exception {
        TransactionAssembler a = assembler("");
        feed(a, prepared(1, "x1", 7));
        feed(a, ordinary(2, 9));
        BinlogStartPosition resume = a.resumePosition();
        assertThat(resume.processed()).isEqualTo(GtidSet.parse(UUID_A + ":2"));
        a.restartFrom(resume);
        feed(a, prepared(1, "x1", 7)); // the server skips 2, which is processed
        feed(a, outcome(3, "COMMIT", "x1"));
        assertThat(summary()).containsExactly("INSERT#0@2=9", "END@2", "INSERT#0@3=7", "END@3+1");
    }

    @Test
    void holdingMoreRowsThanTheCapHaltsByName() throws Exception {
        TransactionAssembler a = assembler(BinlogStartPosition.of(GtidSet.parse("")), 2);
        feed(a, prepared(1, "a", 1));
        assertThatThrownBy(() -> feed(a, prepared(2, "b", 2, 3)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.XA_PENDING_ROWS_EXCEEDED);
                            assertThat(e.getMessage()).contains("binlog.xa.max-pending-rows");
                        });
    }

    @Test
    void theOutcomeOfAPartPreparedBeforeTheStart() throws Exception {
        TransactionAssembler a = assembler(UUID_A + ":1");
        feed(a, outcome(2, "ROLLBACK", "x1")); // nothing to drop
        assertThat(summary()).containsExactly("END@2");
        assertThatThrownBy(() -> feed(a, outcome(3, "COMMIT", "x2")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.XA_PREPARED_BEFORE_START));
    }

    @Test
    void afterASnapshotTheCommitOfAPartPreparedBeforeItsHandoffDeliversNothing() throws Exception {
        // The chunks of its tables waited for its metadata locks: they hold its rows.
        TransactionAssembler a =
                assembler(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1")), 10, true);
        feed(a, outcome(2, "COMMIT", "x1"));
        assertThat(summary()).containsExactly("END@2");
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
    }
}

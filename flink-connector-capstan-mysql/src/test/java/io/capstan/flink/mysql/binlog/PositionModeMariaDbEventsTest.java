package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.AnnotateRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.anonymousGtid;
import static io.capstan.flink.mysql.binlog.Events.delete;
import static io.capstan.flink.mysql.binlog.Events.formatDescription;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.update;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MariaDB's event shapes in position mode (docs/adr/0013, "Context"): a MARIADB_GTID event starts
 * each transaction and no BEGIN follows; a standalone one is a DDL ended by its QUERY; XA, unknown
 * event types and the other server kind's transaction starts halt by name; the file-level events
 * and a dump's artificial ones never move the processed set past what was read.
 */
class PositionModeMariaDbEventsTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T_ORDERS = 101;
    private static final String FILE_3 = "mariadb-bin.000003";
    private static final BinlogPositionAxis AXIS = BinlogPositionAxis.of(UUID_A);
    private static final int TRANSACTIONAL = MariadbGtidEventData.FL_TRANSACTIONAL;
    private static final int DDL = MariadbGtidEventData.FL_STANDALONE | MariadbGtidEventData.FL_DDL;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();
    private final List<String> ddls = new ArrayList<>(); // statements the DDL observer saw
    private PositionModeEvents positions;

    private TransactionAssembler assembler(BinlogStartPosition start) {
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(ORDERS::equals, metrics),
                        start,
                        null,
                        metrics,
                        out::add,
                        (db, sql, gtid) -> ddls.add(sql),
                        TruncateHandling.HALT,
                        1000,
                        false);
        positions = PositionModeEvents.inFrontOf(a, start);
        return a;
    }

    /** A MariaDB connection at {@code position} of file 3, as the server opens a dump there. */
    private TransactionAssembler connectedAt(long position) throws Exception {
        TransactionAssembler a =
                assembler(BinlogStartPosition.of(AXIS.before(new Position(3, position))));
        at(a, 0, 0, rotate(FILE_3, position));
        at(a, 0, 0, formatDescription("10.11.19-MariaDB-log"));
        return a;
    }

    /** Feeds events laid out one after the other from {@code offset}; returns the end offset. */
    private long feed(TransactionAssembler a, long offset, Event... events) throws Exception {
        for (Event e : events) {
            at(a, offset, offset + 50, e);
            offset += 50;
        }
        return offset;
    }

    /** Feeds one event at {@code position} whose header's next position is {@code next}. */
    private void at(TransactionAssembler a, long position, long next, Event e) throws Exception {
        EventHeaderV4 h = e.getHeader();
        h.setEventLength(next == 0 ? 50 : next - position);
        h.setNextPosition(next);
        Event t = positions.translate(e, a.processed());
        if (t != null) {
            a.onEvent(t);
        }
    }

    private static Event rotate(String file, long position) {
        RotateEventData d = new RotateEventData();
        d.setBinlogFilename(file);
        d.setBinlogPosition(position);
        return Events.event(EventType.ROTATE, d);
    }

    private static Event mariaDbGtid(long sequence, int flags) {
        return Events.mariaDbGtid(0, 7, sequence, flags);
    }

    private static Event annotate() {
        AnnotateRowsEventData d = new AnnotateRowsEventData();
        d.setRowsQuery("INSERT INTO shop.orders VALUES (1, 0)");
        return Events.event(EventType.ANNOTATE_ROWS, d);
    }

    private static Event gtidList() {
        return Events.event(EventType.MARIADB_GTID_LIST, new MariadbGtidListEventData());
    }

    private static Event[] innoDb(long sequence, int id) {
        return new Event[] {
            mariaDbGtid(sequence, TRANSACTIONAL),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(id, 0)),
            xid()
        };
    }

    private List<RowChange> rows() {
        return out.stream().filter(r -> r instanceof RowChange).map(r -> (RowChange) r).toList();
    }

    private List<Integer> emittedIds() {
        List<Integer> ids = new ArrayList<>();
        for (RowChange c : rows()) {
            ids.add((c.after() != null ? c.after() : c.before()).getInt(0));
        }
        return ids;
    }

    private List<TransactionEnd> ends() {
        return out.stream()
                .filter(r -> r instanceof TransactionEnd)
                .map(r -> (TransactionEnd) r)
                .toList();
    }

    @Test
    void aTransactionWithoutBeginEmitsItsRowsUnderItsStartOrdinalAndEndsAtItsXid()
            throws Exception {
        TransactionAssembler a = connectedAt(400);
        long end = feed(a, 400, innoDb(4, 1));

        assertThat(emittedIds()).containsExactly(1);
        Gtid start = AXIS.transactionAt(new Position(3, 400));
        assertThat(rows().get(0).gtid()).isEqualTo(start);
        assertThat(ends()).hasSize(1);
        assertThat(ends().get(0).gtid()).isEqualTo(start);
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(3, end)));
    }

    @Test
    void aMultiStatementTransactionIsOneTransactionEndedOnlyByItsXid() throws Exception {
        TransactionAssembler a = connectedAt(400);
        long end =
                feed(
                        a,
                        400,
                        mariaDbGtid(4, TRANSACTIONAL),
                        tableMap(T_ORDERS, "shop", "orders", 2),
                        insert(T_ORDERS, row(1, 0)),
                        query("SAVEPOINT s1"), // a statement inside: no DDL, no end
                        tableMap(T_ORDERS, "shop", "orders", 2),
                        update(T_ORDERS, row(1, 0), row(1, 1)),
                        delete(T_ORDERS, row(1, 1)),
                        xid());

        assertThat(rows())
                .extracting(RowChange::operation)
                .containsExactly(Operation.INSERT, Operation.UPDATE, Operation.DELETE);
        assertThat(rows()).extracting(RowChange::indexInTransaction).containsExactly(0, 1, 2);
        assertThat(ddls).as("a statement inside is no DDL").isEmpty();
        assertThat(ends()).hasSize(1);
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(3, end)));
    }

    @Test
    void aStandaloneGtidIsADdlEndedByItsQuery() throws Exception {
        TransactionAssembler a = connectedAt(400);
        long afterDdl = feed(a, 400, mariaDbGtid(4, DDL), query("CREATE TABLE shop.other (i INT)"));

        assertThat(ends()).hasSize(1);
        assertThat(ends().get(0).gtid()).isEqualTo(AXIS.transactionAt(new Position(3, 400)));
        assertThat(ddls).containsExactly("CREATE TABLE shop.other (i INT)");
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(3, afterDdl)));
        feed(a, afterDdl, innoDb(5, 2));
        assertThat(emittedIds()).containsExactly(2);
        assertThat(ends()).hasSize(2);
    }

    @Test
    void aNonTransactionalChangeEndsAtItsCommitQuery() throws Exception {
        TransactionAssembler a = connectedAt(400);
        long end =
                feed(
                        a,
                        400,
                        mariaDbGtid(4, 0),
                        tableMap(T_ORDERS, "shop", "orders", 2),
                        insert(T_ORDERS, row(3, 0)),
                        query("COMMIT"));

        assertThat(emittedIds()).containsExactly(3);
        assertThat(ends()).hasSize(1);
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(3, end)));
    }

    @Test
    void aCreateTableSelectStaysOpenForItsRows() throws Exception {
        TransactionAssembler a = connectedAt(400);
        feed(
                a,
                400,
                mariaDbGtid(4, TRANSACTIONAL),
                query("CREATE TABLE shop.copy (i INT)"),
                annotate(),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(4, 0)),
                xid());

        assertThat(emittedIds()).containsExactly(4);
        assertThat(ddls).as("its DDL's effects").containsExactly("CREATE TABLE shop.copy (i INT)");
        assertThat(ends()).as("one transaction, ended by its XID").hasSize(1);
        assertThat(out.get(out.size() - 1)).isInstanceOf(TransactionEnd.class);
    }

    @Test
    void anXaTransactionHaltsAtItsGtidEventBeforeAnyRow() throws Exception {
        for (int flag : new int[] {MariaDbEvents.FL_PREPARED_XA, MariaDbEvents.FL_COMPLETED_XA}) {
            out.clear();
            TransactionAssembler a = connectedAt(400);
            assertThatThrownBy(() -> feed(a, 400, mariaDbGtid(4, TRANSACTIONAL | flag)))
                    .isInstanceOf(CapstanHaltException.class)
                    .satisfies(
                            e ->
                                    assertThat(((CapstanHaltException) e).reason())
                                            .isEqualTo(HaltReason.XA_UNSUPPORTED))
                    .hasMessageContaining("000003:400")
                    .hasMessageContaining("Remedy");
            assertThat(rows()).isEmpty();
        }
    }

    @Test
    void anEventTheLibraryDoesNotKnowHaltsOnMariaDbAndPassesOnMySql() throws Exception {
        TransactionAssembler a = connectedAt(400);
        long inside = feed(a, 400, mariaDbGtid(4, TRANSACTIONAL));
        // e.g. WRITE_ROWS_COMPRESSED_EVENT_V1 (169): the library reads it as UNKNOWN
        assertThatThrownBy(() -> feed(a, inside, Events.event(EventType.UNKNOWN, null)))
                .isInstanceOf(CapstanHaltException.class)
                .satisfies(
                        e ->
                                assertThat(((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.UNKNOWN_BINLOG_EVENT))
                .hasMessageContaining("log_bin_compress");

        TransactionAssembler mysql =
                assembler(BinlogStartPosition.of(AXIS.before(new Position(3, 400))));
        at(mysql, 0, 0, rotate("binlog.000003", 400));
        at(mysql, 0, 0, formatDescription("8.0.36"));
        feed(mysql, 400, Events.event(EventType.UNKNOWN, null)); // MySQL's heartbeat v2 (41)
    }

    @Test
    void theOtherServerKindsTransactionStartHaltsAsAnotherServer() throws Exception {
        TransactionAssembler a = connectedAt(400);
        assertThatThrownBy(() -> feed(a, 400, anonymousGtid()))
                .satisfies(
                        e ->
                                assertThat(((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH));
        assertThatThrownBy(() -> at(a, 0, 0, formatDescription("8.0.36")))
                .satisfies(
                        e ->
                                assertThat(((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH));

        TransactionAssembler mysql =
                assembler(BinlogStartPosition.of(AXIS.before(new Position(3, 400))));
        at(mysql, 0, 0, rotate("binlog.000003", 400));
        at(mysql, 0, 0, formatDescription("8.0.36"));
        assertThatThrownBy(() -> feed(mysql, 400, mariaDbGtid(4, TRANSACTIONAL)))
                .satisfies(
                        e ->
                                assertThat(((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH));
    }

    @Test
    void aMariaDbGtidOnAJobOnMySqlGtidsHaltsAsAnotherServer() {
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(ORDERS::equals, metrics),
                        BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-5")),
                        null,
                        metrics,
                        out::add,
                        DdlObserver.NONE,
                        TruncateHandling.HALT,
                        1000,
                        false);
        assertThatThrownBy(() -> a.onEvent(mariaDbGtid(4, TRANSACTIONAL)))
                .satisfies(
                        e ->
                                assertThat(((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH));
    }

    @Test
    void aNewGtidAfterCapturedRowsWithoutAnEndHalts() throws Exception {
        TransactionAssembler a = connectedAt(400);
        long cut =
                feed(
                        a,
                        400,
                        mariaDbGtid(4, TRANSACTIONAL),
                        tableMap(T_ORDERS, "shop", "orders", 2),
                        insert(T_ORDERS, row(1, 0)));
        assertThatThrownBy(() -> feed(a, cut, mariaDbGtid(5, TRANSACTIONAL)))
                .satisfies(
                        e ->
                                assertThat(((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.TRANSACTION_WITHOUT_END));
    }

    @Test
    void processedTransactionsAreDroppedWholeOnARestart() throws Exception {
        TransactionAssembler a = connectedAt(400);
        long first = feed(a, 400, innoDb(4, 1));
        long ddl = feed(a, first, mariaDbGtid(5, DDL), query("CREATE TABLE shop.x (i INT)"));
        Event[] withAnnotation = {
            mariaDbGtid(6, 0),
            annotate(),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(2, 0)),
            query("COMMIT")
        };
        long second = feed(a, ddl, withAnnotation);
        BinlogStartPosition resume = a.resumePosition();
        assertThat(resume.processed()).isEqualTo(AXIS.before(new Position(3, second)));

        // A set from the middle: the stream is sent again from 400, only the rest is emitted.
        GtidSet mid = AXIS.before(new Position(3, first));
        out.clear();
        TransactionAssembler b = assembler(BinlogStartPosition.of(mid));
        at(b, 0, 0, rotate(FILE_3, 400));
        at(b, 0, 0, formatDescription("10.11.19-MariaDB-log"));
        feed(b, 400, innoDb(4, 1));
        feed(b, first, mariaDbGtid(5, DDL), query("CREATE TABLE shop.x (i INT)"));
        long end = feed(b, ddl, withAnnotation);
        long next = feed(b, end, innoDb(7, 3));

        assertThat(emittedIds()).containsExactly(2, 3);
        assertThat(ends())
                .extracting(TransactionEnd::gtid)
                .doesNotContain(AXIS.transactionAt(new Position(3, 400)));
        assertThat(b.processed()).isEqualTo(AXIS.before(new Position(3, next)));
    }

    @Test
    void aDumpsFileLevelAndArtificialEventsNeverPassATransactionNotYetRead() throws Exception {
        TransactionAssembler a = connectedAt(900);
        GtidSet start = AXIS.before(new Position(3, 900));
        // the file's own Gtid_list and checkpoint (positions behind the dump's start), then the
        // artificial Gtid_list without a position of its own
        at(a, 256, 299, gtidList());
        at(a, 299, 344, Events.event(EventType.BINLOG_CHECKPOINT, null));
        at(a, 0, 0, gtidList());
        at(a, 0, 4, gtidList()); // one that names the file's start
        assertThat(a.processed()).isEqualTo(start);
        feed(a, 900, innoDb(9, 5));
        assertThat(emittedIds()).containsExactly(5);
        assertThat(rows().get(0).gtid()).isEqualTo(AXIS.transactionAt(new Position(3, 900)));
    }

    @Test
    void fileLevelEventsBetweenTransactionsGrowTheSetByTheirEnd() throws Exception {
        TransactionAssembler a = connectedAt(4);
        long end = feed(a, 256, gtidList(), Events.event(EventType.BINLOG_CHECKPOINT, null));
        assertThat(a.processed()).isEqualTo(AXIS.before(new Position(3, end)));
        assertThat(rows()).isEmpty();
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.UUID_B;
import static io.capstan.flink.mysql.binlog.Events.delete;
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.skippedRows;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.update;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransactionAssemblerTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T_ORDERS = 101;
    private static final long T_AUDIT = 102; // not captured
    private static final long COMMIT = 1_700_000_000_123_456L;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();

    /** What the DDL observer saw: "database|sql|gtid@records queued before the call". */
    private final List<String> ddl = new ArrayList<>();

    private DdlObserver ddlObserver =
            (db, sql, g) -> ddl.add(db + "|" + sql + "|" + g + "@" + out.size());

    private TransactionAssembler assembler(BinlogStartPosition start, Long startTimestampMillis) {
        TableSchemaCache cache = new TableSchemaCache(ORDERS::equals, metrics);
        return new TransactionAssembler(
                cache,
                start,
                startTimestampMillis,
                metrics,
                out::add,
                (db, sql, g) -> ddlObserver.onDdl(db, sql, g),
                TruncateHandling.HALT,
                CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                false);
    }

    private TransactionAssembler assembler(BinlogStartPosition start) {
        return assembler(start, null);
    }

    private static BinlogStartPosition at(String set) {
        return BinlogStartPosition.of(GtidSet.parse(set));
    }

    private static void feed(TransactionAssembler a, Event... events) throws InterruptedException {
        for (Event e : events) {
            a.onEvent(e);
        }
    }

    /** A transaction on orders: 2 inserts, an update, a delete; an uncaptured insert in between. */
    private static Event[] mixedTransaction(long n) {
        return new Event[] {
            gtid(UUID_A, n, COMMIT),
            query("BEGIN"),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(1, 10), row(2, 20)),
            tableMap(T_AUDIT, "shop", "audit", 3),
            skippedRows(T_AUDIT),
            tableMap(T_ORDERS, "shop", "orders", 2),
            update(T_ORDERS, row(1, 10), row(1, 11)),
            delete(T_ORDERS, row(2, 20)),
            xid()
        };
    }

    private List<String> summary() {
        return out.stream()
                .map(
                        r ->
                                r instanceof RowChange
                                        ? ((RowChange) r).operation()
                                                + "#"
                                                + ((RowChange) r).indexInTransaction()
                                                + "@"
                                                + r.gtid().transactionId()
                                        : "END@" + r.gtid().transactionId())
                .collect(Collectors.toList());
    }

    @Test
    void streamsEachCapturedRowWithItsIndexAndEndsTheTransaction() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(a, mixedTransaction(5));

        assertThat(summary())
                .containsExactly("INSERT#0@5", "INSERT#1@5", "UPDATE#2@5", "DELETE#3@5", "END@5");
        RowChange update = (RowChange) out.get(2);
        assertThat(update.tableId()).isEqualTo(ORDERS);
        assertThat(update.before()).isNotNull();
        assertThat(update.after()).isNotNull();
        assertThat(update.commitTimestampMicros()).isEqualTo(COMMIT);
        assertThat(((RowChange) out.get(0)).before()).isNull();
        assertThat(((RowChange) out.get(3)).after()).isNull();
        assertThat(out.get(4)).isEqualTo(new TransactionEnd(Gtid.of(UUID_A, 5), COMMIT));
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":5"));
        assertThat(a.resumePosition()).isEqualTo(at(UUID_A + ":5"));
        assertThat(metrics.rowChangesEmitted()).isEqualTo(4);
        assertThat(metrics.transactionsSeen()).isEqualTo(1);
    }

    @Test
    void uncapturedTransactionsStillAdvanceTheProcessedSet() throws Exception {
        TransactionAssembler a = assembler(at(UUID_A + ":1-2"));
        feed(
                a,
                gtid(UUID_A, 3, COMMIT),
                query("BEGIN"),
                tableMap(T_AUDIT, "shop", "audit", 3),
                skippedRows(T_AUDIT),
                xid());

        assertThat(summary()).containsExactly("END@3");
        assertThat(a.resumePosition()).isEqualTo(at(UUID_A + ":1-3"));
    }

    @Test
    void decodedRowsOfAnUncapturedTableAreIgnoredToo() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(
                a,
                gtid(UUID_A, 1, COMMIT),
                query("BEGIN"),
                tableMap(T_AUDIT, "shop", "audit", 2),
                insert(T_AUDIT, row(1, 1)),
                xid());
        assertThat(summary()).containsExactly("END@1");
    }

    @Test
    void resumeSkipsExactlyTheRowsAlreadyEmittedOfThePartialTransaction() throws Exception {
        BinlogStartPosition start =
                BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-4"), Gtid.of(UUID_A, 5), 3);
        TransactionAssembler a = assembler(start);
        feed(a, mixedTransaction(5));
        feed(a, mixedTransaction(6)); // another transaction: nothing skipped

        assertThat(summary())
                .containsExactly(
                        "DELETE#3@5",
                        "END@5",
                        "INSERT#0@6",
                        "INSERT#1@6",
                        "UPDATE#2@6",
                        "DELETE#3@6",
                        "END@6");
        assertThat(metrics.rowChangesSkippedOnResume()).isEqualTo(3);
    }

    @Test
    void resumePositionInsideATransactionCountsQueuedRows() throws Exception {
        TransactionAssembler a = assembler(at(UUID_A + ":1-4"));
        Event[] tx = mixedTransaction(5);
        feed(a, tx[0], tx[1], tx[2], tx[3]); // two inserts queued
        assertThat(a.resumePosition())
                .isEqualTo(
                        BinlogStartPosition.of(
                                GtidSet.parse(UUID_A + ":1-4"), Gtid.of(UUID_A, 5), 2));
    }

    @Test
    void aRowThatCouldNotBeQueuedIsNotCounted() throws Exception {
        TableSchemaCache cache = new TableSchemaCache(ORDERS::equals, metrics);
        List<BinlogRecord> accepted = new ArrayList<>();
        TransactionAssembler a =
                new TransactionAssembler(
                        cache,
                        at(""),
                        null,
                        metrics,
                        r -> {
                            if (accepted.size() == 1) {
                                throw new InterruptedException("closing");
                            }
                            accepted.add(r);
                        },
                        DdlObserver.NONE,
                        TruncateHandling.HALT,
                        CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                        false);
        Event[] tx = mixedTransaction(1);
        feed(a, tx[0], tx[1], tx[2]);
        assertThatThrownBy(() -> a.onEvent(tx[3])).isInstanceOf(InterruptedException.class);
        assertThat(a.resumePosition())
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(""), Gtid.of(UUID_A, 1), 1));
    }

    @Test
    void reconnectInTheMiddleOfATransactionNeitherLosesNorDuplicates() throws Exception {
        TransactionAssembler a = assembler(at(""));
        Event[] tx = mixedTransaction(1);
        feed(a, tx[0], tx[1], tx[2], tx[3], tx[4], tx[5]); // connection drops after 2 rows
        a.restartFrom(a.resumePosition());
        feed(a, mixedTransaction(1)); // the server resends the whole transaction
        feed(a, mixedTransaction(2));

        assertThat(summary())
                .containsExactly(
                        "INSERT#0@1",
                        "INSERT#1@1",
                        "UPDATE#2@1",
                        "DELETE#3@1",
                        "END@1",
                        "INSERT#0@2",
                        "INSERT#1@2",
                        "UPDATE#2@2",
                        "DELETE#3@2",
                        "END@2");
    }

    @Test
    void reconnectDuringTheSkipOfAResumedTransactionKeepsTheFullSkip() throws Exception {
        BinlogStartPosition start =
                BinlogStartPosition.of(GtidSet.parse(""), Gtid.of(UUID_A, 1), 3);
        TransactionAssembler a = assembler(start);
        Event[] tx = mixedTransaction(1);
        feed(a, tx[0], tx[1], tx[2], tx[3]); // 2 of the 3 rows to skip passed
        assertThat(a.resumePosition()).isEqualTo(start);
        a.restartFrom(a.resumePosition());
        feed(a, mixedTransaction(1));
        assertThat(summary()).containsExactly("DELETE#3@1", "END@1");
    }

    @Test
    void resumedTransactionKeepsItsSkipUntilTheServerSendsIt() throws Exception {
        BinlogStartPosition start =
                BinlogStartPosition.of(GtidSet.parse(""), Gtid.of(UUID_A, 9), 2);
        TransactionAssembler a = assembler(start);
        feed(a, gtid(UUID_B, 1, COMMIT), query("BEGIN"), xid());
        assertThat(a.resumePosition())
                .isEqualTo(
                        BinlogStartPosition.of(
                                GtidSet.parse(UUID_B + ":1"), Gtid.of(UUID_A, 9), 2));
    }

    @Test
    void ddlOutsideBeginAndCommitQueryEndTransactions() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(a, gtid(UUID_A, 1, COMMIT), query("ALTER TABLE orders ADD COLUMN c2 INT"));
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                query("BEGIN"),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(1, 1)),
                query("COMMIT"));
        assertThat(summary()).containsExactly("END@1", "INSERT#0@2", "END@2");
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
        // Seen before its transaction's end was queued; BEGIN and COMMIT are not DDL.
        assertThat(ddl)
                .containsExactly(
                        "db|ALTER TABLE orders ADD COLUMN c2 INT|" + Gtid.of(UUID_A, 1) + "@0");
    }

    @Test
    void atomicCreateTableSelectKeepsItsRows() throws Exception {
        // MySQL 8.0.21+: CREATE TABLE ... SELECT is one transaction; the statement is logged with
        // START TRANSACTION, the selected rows follow, XID ends it. Seen with and without BEGIN.
        TransactionAssembler a = assembler(at(""));
        String ctas =
                "CREATE TABLE `orders` (\n  `id` int NOT NULL,\n  `v` int DEFAULT NULL\n) START TRANSACTION";
        feed(
                a,
                gtid(UUID_A, 1, COMMIT),
                query(ctas),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(1, 1), row(2, 2)),
                xid());
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                query("BEGIN"),
                query(ctas),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(3, 3)),
                xid());
        assertThat(summary())
                .containsExactly("INSERT#0@1", "INSERT#1@1", "END@1", "INSERT#0@2", "END@2");
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
        assertThat(ddl)
                .containsExactly(
                        "db|" + ctas + "|" + Gtid.of(UUID_A, 1) + "@0",
                        "db|" + ctas + "|" + Gtid.of(UUID_A, 2) + "@3");
    }

    @Test
    void onlyCreateStatementsEndingInStartTransactionAreAtomicCreateSelects() {
        assertThat(DdlEffects.isAtomicCreateSelect("CREATE TABLE t (id INT) START TRANSACTION"))
                .isTrue();
        assertThat(DdlEffects.isAtomicCreateSelect("create table t (id int)start transaction ;"))
                .isTrue();
        assertThat(DdlEffects.isAtomicCreateSelect("CREATE TABLE t (id INT)")).isFalse();
        assertThat(DdlEffects.isAtomicCreateSelect("ALTER TABLE t COMMENT 'START TRANSACTION'"))
                .isFalse();
        assertThat(
                        DdlEffects.isAtomicCreateSelect(
                                "CREATE TABLE t (c INT) COMMENT='x START TRANSACTION'"))
                .isFalse();
        assertThat(
                        DdlEffects.isAtomicCreateSelect(
                                "CREATE TABLE t (c INT) COMMENT='xSTART TRANSACTION'"))
                .isFalse();
        assertThat(DdlEffects.isAtomicCreateSelect("CREATE TABLE t (c INT) xSTART TRANSACTION"))
                .isFalse();
    }

    @Test
    void statementsInsideATransactionAndTransactionControlAreNotDdl() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(
                a,
                gtid(UUID_A, 1, COMMIT),
                query("BEGIN"),
                query("SAVEPOINT `s1`"),
                query("ROLLBACK TO `s1`"), // before any captured row: nothing to undo
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(1, 1)),
                query("SAVEPOINT `s2`"),
                insert(T_ORDERS, row(2, 2)),
                xid());
        feed(a, gtid(UUID_A, 2, COMMIT), query("BEGIN"), query("ROLLBACK"));
        feed(a, mixedTransaction(3));
        assertThat(ddl).isEmpty();
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-3"));
    }

    @Test
    void aHaltFromTheDdlObserverKeepsTheTransactionOpen() throws Exception {
        ddlObserver =
                (db, sql, g) -> {
                    throw new CapstanHaltException(
                            HaltReason.SNAPSHOT_SCHEMA_DRIFTED, "drifted at " + g);
                };
        TransactionAssembler a = assembler(at(UUID_A + ":1"));
        assertThatThrownBy(() -> feed(a, gtid(UUID_A, 2, COMMIT), query("DROP TABLE orders")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED));
        assertThat(out).isEmpty();
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
    }

    @Test
    void anyOtherExceptionOfTheDdlObserverIsWrappedWithoutItsMessage() {
        ddlObserver =
                (db, sql, g) -> {
                    throw new IllegalArgumentException("observer saw " + sql);
                };
        TransactionAssembler a = assembler(at(""));
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 1, COMMIT),
                                        query("CREATE TABLE x (a INT DEFAULT 4242)")))
                .isInstanceOfSatisfying(
                        TransactionAssembler.DdlObserverFailure.class,
                        e -> {
                            assertThat(e.getMessage())
                                    .contains(IllegalArgumentException.class.getName())
                                    .doesNotContain("4242");
                            assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
                        });
        assertThat(out).isEmpty();
    }

    @Test
    void transactionsCommittedBeforeTheStartTimestampAreEndedWithoutRows() throws Exception {
        long startMillis = 1_700_000_000_000L;
        TransactionAssembler a = assembler(at(""), startMillis);
        Event[] early = mixedTransaction(1);
        early[0] = gtid(UUID_A, 1, startMillis * 1000 - 1);
        feed(a, early);
        Event[] onTime = mixedTransaction(2);
        onTime[0] = gtid(UUID_A, 2, startMillis * 1000);
        feed(a, onTime);

        assertThat(summary())
                .containsExactly(
                        "END@1", "INSERT#0@2", "INSERT#1@2", "UPDATE#2@2", "DELETE#3@2", "END@2");
        assertThat(metrics.transactionsFilteredByTimestamp()).isEqualTo(1);
    }

    @Test
    void xaStatementsInAnUnreadableFormHalt() throws Exception {
        TransactionAssembler a = assembler(at(""));
        assertThatThrownBy(() -> feed(a, gtid(UUID_A, 1, COMMIT), query("XA COMMIT 'x'")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.XA_UNSUPPORTED));
        TransactionAssembler b = assembler(at(""));
        assertThatThrownBy(() -> feed(b, gtid(UUID_A, 1, COMMIT), Events.xaPrepare()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.XA_UNSUPPORTED));
    }

    @Test
    void rowsOfAnUnmappedTableIdHalt() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(a, gtid(UUID_A, 1, COMMIT), query("BEGIN"));
        assertThatThrownBy(() -> a.onEvent(insert(999, row(1, 1))))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.UNMAPPED_TABLE_ID);
                            assertThat(e.getMessage()).contains("999");
                        });
    }

    @Test
    void aPartialRowImageHalts() throws Exception {
        TransactionAssembler a = assembler(at(""));
        Event ins = insert(T_ORDERS, row(1, 10));
        ((WriteRowsEventData) ins.getData()).getIncludedColumns().clear(1);
        feed(a, gtid(UUID_A, 1, COMMIT), query("BEGIN"), tableMap(T_ORDERS, "shop", "orders", 2));
        assertThatThrownBy(() -> a.onEvent(ins))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HaltReason.BINLOG_ROW_IMAGE_NOT_FULL));
    }

    @Test
    void anonymousTransactionsHalt() {
        TransactionAssembler a = assembler(at(""));
        assertThatThrownBy(() -> a.onEvent(Events.event(EventType.ANONYMOUS_GTID, null)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.GTID_MODE_CHANGED));
    }

    @Test
    void rowsOutsideAnyGtidTransactionHaltInsteadOfBeingDropped() throws Exception {
        // What a transaction opened by an event the library does not know (a tagged GTID) looks
        // like.
        TransactionAssembler a = assembler(at(""));
        feed(a, mixedTransaction(1));
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        query("BEGIN"),
                                        tableMap(T_ORDERS, "shop", "orders", 2),
                                        insert(T_ORDERS, row(9, 9))))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(HaltReason.UNSUPPORTED_SERVER_VERSION))
                .hasMessageContaining("tagged GTIDs")
                .hasMessageContaining("Remedy");
    }

    @Test
    void schemaIsBuiltOncePerShapeNotPerTableMap() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(a, mixedTransaction(1));
        feed(a, mixedTransaction(2));
        // Same table under a new numeric id (FLUSH TABLES): reused.
        feed(
                a,
                gtid(UUID_A, 3, COMMIT),
                query("BEGIN"),
                tableMap(555, "shop", "orders", 2),
                insert(555, row(3, 3)),
                xid());
        assertThat(metrics.schemaBuilds()).isEqualTo(1);
        // A new shape (a column added): rebuilt.
        feed(
                a,
                gtid(UUID_A, 4, COMMIT),
                query("BEGIN"),
                tableMap(556, "shop", "orders", 3),
                insert(556, row(4, 4, 4)),
                xid());
        assertThat(metrics.schemaBuilds()).isEqualTo(2);
        RowChange last = (RowChange) out.get(out.size() - 2);
        assertThat(last.after().getArity()).isEqualTo(3);
    }

    @Test
    void toStringShowsNoValues() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(
                a,
                gtid(UUID_A, 1, COMMIT),
                query("BEGIN"),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(424242, 737373)),
                xid());
        assertThat(out.get(0).toString())
                .doesNotContain("424242")
                .doesNotContain("737373")
                .contains("shop.orders");
    }

    @Test
    void operationsOfRowChanges() throws Exception {
        TransactionAssembler a = assembler(at(""));
        feed(a, mixedTransaction(1));
        assertThat(out.subList(0, 4))
                .extracting(r -> ((RowChange) r).operation())
                .containsExactly(
                        Operation.INSERT, Operation.INSERT, Operation.UPDATE, Operation.DELETE);
    }
}

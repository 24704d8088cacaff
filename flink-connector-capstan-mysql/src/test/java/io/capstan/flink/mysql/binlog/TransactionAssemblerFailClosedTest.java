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
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.event;
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.skippedRows;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Scripted events the stream cannot deliver exactly: each halts by name, or passes by design. */
class TransactionAssemblerFailClosedTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T_ORDERS = 101;
    private static final long COMMIT = 1_700_000_000_123_456L;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();
    private TableFilter filter = TableFilter.of(Set.of(ORDERS));
    private boolean snapshotHoldsEverything;

    private TransactionAssembler assembler(TruncateHandling truncate, Long startTimestampMillis) {
        DdlObserver observer =
                new DdlObserver() {
                    @Override
                    public void onDdl(String database, String sql, Gtid gtid) {}

                    @Override
                    public boolean snapshotHolds(TableId table, Gtid gtid) {
                        return snapshotHoldsEverything;
                    }
                };
        return new TransactionAssembler(
                new TableSchemaCache(filter, metrics),
                BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1")),
                startTimestampMillis,
                metrics,
                out::add,
                observer,
                truncate,
                CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                false);
    }

    private TransactionAssembler assembler() {
        return assembler(TruncateHandling.HALT, null);
    }

    private static Event queryIn(String database, String sql) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase(database);
        return event(EventType.QUERY, q);
    }

    private static void feed(TransactionAssembler a, Event... events) throws InterruptedException {
        for (Event e : events) {
            a.onEvent(e);
        }
    }

    /** Feeds a statement-logged transaction; returns its halt reason, or null when it passed. */
    private HaltReason statementTransaction(String database, String sql) throws Exception {
        TransactionAssembler a = assembler();
        try {
            feed(a, gtid(UUID_A, 2, COMMIT), query("BEGIN"), queryIn(database, sql), xid());
            assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
            return null;
        } catch (CapstanHaltException e) {
            assertThat(e.getMessage()).doesNotContain("VALUES").doesNotContain("SET v");
            assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
            return e.reason();
        }
    }

    @Test
    void statementLoggedChangesOfCapturedTablesHalt() throws Exception {
        HaltReason sbc = HaltReason.STATEMENT_BASED_CHANGE;
        assertThat(statementTransaction("shop", "INSERT INTO orders VALUES (1, 2)")).isEqualTo(sbc);
        assertThat(statementTransaction("db", "UPDATE `shop`.`orders` SET v = 1")).isEqualTo(sbc);
        assertThat(statementTransaction("shop", "replace into ORDERS values (1, 2)"))
                .isEqualTo(sbc);
        assertThat(statementTransaction("db", "DELETE a FROM audit a JOIN shop.orders o"))
                .isEqualTo(sbc);
        assertThat(statementTransaction("shop", "LOAD DATA INFILE 'f' INTO TABLE orders"))
                .isEqualTo(sbc);
        // a stored function writing somewhere: cannot be told
        assertThat(statementTransaction("db", "SELECT `db`.`f`(1)")).isEqualTo(sbc);
    }

    /** A statement-logged LOAD DATA arrives as EXECUTE_LOAD_QUERY, whose text is not decoded. */
    @Test
    void aStatementLoggedLoadDataHaltsWhateverItsTable() {
        assertThatThrownBy(
                        () ->
                                feed(
                                        assembler(),
                                        gtid(UUID_A, 2, COMMIT),
                                        query("BEGIN"),
                                        Events.event(EventType.EXECUTE_LOAD_QUERY, null),
                                        xid()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.STATEMENT_BASED_CHANGE);
                            assertThat(e.getMessage()).contains("LOAD DATA", UUID_A + ":2");
                        });
    }

    @Test
    void statementLoggedChangesOfUncapturedTablesPass() throws Exception {
        assertThat(statementTransaction("shop", "INSERT INTO audit VALUES (1, 2)")).isNull();
        assertThat(statementTransaction("db", "UPDATE orders SET v = 1")).isNull(); // db.orders
        assertThat(statementTransaction("shop", "INSERT INTO audit SELECT * FROM orders")).isNull();
        assertThat(out).hasSize(3).allMatch(r -> r instanceof TransactionEnd);
    }

    @Test
    void theHaltNamesTheTableAndTransaction() {
        TransactionAssembler a = assembler();
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 2, COMMIT),
                                        query("BEGIN"),
                                        queryIn("shop", "INSERT INTO orders VALUES (1, 'secret')")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.STATEMENT_BASED_CHANGE);
                            assertThat(e.getMessage())
                                    .contains("shop.orders", UUID_A + ":2")
                                    .doesNotContain("secret");
                        });
    }

    @Test
    void statementsOfTransactionsBeforeTheStartTimestampAreDroppedLikeTheirRows() throws Exception {
        TransactionAssembler a = assembler(TruncateHandling.HALT, COMMIT / 1000 + 1);
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                query("BEGIN"),
                queryIn("shop", "INSERT INTO orders VALUES (1)"),
                xid(),
                gtid(UUID_A, 3, COMMIT),
                queryIn("shop", "TRUNCATE orders"));
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-3"));
    }

    private HaltReason ddl(TruncateHandling truncate, String database, String sql)
            throws Exception {
        out.clear();
        TransactionAssembler a = assembler(truncate, null);
        try {
            feed(a, gtid(UUID_A, 2, COMMIT), queryIn(database, sql));
            assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
            return null;
        } catch (CapstanHaltException e) {
            assertThat(out).isEmpty();
            assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
            return e.reason();
        }
    }

    @Test
    void truncateDropAndRenameOfACapturedTableHaltByDefault() throws Exception {
        HaltReason truncated = HaltReason.CAPTURED_TABLE_TRUNCATED;
        HaltReason removed = HaltReason.CAPTURED_TABLE_REMOVED;
        TruncateHandling halt = TruncateHandling.HALT;
        assertThat(ddl(halt, "shop", "TRUNCATE TABLE orders")).isEqualTo(truncated);
        assertThat(ddl(halt, "db", "truncate `shop`.`Orders`")).isEqualTo(truncated);
        assertThat(ddl(halt, "shop", "DROP TABLE IF EXISTS audit, orders")).isEqualTo(removed);
        assertThat(ddl(halt, "", "RENAME TABLE shop.orders TO shop.orders_old")).isEqualTo(removed);
        assertThat(ddl(halt, "shop", "ALTER TABLE orders RENAME TO orders_old")).isEqualTo(removed);
        assertThat(ddl(halt, "db", "DROP DATABASE shop")).isEqualTo(removed);
        // not removals of the captured table
        assertThat(ddl(halt, "shop", "RENAME TABLE orders_new TO orders")).isNull();
        assertThat(ddl(halt, "shop", "ALTER TABLE orders RENAME COLUMN a TO b")).isNull();
        assertThat(ddl(halt, "shop", "ALTER TABLE orders ADD COLUMN c INT")).isNull();
        assertThat(ddl(halt, "shop", "DROP TEMPORARY TABLE orders")).isNull();
        assertThat(ddl(halt, "db", "TRUNCATE TABLE orders")).isNull(); // db.orders
        assertThat(ddl(halt, "shop", "DROP TABLE audit")).isNull();
        assertThat(ddl(halt, "db", "DROP DATABASE other")).isNull();
    }

    @Test
    void aPredicateFilterHaltsOnAnyDroppedDatabase() throws Exception {
        filter = ORDERS::equals;
        assertThat(ddl(TruncateHandling.HALT, "db", "DROP DATABASE other"))
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
    }

    @Test
    void truncateCanBeEmittedAsAChangeOrSkipped() throws Exception {
        assertThat(ddl(TruncateHandling.EMIT, "shop", "TRUNCATE orders")).isNull();
        assertThat(out).hasSize(2);
        RowChange t = (RowChange) out.get(0);
        assertThat(t.operation()).isEqualTo(Operation.TRUNCATE);
        assertThat(t.tableId()).isEqualTo(ORDERS);
        assertThat(t.before()).isNull();
        assertThat(t.after()).isNull();
        assertThat(t.schema()).isNull();
        assertThat(t.indexInTransaction()).isZero();
        assertThat(out.get(1)).isEqualTo(new TransactionEnd(Gtid.of(UUID_A, 2), COMMIT));

        assertThat(ddl(TruncateHandling.SKIP, "shop", "TRUNCATE orders")).isNull();
        assertThat(out).containsExactly(new TransactionEnd(Gtid.of(UUID_A, 2), COMMIT));
        // DROP halts whatever the truncate handling
        assertThat(ddl(TruncateHandling.SKIP, "shop", "DROP TABLE orders"))
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
        assertThat(ddl(TruncateHandling.EMIT, "shop", "DROP TABLE orders"))
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
    }

    /** MariaDB's system versioning turns a captured table's row events into history: halt. */
    @Test
    void aCapturedTableMadeSystemVersionedHaltsWhateverTheTruncateHandling() throws Exception {
        HaltReason versioned = HaltReason.SYSTEM_VERSIONED_TABLE;
        for (TruncateHandling t : TruncateHandling.values()) {
            assertThat(ddl(t, "shop", "ALTER TABLE orders ADD SYSTEM VERSIONING"))
                    .isEqualTo(versioned);
        }
        assertThat(ddl(TruncateHandling.HALT, "", "alter table shop.orders add system versioning"))
                .isEqualTo(versioned);
        assertThat(
                        ddl(
                                TruncateHandling.HALT,
                                "shop",
                                "ALTER TABLE orders ADD COLUMN x INT WITH SYSTEM VERSIONING"))
                .isEqualTo(versioned);
        assertThat(ddl(TruncateHandling.HALT, "shop", "ALTER TABLE audit ADD SYSTEM VERSIONING"))
                .isNull();
        assertThat(ddl(TruncateHandling.HALT, "shop", "ALTER TABLE orders DROP SYSTEM VERSIONING"))
                .isNull();
    }

    /** An ALTER giving a captured table a column of MariaDB's UUID, INET4 or INET6 halts. */
    @Test
    void aCapturedTableGivenAMariaDbOwnTypeHalts() throws Exception {
        HaltReason unsupported = HaltReason.UNSUPPORTED_COLUMN_TYPE;
        assertThat(ddl(TruncateHandling.HALT, "shop", "ALTER TABLE orders ADD COLUMN u UUID"))
                .isEqualTo(unsupported);
        assertThat(ddl(TruncateHandling.HALT, "", "alter table shop.orders modify a inet6"))
                .isEqualTo(unsupported);
        assertThat(ddl(TruncateHandling.HALT, "shop", "ALTER TABLE audit ADD COLUMN u UUID"))
                .isNull();
        assertThat(ddl(TruncateHandling.HALT, "shop", "ALTER TABLE orders ADD uuid CHAR(36)"))
                .isNull();
    }

    /** MariaDB's CREATE OR REPLACE TABLE of a captured table drops it: halt as a DROP does. */
    @Test
    void createOrReplaceOfACapturedTableHaltsAsADrop() throws Exception {
        assertThat(ddl(TruncateHandling.SKIP, "shop", "CREATE OR REPLACE TABLE orders (id INT)"))
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
        assertThat(ddl(TruncateHandling.HALT, "shop", "CREATE OR REPLACE TABLE audit (id INT)"))
                .isNull();
    }

    /** ALTERs that remove or replace some rows without row events: never passed, never emitted. */
    @Test
    void partitionTablespaceAndEngineChangesThatDropRowsHaltOrAreSkipped() throws Exception {
        HaltReason truncated = HaltReason.CAPTURED_TABLE_TRUNCATED;
        TruncateHandling halt = TruncateHandling.HALT;
        assertThat(ddl(halt, "shop", "ALTER TABLE orders TRUNCATE PARTITION p0"))
                .isEqualTo(truncated);
        assertThat(ddl(halt, "shop", "ALTER TABLE orders DROP PARTITION p0, p1"))
                .isEqualTo(truncated);
        assertThat(ddl(halt, "shop", "ALTER TABLE orders EXCHANGE PARTITION p0 WITH TABLE audit"))
                .isEqualTo(truncated);
        assertThat(ddl(halt, "shop", "ALTER TABLE audit EXCHANGE PARTITION p0 WITH TABLE orders"))
                .isEqualTo(truncated);
        assertThat(ddl(halt, "shop", "ALTER TABLE orders DISCARD TABLESPACE")).isEqualTo(truncated);
        assertThat(ddl(halt, "shop", "ALTER TABLE orders ENGINE = BLACKHOLE")).isEqualTo(truncated);
        assertThat(ddl(TruncateHandling.EMIT, "shop", "ALTER TABLE orders TRUNCATE PARTITION p0"))
                .isEqualTo(truncated);
        assertThat(ddl(TruncateHandling.SKIP, "shop", "ALTER TABLE orders DROP PARTITION p0"))
                .isNull();
        // keeping every row: pass
        assertThat(
                        ddl(
                                halt,
                                "shop",
                                "ALTER TABLE orders ADD PARTITION (PARTITION p9 VALUES LESS"
                                        + " THAN (900))"))
                .isNull();
        assertThat(ddl(halt, "shop", "ALTER TABLE orders DROP COLUMN note")).isNull();
        assertThat(ddl(halt, "shop", "ALTER TABLE audit TRUNCATE PARTITION p0")).isNull();
    }

    /** An emitted TRUNCATE names exactly the captured table; a doubt over case halts. */
    @Test
    void aTruncateWhoseNameDiffersInCaseIsNotEmitted() throws Exception {
        assertThat(ddl(TruncateHandling.EMIT, "shop", "TRUNCATE Orders"))
                .isEqualTo(HaltReason.CAPTURED_TABLE_TRUNCATED);
        assertThat(ddl(TruncateHandling.EMIT, "SHOP", "TRUNCATE orders"))
                .isEqualTo(HaltReason.CAPTURED_TABLE_TRUNCATED);
    }

    /** A statement the parser cannot read is still told by its first word after comments. */
    @Test
    void anUnreadableDropAfterALeadingCommentHalts() throws Exception {
        HaltReason removed = HaltReason.CAPTURED_TABLE_REMOVED;
        assertThat(ddl(TruncateHandling.HALT, "shop", "/* app */ DROP TABLE orders 'unterminated"))
                .isEqualTo(removed);
        assertThat(ddl(TruncateHandling.HALT, "shop", "# app\nDROP TABLE orders 'unterminated"))
                .isEqualTo(removed);
        assertThat(ddl(TruncateHandling.HALT, "shop", "-- app\nDROP TABLE orders 'unterminated"))
                .isEqualTo(removed);
    }

    @Test
    void anEmittedTruncateIsSkippedWhenResumedAfterIt() throws Exception {
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(filter, metrics),
                        BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1"), Gtid.of(UUID_A, 2), 1),
                        null,
                        metrics,
                        out::add,
                        DdlObserver.NONE,
                        TruncateHandling.EMIT,
                        CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                        false);
        feed(a, gtid(UUID_A, 2, COMMIT), queryIn("shop", "TRUNCATE orders"));
        assertThat(out).containsExactly(new TransactionEnd(Gtid.of(UUID_A, 2), COMMIT));
    }

    @Test
    void whatTheSnapshotAlreadyShowsPasses() throws Exception {
        snapshotHoldsEverything = true;
        assertThat(ddl(TruncateHandling.HALT, "shop", "TRUNCATE orders")).isNull();
        assertThat(ddl(TruncateHandling.EMIT, "shop", "TRUNCATE orders")).isNull();
        assertThat(out).hasSize(1);
        assertThat(ddl(TruncateHandling.HALT, "shop", "DROP TABLE orders")).isNull();
    }

    /**
     * A ROLLBACK query (whole, or to a savepoint) after captured rows: the server logs one when the
     * transaction also changed a non-transactional table; the rows before it may be undone. MySQL
     * 8.0.15 with GTIDs on refuses such transactions, so this is the event sequence other servers
     * write: {@code BEGIN}, rows, {@code ROLLBACK} / {@code ROLLBACK TO `sp`}.
     */
    @Test
    void aRollbackAfterCapturedRowsHaltsByName() throws Exception {
        for (String rollback :
                List.of(
                        "ROLLBACK",
                        "ROLLBACK TO `sp`",
                        "rollback to savepoint sp",
                        "ROLLBACK WORK TO sp",
                        "ROLLBACK AND NO CHAIN")) {
            TransactionAssembler a = assembler();
            feed(
                    a,
                    gtid(UUID_A, 2, COMMIT),
                    query("BEGIN"),
                    query("SAVEPOINT `sp`"),
                    tableMap(T_ORDERS, "shop", "orders", 2),
                    insert(T_ORDERS, row(1, 1)));
            assertThatThrownBy(() -> feed(a, query(rollback)))
                    .as(rollback)
                    .isInstanceOfSatisfying(
                            CapstanHaltException.class,
                            e -> {
                                assertThat(e.reason())
                                        .isEqualTo(HaltReason.TRANSACTION_ROLLED_BACK);
                                assertThat(e.getMessage()).contains(UUID_A + ":2");
                            });
        }
    }

    /** Before any captured row, a ROLLBACK undoes nothing captured: it ends the transaction. */
    @Test
    void aRollbackBeforeAnyCapturedRowPasses() throws Exception {
        TransactionAssembler a = assembler();
        feed(a, gtid(UUID_A, 2, COMMIT), query("BEGIN"), query("ROLLBACK TO `sp`"));
        feed(a, tableMap(T_ORDERS, "shop", "orders", 2), insert(T_ORDERS, row(1, 1)), xid());
        feed(a, gtid(UUID_A, 3, COMMIT), query("BEGIN"), query("ROLLBACK"));
        feed(a, gtid(UUID_A, 4, COMMIT), query("BEGIN"), query("ROLLBACK WORK AND NO CHAIN"));
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-4"));
        assertThat(out).hasSize(4); // the row, three ends
    }

    @Test
    void aTransactionWithCapturedRowsButNoEndHaltsWhenTheNextBegins() throws Exception {
        TransactionAssembler a = assembler();
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                query("BEGIN"),
                tableMap(T_ORDERS, "shop", "orders", 2),
                insert(T_ORDERS, row(1, 1)));
        assertThatThrownBy(() -> feed(a, gtid(UUID_A, 3, COMMIT)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.TRANSACTION_WITHOUT_END);
                            assertThat(e.getMessage()).contains(UUID_A + ":2");
                        });
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
    }

    @Test
    void aTransactionWithoutCapturedRowsAndWithoutEndOnlyWarns() throws Exception {
        TransactionAssembler a = assembler();
        feed(a, gtid(UUID_A, 2, COMMIT), query("BEGIN"), skippedRows(102));
        feed(a, gtid(UUID_A, 3, COMMIT), query("BEGIN"), xid());
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1:3"));
    }

    @Test
    void aReconnectInsideATransactionIsNotAMissingEnd() throws Exception {
        TransactionAssembler a = assembler();
        Event[] tx = {
            gtid(UUID_A, 2, COMMIT),
            query("BEGIN"),
            tableMap(T_ORDERS, "shop", "orders", 2),
            insert(T_ORDERS, row(1, 1)),
            insert(T_ORDERS, row(2, 2)),
            xid()
        };
        feed(a, tx[0], tx[1], tx[2], tx[3]);
        a.restartFrom(a.resumePosition());
        feed(a, tx);
        assertThat(out.stream().filter(r -> r instanceof RowChange)).hasSize(2);
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
    }

    @Test
    void partialRowUpdatesHaltUnlessTheirTableIsUncaptured() throws Exception {
        TransactionAssembler a = assembler();
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                query("BEGIN"),
                event(EventType.PARTIAL_UPDATE_ROWS_EVENT, new SkippedRowsEventData(102)),
                xid());
        assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 3, COMMIT),
                                        query("BEGIN"),
                                        event(EventType.PARTIAL_UPDATE_ROWS_EVENT, null)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.PARTIAL_ROW_UPDATE));
    }
}

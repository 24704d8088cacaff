package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
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
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static io.capstan.flink.mysql.binlog.Events.insert;
import static io.capstan.flink.mysql.binlog.Events.query;
import static io.capstan.flink.mysql.binlog.Events.row;
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A stream-only job's DROP of a captured table passes only when no row of it was emitted. */
class DropBeforeRowsTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long T = 101;
    private static final long COMMIT = 1_700_000_000_123_456L;

    private final List<BinlogRecord> out = new ArrayList<>();

    private TransactionAssembler assembler(boolean streamOnly) {
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(
                                TableFilter.of(Set.of(ORDERS)), new BinlogStreamerMetrics()),
                        BinlogStartPosition.of(GtidSet.empty()),
                        null,
                        new BinlogStreamerMetrics(),
                        out::add,
                        DdlObserver.NONE,
                        TruncateHandling.HALT,
                        CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                        false);
        if (streamOnly) {
            a.streamOnly();
        }
        return a;
    }

    private static Event ddl(String sql) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase("shop");
        return Events.event(EventType.QUERY, q);
    }

    private static void feed(TransactionAssembler a, Event... events) throws InterruptedException {
        for (Event e : events) {
            a.onEvent(e);
        }
    }

    private static Event[] insertTx(long n) {
        return new Event[] {
            gtid(UUID_A, n, COMMIT),
            query("BEGIN"),
            tableMap(T, "shop", "orders", 2),
            insert(T, row(1, 10)),
            xid()
        };
    }

    @Test
    void aDropOfATableCreatedInTheStreamWithoutRowsPasses() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(
                a,
                gtid(UUID_A, 1, COMMIT),
                ddl("CREATE TABLE orders (id INT PRIMARY KEY, a INT)"),
                gtid(UUID_A, 2, COMMIT),
                ddl("DROP TABLE orders"),
                gtid(UUID_A, 3, COMMIT),
                ddl("CREATE TABLE orders (id INT PRIMARY KEY, b INT)"));
        feed(a, insertTx(4));
        assertThat(out.stream().filter(r -> r instanceof RowChange)).hasSize(1);
        // the new incarnation has a row now: its DROP halts
        assertThatThrownBy(() -> feed(a, gtid(UUID_A, 5, COMMIT), ddl("DROP TABLE orders")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
                            assertThat(e.getMessage()).contains("shop.orders");
                        });
    }

    @Test
    void aDropOfATableThatExistedAtTheStartHalts() {
        TransactionAssembler a = assembler(true);
        assertThatThrownBy(() -> feed(a, gtid(UUID_A, 1, COMMIT), ddl("DROP TABLE orders")))
                .isInstanceOf(CapstanHaltException.class);
    }

    @Test
    void aCreateIfNotExistsOrATemporaryTableProvesNothing() {
        TransactionAssembler a = assembler(true);
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 1, COMMIT),
                                        ddl("CREATE TABLE IF NOT EXISTS orders (id INT)"),
                                        gtid(UUID_A, 2, COMMIT),
                                        ddl("CREATE TEMPORARY TABLE orders (id INT)"),
                                        gtid(UUID_A, 3, COMMIT),
                                        ddl("DROP TABLE orders")))
                .isInstanceOf(CapstanHaltException.class);
    }

    @Test
    void afterASnapshotEveryDropHalts() {
        TransactionAssembler a = assembler(false);
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 1, COMMIT),
                                        ddl("CREATE TABLE orders (id INT)"),
                                        gtid(UUID_A, 2, COMMIT),
                                        ddl("DROP TABLE orders")))
                .isInstanceOf(CapstanHaltException.class);
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TableCaptured;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.TableSelection;

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
import static io.capstan.flink.mysql.binlog.Events.tableMap;
import static io.capstan.flink.mysql.binlog.Events.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stream's capture of tables created while it runs (TransactionAssembler with the rule). */
class CreatedTableCaptureTest {

    private static final TableId ORDERS_1 = TableId.of("shop", "orders_1");
    private static final TableId ORDERS_2 = TableId.of("shop", "orders_2");
    private static final TableSelection SELECTION =
            TableSelection.of(List.of(), List.of("shop\\.orders_\\d+"));
    private static final long COMMIT = 1_700_000_000_123_456L;

    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final List<BinlogRecord> out = new ArrayList<>();

    private TransactionAssembler assembler(boolean afterSnapshot, CreatedTablesConfig created) {
        TableSchemaCache cache = new TableSchemaCache(TableFilter.of(Set.of(ORDERS_1)), metrics);
        TransactionAssembler a =
                new TransactionAssembler(
                        cache,
                        BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1")),
                        null,
                        metrics,
                        out::add,
                        DdlObserver.NONE,
                        TruncateHandling.HALT,
                        CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                        false);
        a.captureCreatedTables(new CreatedTableCapture(created, afterSnapshot));
        return a;
    }

    private TransactionAssembler assembler(boolean afterSnapshot) {
        return assembler(afterSnapshot, CreatedTablesConfig.of(SELECTION::matches));
    }

    private static Event ddl(long n, String database, String sql) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase(database);
        return event(EventType.QUERY, q);
    }

    private static void feed(TransactionAssembler a, Event... events) throws Exception {
        for (Event e : events) {
            a.onEvent(e);
        }
    }

    /** One transaction inserting {@code value} into table id 7 ({@code table}). */
    private static Event[] write(long n, String table, int value) {
        return new Event[] {
            gtid(UUID_A, n, COMMIT),
            query("BEGIN"),
            tableMap(7, "shop", table, 2),
            insert(7, row(value, value)),
            xid()
        };
    }

    private List<String> summary() {
        List<String> s = new ArrayList<>();
        for (BinlogRecord r : out) {
            long n = r.gtid().transactionId();
            if (r instanceof RowChange c) {
                s.add(c.tableId().table() + "#" + c.indexInTransaction() + "@" + n);
            } else if (r instanceof TableCaptured c) {
                s.add("CAPTURED " + c.table() + "@" + n);
            } else {
                s.add("END@" + n);
            }
        }
        return s;
    }

    @Test
    void aMatchingCreatedTableIsCapturedFromItsCreateOn() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, write(2, "orders_2", 1)); // before the CREATE: a table of that name, uncaptured
        feed(a, gtid(UUID_A, 3, COMMIT), ddl(3, "shop", "CREATE TABLE orders_2 (id INT)"));
        feed(a, write(4, "orders_2", 2));
        assertThat(summary())
                .containsExactly(
                        "END@2", "CAPTURED shop.orders_2@3", "END@3", "orders_2#0@4", "END@4");
    }

    @Test
    void aNonMatchingOrTemporaryTableIsNotCaptured() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, gtid(UUID_A, 2, COMMIT), ddl(2, "shop", "CREATE TABLE shop.audit (id INT)"));
        feed(a, gtid(UUID_A, 3, COMMIT), ddl(3, "shop", "CREATE TEMPORARY TABLE orders_9 (x INT)"));
        feed(a, write(4, "audit", 1));
        assertThat(summary()).containsExactly("END@2", "END@3", "END@4");
    }

    @Test
    void aMatchingTableCreatedSystemVersionedHaltsAndANonMatchingOnePasses() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                ddl(2, "shop", "CREATE TABLE audit (id INT) WITH SYSTEM VERSIONING"));
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 3, COMMIT),
                                        ddl(
                                                3,
                                                "shop",
                                                "CREATE TABLE orders_2 (id INT)"
                                                        + " WITH SYSTEM VERSIONING")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SYSTEM_VERSIONED_TABLE);
                            assertThat(e.getMessage())
                                    .contains("shop.orders_2")
                                    .contains("DROP SYSTEM VERSIONING");
                        });
        assertThat(summary()).containsExactly("END@2");
    }

    @Test
    void aMatchingTableCreatedWithAMariaDbOwnTypeHalts() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, gtid(UUID_A, 2, COMMIT), ddl(2, "shop", "CREATE TABLE audit (id INT, u UUID)"));
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        gtid(UUID_A, 3, COMMIT),
                                        ddl(3, "shop", "CREATE TABLE orders_2 (id INT, a INET4)")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.UNSUPPORTED_COLUMN_TYPE);
                            assertThat(e.getMessage())
                                    .contains("shop.orders_2")
                                    .contains("CHAR(36)");
                        });
        assertThat(summary()).containsExactly("END@2");
    }

    @Test
    void createLikeAndIfNotExistsOfANewTableAreCaptured() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                ddl(2, "", "CREATE TABLE shop.orders_2 LIKE shop.orders_1"));
        feed(
                a,
                gtid(UUID_A, 3, COMMIT),
                ddl(3, "shop", "CREATE TABLE IF NOT EXISTS orders_3 (x INT)"));
        assertThat(summary())
                .containsExactly(
                        "CAPTURED shop.orders_2@2", "END@2", "CAPTURED shop.orders_3@3", "END@3");
    }

    @Test
    void ifNotExistsOfACapturedTableChangesNothing() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, write(2, "orders_1", 1));
        long schemas = metrics.schemaBuilds();
        feed(
                a,
                gtid(UUID_A, 3, COMMIT),
                ddl(3, "shop", "CREATE TABLE IF NOT EXISTS orders_1 (x INT)"));
        feed(a, write(4, "orders_1", 2));
        assertThat(summary())
                .containsExactly("orders_1#0@2", "END@2", "END@3", "orders_1#0@4", "END@4");
        assertThat(metrics.schemaBuilds()).isEqualTo(schemas);
    }

    @Test
    void anAtomicCreateSelectCapturesTheTableBeforeItsRows() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(
                a,
                gtid(UUID_A, 2, COMMIT),
                ddl(2, "shop", "CREATE TABLE `orders_2` (`id` int) START TRANSACTION"),
                tableMap(7, "shop", "orders_2", 2),
                insert(7, row(1, 1), row(2, 2)),
                xid());
        assertThat(summary())
                .containsExactly(
                        "CAPTURED shop.orders_2@2", "orders_2#0@2", "orders_2#1@2", "END@2");
    }

    @Test
    void aNameWrittenInOtherCaseIsCapturedInLowerCaseToo() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, gtid(UUID_A, 2, COMMIT), ddl(2, "", "CREATE TABLE Shop.ORDERS_2 (x INT)"));
        feed(a, write(3, "orders_2", 1));
        assertThat(summary())
                .containsExactly("CAPTURED shop.orders_2@2", "END@2", "orders_2#0@3", "END@3");
    }

    @Test
    void aTableRenamedIntoTheSelectionHaltsByNameAfterASnapshot() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, gtid(UUID_A, 2, COMMIT));
        assertThatThrownBy(() -> feed(a, ddl(2, "shop", "RENAME TABLE staging TO orders_2")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
                            assertThat(e.getMessage())
                                    .contains("shop.orders_2")
                                    .contains("scan.newly-added-table.enabled");
                        });
        TransactionAssembler b = assembler(true);
        feed(b, gtid(UUID_A, 2, COMMIT));
        assertThatThrownBy(
                        () ->
                                feed(
                                        b,
                                        ddl(
                                                2,
                                                "shop",
                                                "ALTER TABLE shop.staging RENAME TO shop.orders_5")))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("shop.orders_5");
    }

    @Test
    void aStreamOnlyJobCapturesATableRenamedIn() throws Exception {
        TransactionAssembler a = assembler(false);
        feed(a, gtid(UUID_A, 2, COMMIT), ddl(2, "shop", "RENAME TABLE staging TO orders_2"));
        assertThat(summary()).containsExactly("CAPTURED shop.orders_2@2", "END@2");
    }

    @Test
    void anUnreadableCreateHalts() throws Exception {
        TransactionAssembler a = assembler(false);
        feed(a, gtid(UUID_A, 2, COMMIT));
        assertThatThrownBy(() -> feed(a, ddl(2, "shop", "CREATE TABLE `orders_2 (x INT)")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION));
    }

    @Test
    void anAwaitedTableNotCreatedByItsPositionHaltsByName() throws Exception {
        CreatedTablesConfig awaiting =
                new CreatedTablesConfig(
                        SELECTION::matches, Set.of(ORDERS_2), GtidSet.parse(UUID_A + ":1-3"));
        TransactionAssembler created = assembler(true, awaiting);
        feed(created, gtid(UUID_A, 2, COMMIT), ddl(2, "shop", "CREATE TABLE orders_2 (x INT)"));
        feed(created, write(3, "orders_1", 1));
        feed(created, write(4, "orders_1", 2));
        assertThat(summary()).contains("CAPTURED shop.orders_2@2");

        TransactionAssembler missed = assembler(true, awaiting);
        feed(missed, write(2, "orders_1", 1));
        assertThatThrownBy(() -> feed(missed, write(3, "orders_1", 2)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
                            assertThat(e.getMessage()).contains("shop.orders_2");
                        });
    }

    @Test
    void aCreateIfNotExistsOfAnAwaitedTableHalts() throws Exception {
        CreatedTablesConfig awaiting =
                new CreatedTablesConfig(
                        SELECTION::matches, Set.of(ORDERS_2), GtidSet.parse(UUID_A + ":1-3"));
        TransactionAssembler a = assembler(true, awaiting);
        feed(a, gtid(UUID_A, 2, COMMIT));
        assertThatThrownBy(
                        () ->
                                feed(
                                        a,
                                        ddl(
                                                2,
                                                "SHOP",
                                                "CREATE TABLE IF NOT EXISTS ORDERS_2 (x INT)")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
                            assertThat(e.getMessage())
                                    .contains("shop.orders_2")
                                    .doesNotContain("(x INT)");
                        });
    }

    @Test
    void anAwaitedTableWhosePositionTheStartHoldsHaltsAtOnce() {
        CreatedTablesConfig awaiting =
                new CreatedTablesConfig(
                        SELECTION::matches, Set.of(ORDERS_2), GtidSet.parse(UUID_A + ":1"));
        assertThatThrownBy(() -> assembler(true, awaiting))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.getMessage()).contains("shop.orders_2"));
    }

    @Test
    void aDroppedCreatedTableHaltsAsAnyCapturedTable() throws Exception {
        TransactionAssembler a = assembler(true);
        feed(a, gtid(UUID_A, 2, COMMIT), ddl(2, "shop", "CREATE TABLE orders_2 (x INT)"));
        feed(a, gtid(UUID_A, 3, COMMIT));
        assertThatThrownBy(() -> feed(a, ddl(3, "shop", "DROP TABLE orders_2")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED));
    }
}

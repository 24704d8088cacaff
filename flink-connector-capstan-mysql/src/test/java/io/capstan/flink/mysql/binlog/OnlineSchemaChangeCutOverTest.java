package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
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
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table swaps of gh-ost and pt-osc: followed under the option, halted by name without it, and
 * every other shape halted as a removal.
 */
class OnlineSchemaChangeCutOverTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long COMMIT = 1_700_000_000_123_456L;

    private final List<BinlogRecord> out = new ArrayList<>();

    private TransactionAssembler assembler(boolean follow) {
        DdlObserver observer =
                new DdlObserver() {
                    @Override
                    public void onDdl(String database, String sql, Gtid gtid) {}

                    @Override
                    public boolean snapshotHolds(TableId table, Gtid gtid) {
                        return false;
                    }
                };
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(
                                TableFilter.of(Set.of(ORDERS)), new BinlogStreamerMetrics()),
                        BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1")),
                        null,
                        new BinlogStreamerMetrics(),
                        out::add,
                        observer,
                        TruncateHandling.HALT,
                        CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                        false);
        if (follow) {
            a.followOnlineSchemaChanges();
        }
        return a;
    }

    private static Event queryIn(String database, String sql) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase(database);
        return event(EventType.QUERY, q);
    }

    /** The halt of a DDL transaction, or null when it passed (and joined the processed set). */
    private CapstanHaltException ddl(boolean follow, String database, String sql) throws Exception {
        out.clear();
        TransactionAssembler a = assembler(follow);
        try {
            a.onEvent(gtid(UUID_A, 2, COMMIT));
            a.onEvent(queryIn(database, sql));
            assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1-2"));
            assertThat(out).hasSize(1).allMatch(r -> r instanceof TransactionEnd);
            return null;
        } catch (CapstanHaltException e) {
            assertThat(a.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
            return e;
        }
    }

    private HaltReason reason(boolean follow, String database, String sql) throws Exception {
        CapstanHaltException e = ddl(follow, database, sql);
        return e == null ? null : e.reason();
    }

    private static final String GH_OST =
            "rename /* gh-ost */ table `shop`.`orders` to `shop`.`_orders_del`,"
                    + " `shop`.`_orders_gho` to `shop`.`orders`";
    private static final String PT_OSC =
            "RENAME TABLE `shop`.`orders` TO `shop`.`_orders_old`,"
                    + " `shop`.`_orders_new` TO `shop`.`orders`";

    @Test
    void theToolsSwapsAreFollowedUnderTheOption() throws Exception {
        assertThat(ddl(true, "", GH_OST)).isNull();
        assertThat(ddl(true, "", PT_OSC)).isNull();
        assertThat(ddl(true, "shop", "RENAME TABLE orders TO _orders_del, _orders_gho TO orders"))
                .isNull();
        assertThat(ddl(true, "shop", "RENAME TABLE orders TO _orders_old, _orders_new TO orders;"))
                .isNull();
    }

    @Test
    void withoutTheOptionASwapHaltsNamingTheOption() throws Exception {
        for (String sql : List.of(GH_OST, PT_OSC)) {
            CapstanHaltException e = ddl(false, "", sql);
            assertThat(e).isNotNull();
            assertThat(e.reason()).isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
            assertThat(e.getMessage())
                    .contains("shop.orders")
                    .contains("scan.parse.online.schema.changes.enabled")
                    .contains("parseOnLineSchemaChanges(true)")
                    .doesNotContain("_orders_"); // names the captured table only
        }
    }

    @Test
    void swapsOfAnotherShapeStayRemovals() throws Exception {
        HaltReason removed = HaltReason.CAPTURED_TABLE_REMOVED;
        for (boolean follow : new boolean[] {true, false}) {
            // gh-ost's two-step cut-over: the table is gone between two statements
            assertThat(reason(follow, "shop", "RENAME TABLE orders TO _orders_del"))
                    .isEqualTo(removed);
            // mixed tools, other names, another database, the order reversed, a third rename
            assertThat(
                            reason(
                                    follow,
                                    "shop",
                                    "RENAME TABLE orders TO _orders_del, _orders_new TO orders"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "shop",
                                    "RENAME TABLE orders TO orders_bak, orders_v2 TO orders"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "shop",
                                    "RENAME TABLE orders TO _orders_del, _other_gho TO orders"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "",
                                    "RENAME TABLE shop.orders TO shop._orders_del,"
                                            + " other._orders_gho TO shop.orders"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "",
                                    "RENAME TABLE shop.orders TO other._orders_del,"
                                            + " shop._orders_gho TO shop.orders"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "shop",
                                    "RENAME TABLE _orders_gho TO orders, orders TO _orders_del"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "shop",
                                    "RENAME TABLE orders TO _orders_del, _orders_gho TO orders,"
                                            + " a TO b"))
                    .isEqualTo(removed);
            assertThat(
                            reason(
                                    follow,
                                    "shop",
                                    "RENAME TABLE orders TO _orders_del, _orders_gho TO Orders"))
                    .isEqualTo(removed);
            assertThat(reason(follow, "shop", "ALTER TABLE orders RENAME TO _orders_del"))
                    .isEqualTo(removed);
            assertThat(reason(follow, "shop", "DROP TABLE orders")).isEqualTo(removed);
        }
    }

    @Test
    void theToolsOtherStatementsPass() throws Exception {
        for (String sql :
                List.of(
                        "CREATE TABLE `shop`.`_orders_gho` LIKE `shop`.`orders`",
                        "ALTER TABLE `shop`.`_orders_gho` ADD COLUMN c INT",
                        "create /* gh-ost */ table `shop`.`_orders_del` (id int auto_increment primary key) engine=InnoDB comment='ghost-cut-over-sentry'",
                        "drop /* gh-ost */ table if exists `shop`.`_orders_del`",
                        "DROP TABLE IF EXISTS `shop`.`_orders_old`",
                        "DROP TRIGGER IF EXISTS `shop`.`pt_osc_shop_orders_ins`")) {
            assertThat(reason(false, "shop", sql)).as(sql).isNull();
        }
    }
}

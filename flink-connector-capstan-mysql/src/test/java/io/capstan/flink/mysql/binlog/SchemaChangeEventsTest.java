package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.gtid;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which statements become schema-change records, where their columns come from, and that a resume
 * inside the DDL's transaction does not emit the record again (as an emitted TRUNCATE).
 */
class SchemaChangeEventsTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final long COMMIT = 1_700_000_000_123_456L;
    private static final TableSchema COLUMNS =
            new TableSchema(
                    ORDERS,
                    List.of(
                            ColumnSchema.builder("id", MySqlType.BIGINT)
                                    .nullable(false)
                                    .build(ORDERS),
                            ColumnSchema.builder("c", MySqlType.INT).build(ORDERS)),
                    new int[] {0});

    private final List<BinlogRecord> out = new ArrayList<>();
    private final List<String> reads = new ArrayList<>();

    private TransactionAssembler assembler(BinlogStartPosition start, boolean superseded) {
        TransactionAssembler a =
                new TransactionAssembler(
                        new TableSchemaCache(
                                TableFilter.of(Set.of(ORDERS)), new BinlogStreamerMetrics()),
                        start,
                        null,
                        new BinlogStreamerMetrics(),
                        out::add,
                        DdlObserver.NONE,
                        TruncateHandling.HALT,
                        CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                        false);
        a.emitSchemaChanges(
                new SchemaChangeEvents(
                        (table, file, end) -> {
                            reads.add(table + "@" + file + ":" + end);
                            return superseded ? Optional.empty() : Optional.of(COLUMNS);
                        }));
        return a;
    }

    private static Event rotate(String file) {
        RotateEventData r = new RotateEventData();
        r.setBinlogFilename(file);
        r.setBinlogPosition(4);
        return Events.event(EventType.ROTATE, r);
    }

    private static Event ddl(String db, String sql, long nextPosition) {
        QueryEventData q = new QueryEventData();
        q.setSql(sql);
        q.setDatabase(db);
        Event e = Events.event(EventType.QUERY, q);
        ((EventHeaderV4) e.getHeader()).setNextPosition(nextPosition);
        return e;
    }

    private void feed(TransactionAssembler a, Event... events) throws InterruptedException {
        for (Event e : events) {
            a.onEvent(e);
        }
    }

    @Test
    void anAlterOfACapturedTableIsOneRecordWithTheColumnsRightAfterIt() throws Exception {
        TransactionAssembler a = assembler(BinlogStartPosition.of(GtidSet.empty()), false);
        feed(
                a,
                rotate("binlog.000007"),
                gtid(UUID_A, 5, COMMIT),
                ddl("shop", "ALTER TABLE orders ADD COLUMN c INT DEFAULT 4242", 1234));
        assertThat(out).hasSize(2);
        RowChange change = (RowChange) out.get(0);
        assertThat(change.operation()).isEqualTo(Operation.SCHEMA_CHANGE);
        assertThat(change.tableId()).isEqualTo(ORDERS);
        assertThat(change.schemaChangeKind()).isEqualTo("ALTER TABLE");
        assertThat(change.schema()).isSameAs(COLUMNS);
        assertThat(change.indexInTransaction()).isZero();
        assertThat(change.before()).isNull();
        assertThat(change.after()).isNull();
        assertThat(change.toString()).doesNotContain("4242").doesNotContain("DEFAULT");
        assertThat(out.get(1)).isInstanceOf(TransactionEnd.class);
        // the columns are read for the position right after the DDL's event
        assertThat(reads).containsExactly("shop.orders@binlog.000007:1234");
    }

    @Test
    void aResumeInsideTheDdlTransactionDoesNotEmitTheRecordAgain() throws Exception {
        Gtid g = Gtid.of(java.util.UUID.fromString(UUID_A).toString(), 5);
        TransactionAssembler a = assembler(BinlogStartPosition.of(GtidSet.empty(), g, 1), false);
        feed(
                a,
                rotate("binlog.000007"),
                gtid(UUID_A, 5, COMMIT),
                ddl("shop", "ALTER TABLE orders ADD COLUMN c INT", 1234));
        assertThat(out).hasSize(1).first().isInstanceOf(TransactionEnd.class);
        assertThat(reads).isEmpty(); // nothing is read for a record that is not emitted
    }

    @Test
    void aSupersededDdlCarriesNoColumns() throws Exception {
        TransactionAssembler a = assembler(BinlogStartPosition.of(GtidSet.empty()), true);
        feed(
                a,
                rotate("binlog.000007"),
                gtid(UUID_A, 5, COMMIT),
                ddl("shop", "ALTER TABLE orders ADD COLUMN c INT", 1234));
        RowChange change = (RowChange) out.get(0);
        assertThat(change.operation()).isEqualTo(Operation.SCHEMA_CHANGE);
        assertThat(change.schema()).isNull();
    }

    @Test
    void statementsOfOtherTablesAndOtherKindsAreNoRecords() throws Exception {
        TransactionAssembler a = assembler(BinlogStartPosition.of(GtidSet.empty()), false);
        feed(
                a,
                rotate("binlog.000007"),
                gtid(UUID_A, 5, COMMIT),
                ddl("shop", "ALTER TABLE audit ADD COLUMN c INT", 100),
                gtid(UUID_A, 6, COMMIT),
                ddl("shop", "ANALYZE TABLE orders", 200),
                gtid(UUID_A, 7, COMMIT),
                ddl("shop", "CREATE TEMPORARY TABLE orders (id INT)", 300),
                gtid(UUID_A, 8, COMMIT),
                ddl("other", "CREATE INDEX i ON shop.orders (c)", 400));
        assertThat(out).hasSize(5);
        assertThat(((RowChange) out.get(3)).schemaChangeKind()).isEqualTo("CREATE INDEX");
    }

    @Test
    void kinds() {
        assertThat(SchemaChangeEvents.kindOf("alter table t add c int")).contains("ALTER TABLE");
        assertThat(SchemaChangeEvents.kindOf("ALTER ONLINE TABLE t ADD c INT"))
                .contains("ALTER TABLE");
        assertThat(SchemaChangeEvents.kindOf("CREATE TABLE t (id INT)")).contains("CREATE TABLE");
        assertThat(SchemaChangeEvents.kindOf("CREATE UNIQUE INDEX i ON t (c)"))
                .contains("CREATE INDEX");
        assertThat(SchemaChangeEvents.kindOf("DROP INDEX i ON t")).contains("DROP INDEX");
        assertThat(SchemaChangeEvents.kindOf("RENAME TABLE t TO _t_del, _t_gho TO t"))
                .contains("RENAME TABLE");
        assertThat(SchemaChangeEvents.kindOf("CREATE TEMPORARY TABLE t (id INT)")).isEmpty();
        assertThat(SchemaChangeEvents.kindOf("TRUNCATE TABLE t")).isEmpty();
        assertThat(SchemaChangeEvents.kindOf("DROP TABLE t")).isEmpty();
        assertThat(SchemaChangeEvents.kindOf("ALTER USER u IDENTIFIED BY 'x'")).isEmpty();
        assertThat(SchemaChangeEvents.kindOf("CREATE TABLE 'unterminated")).isEmpty();
    }

    @Test
    void aLaterStatementTouchesTheTableAsShowBinlogEventsShowsIt() {
        assertThat(
                        SchemaChangeEvents.loggedStatementTouches(
                                "use `shop`; ALTER TABLE orders DROP COLUMN c", ORDERS))
                .isTrue();
        assertThat(
                        SchemaChangeEvents.loggedStatementTouches(
                                "use `x`; ALTER TABLE `shop`.`orders` DROP COLUMN c", ORDERS))
                .isTrue();
        assertThat(
                        SchemaChangeEvents.loggedStatementTouches(
                                "use `shop`; ALTER TABLE audit DROP COLUMN c", ORDERS))
                .isFalse();
        assertThat(
                        SchemaChangeEvents.loggedStatementTouches(
                                "use `other`; ALTER TABLE orders DROP COLUMN c", ORDERS))
                .isFalse();
        assertThat(SchemaChangeEvents.loggedStatementTouches("BEGIN", ORDERS)).isFalse();
        assertThat(SchemaChangeEvents.loggedStatementTouches("use `sh``op", ORDERS)).isTrue();
        assertThat(SchemaChangeEvents.loggedStatementTouches(null, ORDERS)).isTrue();
    }
}

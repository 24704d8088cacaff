package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.proxy.server.ServerJdbcProxy;
import io.capstan.flink.mysql.proxy.server.ServerProxies;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rows;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rowsAtLeast;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Foreign-key actions InnoDB applies below the binary log, and statement-logged changes whose
 * triggers or cascades reach captured tables, on the shared MySQL 8.0 while a writer changes a
 * captured table: each halts by name, and what cascades nothing passes.
 */
class ForeignKeyCascadeIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private final AtomicBoolean writing = new AtomicBoolean();
    private final AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    private final AtomicInteger written = new AtomicInteger();
    private Thread writer;

    @BeforeAll
    static void tables() {
        DB.execute(
                // one level: a captured child of an uncaptured parent
                "CREATE TABLE p (id INT PRIMARY KEY, code INT NOT NULL UNIQUE, note VARCHAR(20))",
                "CREATE TABLE c (id INT PRIMARY KEY, p_id INT, p_code INT,"
                        + " CONSTRAINT c_del FOREIGN KEY (p_id) REFERENCES p (id) ON DELETE CASCADE,"
                        + " CONSTRAINT c_upd FOREIGN KEY (p_code) REFERENCES p (code)"
                        + " ON UPDATE CASCADE)",
                // two levels: a -> b (cascade) -> captured n (set null)
                "CREATE TABLE a (id INT PRIMARY KEY)",
                "CREATE TABLE b (id INT PRIMARY KEY, a_id INT,"
                        + " CONSTRAINT b_a FOREIGN KEY (a_id) REFERENCES a (id) ON DELETE CASCADE)",
                "CREATE TABLE n (id INT PRIMARY KEY, b_id INT,"
                        + " CONSTRAINT n_b FOREIGN KEY (b_id) REFERENCES b (id) ON DELETE SET NULL)",
                // a trigger of an uncaptured table writing a captured one
                "CREATE TABLE src (id INT PRIMARY KEY)",
                "CREATE TABLE dst (id INT PRIMARY KEY)",
                "CREATE TRIGGER src_copy AFTER INSERT ON src FOR EACH ROW"
                        + " INSERT INTO dst VALUES (NEW.id)",
                "CREATE TABLE plain (id INT PRIMARY KEY, v INT)",
                // the writer's table, captured
                "CREATE TABLE w (id INT PRIMARY KEY AUTO_INCREMENT, v INT)",
                // triggers are visible to the connector's account in this database only
                "GRANT TRIGGER ON `" + DB.name() + "`.* TO 'capstan_connector'@'%'");
    }

    @AfterAll
    static void revoke() {
        DB.execute("REVOKE TRIGGER ON `" + DB.name() + "`.* FROM 'capstan_connector'@'%'");
    }

    @BeforeEach
    void rowsAndWriter() {
        DB.execute(
                "DELETE FROM c",
                "DELETE FROM p",
                "DELETE FROM n",
                "DELETE FROM b",
                "DELETE FROM a",
                "INSERT INTO p VALUES (1, 10, 'x'), (2, 20, 'x'), (3, 30, 'x')",
                "INSERT INTO c VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30)",
                "INSERT INTO a VALUES (1)",
                "INSERT INTO b VALUES (1, 1)",
                "INSERT INTO n VALUES (1, 1), (2, 1)");
        writing.set(true);
        writer =
                new Thread(
                        () -> {
                            try (Connection c = DB.openRootConnection();
                                    Statement st = c.createStatement()) {
                                while (writing.get()) {
                                    st.execute("INSERT INTO w (v) VALUES (1)");
                                    written.incrementAndGet();
                                    Thread.sleep(5);
                                }
                            } catch (Throwable e) {
                                writerFailure.set(e);
                            }
                        },
                        "fk-writer");
        writer.start();
    }

    @AfterEach
    void stopWriter() throws Exception {
        writing.set(false);
        writer.join(10_000);
        assertThat(writerFailure.get()).isNull();
    }

    private static TableId t(String name) {
        return TableId.of(DB.name(), name);
    }

    private static BinlogStreamer streamer(TableId... captured) {
        MySqlConnectionConfig connection = connectorConfig(DB);
        BinlogStreamer s =
                new BinlogStreamer(
                        config(connection, captured).build(),
                        StartPositions.latest(connection),
                        DdlObserver.NONE,
                        () -> {
                            try (JdbcProxy mysql = new ServerJdbcProxy(connection)) {
                                return ServerProxies.referentialFacts(mysql);
                            }
                        });
        s.start();
        return s;
    }

    /** Runs the statements on one root session (which may change its binlog format). */
    private static void session(String... statements) throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    /** Waits for some of the writer's rows, so that the stream is known to run. */
    private static List<BinlogRecord> writerRows(BinlogStreamer s, int n) throws Exception {
        return new ArrayList<>(drain(s, rowsAtLeast(n), Duration.ofSeconds(30)));
    }

    private static CapstanHaltException haltOf(BinlogStreamer s) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                s.poll(100, TimeUnit.MILLISECONDS);
            } catch (CapstanHaltException e) {
                assertThat(e.getMessage()).contains("Remedy");
                return e;
            }
        }
        return fail("no halt within 30 s");
    }

    @Test
    void aParentDeleteCascadingIntoACapturedChildHaltsInRowAndMixedFormat() throws Exception {
        try (BinlogStreamer s = streamer(t("c"), t("w"))) {
            writerRows(s, 3);
            DB.execute("DELETE FROM p WHERE id = 1"); // row format: one Delete_rows of p
            CapstanHaltException halt = haltOf(s);
            assertThat(halt.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
            assertThat(halt.getMessage())
                    .contains(t("c").toString(), "c_del", t("p").toString())
                    .containsPattern("transaction [0-9a-f-]+:\\d+ deleted a row of");
        }
        try (BinlogStreamer s = streamer(t("c"), t("w"))) {
            writerRows(s, 3);
            session("SET SESSION binlog_format = 'MIXED'", "DELETE FROM p WHERE id = 2");
            CapstanHaltException halt = haltOf(s);
            assertThat(halt.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
            assertThat(halt.getMessage()).contains(t("c").toString(), t("p").toString());
        }
    }

    @Test
    void anUpdateHaltsOnlyWhenItChangesAReferencedColumn() throws Exception {
        try (BinlogStreamer s = streamer(t("c"), t("w"))) {
            writerRows(s, 3);
            // neither id nor code changes: no action applies
            DB.execute("UPDATE p SET note = 'changed' WHERE id IN (1, 2)");
            DB.execute("UPDATE p SET code = code WHERE id = 3");
            DB.execute("INSERT INTO c VALUES (100, 3, 30)");
            List<RowChange> passed =
                    rows(
                            drain(
                                    s,
                                    l -> rows(l).stream().anyMatch(r -> r.tableId().equals(t("c"))),
                                    Duration.ofSeconds(30)));
            assertThat(passed).isNotEmpty();
            DB.execute("UPDATE p SET code = 987654 WHERE id = 3"); // ON UPDATE CASCADE into c
            CapstanHaltException halt = haltOf(s);
            assertThat(halt.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
            assertThat(halt.getMessage())
                    .contains("c_upd", "ON UPDATE", "changed a referenced column")
                    .doesNotContain("987654"); // no value (the no-values rule)
        }
    }

    @Test
    void aTwoLevelCascadeEndingInSetNullHalts() throws Exception {
        try (BinlogStreamer s = streamer(t("n"), t("w"))) {
            writerRows(s, 3);
            DB.execute("DELETE FROM a WHERE id = 1"); // deletes b's row, which nulls n.b_id
            CapstanHaltException halt = haltOf(s);
            assertThat(halt.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
            assertThat(halt.getMessage()).contains(t("n").toString(), "b_a", t("a").toString());
        }
    }

    @Test
    void statementLoggedChangesOfUncapturedTablesHaltWhenTriggersOrCascadesReachCaptured()
            throws Exception {
        try (BinlogStreamer s = streamer(t("dst"), t("w"))) {
            writerRows(s, 3);
            // no trigger, no foreign key: passes
            session("SET SESSION binlog_format = 'STATEMENT'", "INSERT INTO plain VALUES (1, 1)");
            DB.execute("DELETE FROM plain");
            writerRows(s, 3);
            session("SET SESSION binlog_format = 'STATEMENT'", "INSERT INTO src VALUES (7)");
            CapstanHaltException halt = haltOf(s);
            assertThat(halt.reason()).isEqualTo(HaltReason.STATEMENT_BASED_CHANGE);
            assertThat(halt.getMessage()).contains(t("src").toString(), "triggers");
        }
        try (BinlogStreamer s = streamer(t("n"), t("w"))) {
            writerRows(s, 3);
            session("SET SESSION binlog_format = 'STATEMENT'", "DELETE FROM b WHERE id = 1");
            CapstanHaltException halt = haltOf(s);
            assertThat(halt.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
            assertThat(halt.getMessage()).contains(t("n").toString(), "n_b");
        }
    }
}

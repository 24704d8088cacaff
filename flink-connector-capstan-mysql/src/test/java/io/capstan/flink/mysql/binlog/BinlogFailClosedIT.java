package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.endsAtLeast;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rows;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Changes the stream cannot deliver exactly, written for real by the shared MySQL 8.0 while a
 * streamer runs: each halts by name (never passing silently), or passes where it is harmless.
 */
class BinlogFailClosedIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static TableId table(String name, String columns) {
        DB.execute("DROP TABLE IF EXISTS " + name, "CREATE TABLE " + name + " " + columns);
        return TableId.of(DB.name(), name);
    }

    private static BinlogStreamer streamer(TruncateHandling truncate, TableId... captured) {
        BinlogStreamer s =
                new BinlogStreamer(
                        config(connectorConfig(DB), captured).truncateHandling(truncate).build(),
                        StartPositions.latest(connectorConfig(DB)));
        s.start();
        return s;
    }

    /** Runs the statements on one root session (which may change its binlog settings). */
    private static void session(String... statements) throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    /** Polls until the stream halts; returns the halt and what was polled before it. */
    private static CapstanHaltException haltOf(BinlogStreamer s, List<BinlogRecord> polled)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                BinlogRecord r = s.poll(100, TimeUnit.MILLISECONDS);
                if (r != null) {
                    polled.add(r);
                }
            } catch (CapstanHaltException e) {
                assertThat(e.getMessage()).contains("Remedy");
                return e;
            }
        }
        return fail("no halt within 30 s; polled " + polled);
    }

    @Test
    void statementLoggedChangesOfACapturedTableHaltAndOthersPass() throws Exception {
        TableId t = table("sbr_t", "(id INT PRIMARY KEY, v VARCHAR(40))");
        table("sbr_other", "(id INT PRIMARY KEY, v VARCHAR(40))");
        try (BinlogStreamer s = streamer(TruncateHandling.HALT, t)) {
            // A session override, as a pooled connection opened before a global change would be.
            session(
                    "SET SESSION binlog_format = 'STATEMENT'",
                    "INSERT INTO sbr_other VALUES (1, 'passes')",
                    "UPDATE sbr_other SET v = 'still passes' WHERE id = 1");
            DB.execute("INSERT INTO sbr_t VALUES (1, 'row logged')");
            List<BinlogRecord> polled =
                    new ArrayList<>(drain(s, endsAtLeast(3), Duration.ofSeconds(30)));
            assertThat(rows(polled)).hasSize(1);

            session(
                    "SET SESSION binlog_format = 'MIXED'",
                    "UPDATE sbr_t SET v = 'secret-value' WHERE id = 1");
            CapstanHaltException halt = haltOf(s, polled);
            assertThat(halt.reason()).isEqualTo(HaltReason.STATEMENT_BASED_CHANGE);
            assertThat(halt.getMessage()).contains(t.toString()).doesNotContain("secret-value");
            assertThat(rows(polled)).hasSize(1);
        }
        try (BinlogStreamer s = streamer(TruncateHandling.HALT, t)) {
            session(
                    "SET SESSION binlog_format = 'STATEMENT'",
                    "INSERT INTO " + DB.name() + ".sbr_t VALUES (2, 'x')");
            assertThat(haltOf(s, new ArrayList<>()).reason())
                    .isEqualTo(HaltReason.STATEMENT_BASED_CHANGE);
        }
    }

    @Test
    void aPartialJsonUpdateOfACapturedTableHalts() throws Exception {
        TableId j = table("pj", "(id INT PRIMARY KEY, doc JSON)");
        DB.execute("INSERT INTO pj VALUES (1, '{\"a\": 1, \"b\": \"a long enough text\"}')");
        try (BinlogStreamer s = streamer(TruncateHandling.HALT, j)) {
            session(
                    "SET SESSION binlog_row_value_options = 'PARTIAL_JSON'",
                    "UPDATE pj SET doc = JSON_SET(doc, '$.a', 2) WHERE id = 1");
            List<BinlogRecord> polled = new ArrayList<>();
            CapstanHaltException halt = haltOf(s, polled);
            assertThat(halt.reason()).isEqualTo(HaltReason.PARTIAL_ROW_UPDATE);
            assertThat(halt.getMessage()).contains(j.toString());
            assertThat(rows(polled)).isEmpty();
        }
    }

    private static CapstanHaltException haltAfter(TableId t, String ddl) throws Exception {
        try (BinlogStreamer s = streamer(TruncateHandling.HALT, t)) {
            DB.execute("INSERT INTO " + t.table() + " VALUES (1)");
            List<BinlogRecord> polled =
                    new ArrayList<>(drain(s, endsAtLeast(1), Duration.ofSeconds(30)));
            DB.execute(ddl);
            CapstanHaltException halt = haltOf(s, polled);
            assertThat(halt.getMessage()).contains(t.toString());
            return halt;
        }
    }

    @Test
    void truncateDropAndRenameOfACapturedTableHalt() throws Exception {
        TableId t = table("ddl_t", "(id INT PRIMARY KEY)");
        assertThat(haltAfter(t, "TRUNCATE TABLE ddl_t").reason())
                .isEqualTo(HaltReason.CAPTURED_TABLE_TRUNCATED);
        DB.execute("DELETE FROM ddl_t");
        assertThat(haltAfter(t, "RENAME TABLE ddl_t TO ddl_t_old").reason())
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
        DB.execute("RENAME TABLE ddl_t_old TO ddl_t", "DELETE FROM ddl_t");
        assertThat(haltAfter(t, "ALTER TABLE ddl_t RENAME TO ddl_t_old").reason())
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
        DB.execute("RENAME TABLE ddl_t_old TO ddl_t", "DELETE FROM ddl_t");
        assertThat(haltAfter(t, "DROP TABLE ddl_t").reason())
                .isEqualTo(HaltReason.CAPTURED_TABLE_REMOVED);
    }

    @Test
    void truncateCanBeEmittedOrSkipped() throws Exception {
        TableId t = table("tr_t", "(id INT PRIMARY KEY)");
        try (BinlogStreamer s = streamer(TruncateHandling.EMIT, t)) {
            DB.execute("INSERT INTO tr_t VALUES (1)", "TRUNCATE TABLE tr_t");
            DB.execute("INSERT INTO tr_t VALUES (2)");
            List<RowChange> changes = rows(drain(s, endsAtLeast(3), Duration.ofSeconds(30)));
            assertThat(changes)
                    .extracting(RowChange::operation)
                    .containsExactly(Operation.INSERT, Operation.TRUNCATE, Operation.INSERT);
            assertThat(changes.get(1).tableId()).isEqualTo(t);
            assertThat(changes.get(1).indexInTransaction()).isZero();
        }
        try (BinlogStreamer s = streamer(TruncateHandling.SKIP, t)) {
            DB.execute("TRUNCATE TABLE tr_t", "INSERT INTO tr_t VALUES (3)");
            List<RowChange> changes = rows(drain(s, endsAtLeast(2), Duration.ofSeconds(30)));
            assertThat(changes).extracting(RowChange::operation).containsExactly(Operation.INSERT);
        }
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.endsAtLeast;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The DDL observer against the real server: which statements reach it, with what, and its halts.
 */
class BinlogDdlObserverIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static TableId t;

    /** One observed statement. */
    private record Ddl(String database, String sql, Gtid gtid, boolean endAlreadyPolled) {}

    @BeforeAll
    static void tables() {
        DB.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))");
        t = TableId.of(DB.name(), "t");
    }

    private static GtidSet executed() {
        return GtidSet.parse(DB.server().gtidExecuted());
    }

    /** Runs {@code sql} on {@code c} and returns the one GTID it committed. */
    private static Gtid run(Connection c, String sql) throws Exception {
        GtidSet before = executed();
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
        GtidSet added = executed().subtract(before);
        String text =
                added.toString(); // "uuid:n" when the statement committed exactly one transaction
        int colon = text.lastIndexOf(':');
        assertThat(text).as("one transaction for one statement").matches(".+:[0-9]+");
        Gtid gtid = Gtid.of(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
        assertThat(added).isEqualTo(GtidSet.of(gtid));
        return gtid;
    }

    @Test
    void ddlStatementsReachTheObserverWithTheirDatabaseAndGtidAndDmlNever() throws Exception {
        List<Ddl> seen = new CopyOnWriteArrayList<>();
        List<BinlogRecord> polled = new CopyOnWriteArrayList<>();
        DdlObserver observer =
                (db, sql, gtid) ->
                        seen.add(
                                new Ddl(
                                        db,
                                        sql,
                                        gtid,
                                        polled.stream()
                                                .anyMatch(
                                                        r ->
                                                                r instanceof TransactionEnd
                                                                        && r.gtid().equals(gtid))));
        try (BinlogStreamer s =
                        new BinlogStreamer(
                                config(connectorConfig(DB), t).build(),
                                StartPositions.latest(connectorConfig(DB)),
                                observer);
                Connection inDb = DB.openRootConnection();
                Connection noDb = DB.server().openRootConnection()) {
            s.start();
            // DML only: single statements, a multi-statement transaction with a savepoint, a
            // rollback.
            DB.execute("INSERT INTO t VALUES (1, 'a')", "UPDATE t SET v = 'b' WHERE id = 1");
            inDb.setAutoCommit(false);
            try (Statement st = inDb.createStatement()) {
                st.execute("INSERT INTO t VALUES (2, 'c')");
                st.execute("SAVEPOINT sp1");
                st.execute("INSERT INTO t VALUES (3, 'd')");
                st.execute("ROLLBACK TO SAVEPOINT sp1");
                st.execute("DELETE FROM t WHERE id = 1");
                inDb.commit();
                st.execute("INSERT INTO t VALUES (9, 'rolled back')");
                inDb.rollback();
            }
            inDb.setAutoCommit(true);
            polled.addAll(drain(s, endsAtLeast(3), Duration.ofSeconds(30)));
            assertThat(seen).isEmpty();

            Gtid create = run(inDb, "CREATE TABLE d1 (id INT PRIMARY KEY)");
            Gtid alter = run(inDb, "ALTER TABLE d1 ADD COLUMN v INT DEFAULT 7");
            Gtid otherDb = run(noDb, "CREATE TABLE " + DB.name() + ".d2 (id INT PRIMARY KEY)");
            Gtid drop = run(inDb, "DROP TABLE d1, d2");
            DB.execute("INSERT INTO t VALUES (4, 'e')");
            polled.addAll(drain(s, endsAtLeast(5), Duration.ofSeconds(30)));

            assertThat(seen).extracting(Ddl::sql).hasSize(4);
            assertThat(seen.get(0).sql()).startsWith("CREATE TABLE d1");
            assertThat(seen.get(1).sql()).isEqualTo("ALTER TABLE d1 ADD COLUMN v INT DEFAULT 7");
            assertThat(seen.get(2).sql()).startsWith("CREATE TABLE " + DB.name() + ".d2");
            assertThat(seen.get(3).sql()).startsWith("DROP TABLE");
            assertThat(seen).extracting(Ddl::gtid).containsExactly(create, alter, otherDb, drop);
            // The session's default database: none for the connection without one.
            assertThat(seen)
                    .extracting(Ddl::database)
                    .containsExactly(DB.name(), DB.name(), "", DB.name());
            // Called before its transaction's end was queued; each DDL is then ended like any
            // transaction.
            assertThat(seen).noneMatch(Ddl::endAlreadyPolled);
            List<Gtid> ends =
                    polled.stream()
                            .filter(r -> r instanceof TransactionEnd)
                            .map(BinlogRecord::gtid)
                            .toList();
            assertThat(ends).contains(create, alter, otherDb, drop);
        }
    }

    @Test
    void aHaltThrownByTheObserverHaltsTheStreamerBeforeTheDdlEnds() throws Exception {
        DdlObserver drift =
                (db, sql, gtid) -> {
                    if (sql.startsWith("ALTER")) {
                        throw new CapstanHaltException(
                                HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                                "table "
                                        + db
                                        + ".t changed during the snapshot handoff at "
                                        + gtid);
                    }
                };
        try (BinlogStreamer s =
                        new BinlogStreamer(
                                config(connectorConfig(DB), t).build(),
                                StartPositions.latest(connectorConfig(DB)),
                                drift);
                Connection c = DB.openRootConnection()) {
            s.start();
            DB.execute("INSERT INTO t VALUES (100, 'x')");
            List<BinlogRecord> polled =
                    new ArrayList<>(drain(s, endsAtLeast(1), Duration.ofSeconds(30)));
            Gtid alter = run(c, "ALTER TABLE t ADD COLUMN w INT");
            DB.execute("INSERT INTO t VALUES (101, 'y', 1)");

            CapstanHaltException halt = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (halt == null && System.nanoTime() < deadline) {
                try {
                    BinlogRecord r = s.poll(100, TimeUnit.MILLISECONDS);
                    if (r != null) {
                        polled.add(r);
                    }
                } catch (CapstanHaltException e) {
                    halt = e;
                }
            }
            assertThat(halt).isNotNull();
            assertThat(halt.reason()).isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED);
            assertThat(halt.getMessage()).contains(alter.toString());
            // Neither the DDL's end nor anything after it was queued; the halt stays.
            assertThat(polled).noneMatch(r -> r.gtid().equals(alter));
            assertThat(polled).hasSize(2);
            assertThatThrownBy(() -> s.poll(10, TimeUnit.MILLISECONDS)).isSameAs(halt);
        } finally {
            DB.execute("ALTER TABLE t DROP COLUMN w", "DELETE FROM t WHERE id >= 100");
        }
    }
}

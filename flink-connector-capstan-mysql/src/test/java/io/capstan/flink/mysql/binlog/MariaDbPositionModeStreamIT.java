package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.ConnectorConfigs;
import io.capstan.flink.mysql.testing.MariaDbServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connector's real {@link BinlogStreamer} in position mode on a real MariaDB 10.11: DDL, InnoDB
 * transactions without BEGIN and a multi-statement transaction arrive as exactly the records a
 * MySQL server without GTIDs gives, and a restart from a processed set taken mid-stream resumes
 * exactly. The server's files are read here and the axis is a fixed one: the JDBC side of a MariaDB
 * start (its identity, which has no {@code server_uuid}) is not this test's subject.
 */
class MariaDbPositionModeStreamIT {

    private static final TableId ORDERS = TableId.of("shop", "orders");

    /** The axis of the server's identity (MariaDB has no server_uuid: ServerDialect). */
    private static BinlogPositionAxis AXIS;

    private static MariaDbServer server;

    @BeforeAll
    static void startMariaDb() throws Exception {
        if (!MariaDbServer.isInstalled()) {
            throw new IllegalStateException(MariaDbServer.MISSING);
        }
        server =
                MariaDbServer.start(
                        List.of(
                                "--log-bin=mariadb-bin",
                                "--binlog-format=ROW",
                                "--binlog-row-image=FULL",
                                "--binlog-row-metadata=FULL",
                                "--binlog-annotate-row-events=ON",
                                "--server-id=7"));
        sql(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, qty INT) ENGINE=InnoDB");
        AXIS = files().axis();
    }

    @AfterAll
    static void stopMariaDb() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void ddlAndTransactionsStreamExactlyAndAMidStreamRestartResumesExactly() throws Exception {
        Position start = files().current();
        sql("CREATE TABLE shop.other (id INT PRIMARY KEY) ENGINE=InnoDB"); // a DDL: 1 end
        sql("INSERT INTO shop.orders VALUES (1, 10), (2, 20)"); // 2 rows, 1 end
        sql("UPDATE shop.orders SET qty = 11 WHERE id = 1"); // 1 row
        sql("DELETE FROM shop.orders WHERE id = 2"); // 1 row
        sql(
                "BEGIN",
                "INSERT INTO shop.orders VALUES (3, 30)",
                "INSERT INTO shop.other VALUES (1)", // not captured
                "UPDATE shop.orders SET qty = 31 WHERE id = 3",
                "DELETE FROM shop.orders WHERE id = 1",
                "COMMIT"); // 3 rows in one transaction
        sql("INSERT INTO shop.orders VALUES (4, 40)");
        int transactions = 6;

        List<BinlogRecord> all = stream(AXIS.before(start), transactions);

        List<RowChange> rows = rows(all);
        assertThat(rows)
                .extracting(RowChange::operation)
                .containsExactly(
                        Operation.INSERT,
                        Operation.INSERT,
                        Operation.UPDATE,
                        Operation.DELETE,
                        Operation.INSERT,
                        Operation.UPDATE,
                        Operation.DELETE,
                        Operation.INSERT);
        assertThat(ids(rows)).containsExactly(1L, 2L, 1L, 2L, 3L, 3L, 1L, 4L);
        List<TransactionEnd> ends = ends(all);
        assertThat(ends.stream().map(TransactionEnd::gtid).distinct().count())
                .as("one end per transaction, each its own start ordinal")
                .isEqualTo(transactions);
        // the multi-statement transaction: its three rows share one start and are 0, 1, 2
        List<RowChange> multi = rows.subList(4, 7);
        assertThat(multi).extracting(RowChange::gtid).containsOnly(multi.get(0).gtid());
        assertThat(multi).extracting(RowChange::indexInTransaction).containsExactly(0, 1, 2);
        Gtid firstStart = ends.get(0).gtid();
        assertThat(BinlogPositionAxis.position(firstStart.transactionId()).compareTo(start))
                .as("the DDL starts at or after the start")
                .isGreaterThanOrEqualTo(0);

        // A restart from the set after the third transaction (the UPDATE): the rest, exactly once.
        GtidSet mid = processedAfter(all, ends.get(2));
        List<BinlogRecord> rest = stream(mid, transactions - 3);
        assertThat(ids(rows(rest))).containsExactly(2L, 3L, 3L, 1L, 4L);
        assertThat(rows(rest))
                .extracting(RowChange::gtid)
                .containsExactlyElementsOf(
                        rows.subList(3, 8).stream().map(RowChange::gtid).toList());
    }

    /**
     * A dropped binlog connection reconnects within the stream: the server identity is read again
     * (MariaDB has no server_uuid) and the stream resumes at its exact position, each row once.
     */
    @Test
    void aKilledDumpConnectionReconnectsAndResumesExactly() throws Exception {
        Position start = files().current();
        sql("INSERT INTO shop.orders VALUES (100, 1)", "INSERT INTO shop.orders VALUES (101, 1)");
        try (BinlogStreamer s =
                new BinlogStreamer(
                        config(ConnectorConfigs.rootConfig(server), ORDERS).build(),
                        BinlogStartPosition.of(AXIS.before(start)))) {
            s.start();
            List<BinlogRecord> out =
                    new ArrayList<>(drain(s, transactionEnds(2), Duration.ofSeconds(60)));
            sql("INSERT INTO shop.orders VALUES (102, 1)");
            killDumpThreads();
            sql("INSERT INTO shop.orders VALUES (103, 1)", "UPDATE shop.orders SET qty = 2");
            out.addAll(drain(s, transactionEnds(3), Duration.ofSeconds(60)));
            assertThat(ids(rows(out)))
                    .containsExactly(100L, 101L, 102L, 103L, 100L, 101L, 102L, 103L);
            assertThat(s.metrics().reconnects()).as("it reconnected").isEqualTo(1);
        }
    }

    /** Kills the server's binlog dump threads: the connector's binlog connection drops. */
    private static void killDumpThreads() throws Exception {
        List<Long> dumps = new ArrayList<>();
        try (Connection c = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SHOW PROCESSLIST")) {
                while (rs.next()) {
                    if (rs.getString("Command").startsWith("Binlog Dump")) {
                        dumps.add(rs.getLong("Id"));
                    }
                }
            }
            assertThat(dumps).as("the connector's dump thread").isNotEmpty();
            for (long id : dumps) {
                st.execute("KILL CONNECTION " + id);
            }
        }
    }

    @Test
    void anXaTransactionHaltsBeforeAnyOfItsRows() throws Exception {
        Position start = files().current();
        sql(
                "XA START 'capstan-x1'",
                "INSERT INTO shop.orders VALUES (10, 1)",
                "XA END 'capstan-x1'",
                "XA PREPARE 'capstan-x1'",
                "XA COMMIT 'capstan-x1'");

        List<BinlogRecord> before = new ArrayList<>();
        assertThat(haltOf(AXIS.before(start), before)).isEqualTo(HaltReason.XA_UNSUPPORTED);
        assertThat(rows(before)).isEmpty();
    }

    @Test
    void aCompressedEventHaltsByName() throws Exception {
        Position start = files().current();
        sql("SET GLOBAL log_bin_compress_min_len = 10", "SET GLOBAL log_bin_compress = ON");
        try {
            sql("INSERT INTO shop.orders VALUES (20, 2)");
        } finally {
            sql("SET GLOBAL log_bin_compress = OFF");
        }

        List<BinlogRecord> before = new ArrayList<>();
        assertThat(haltOf(AXIS.before(start), before)).isEqualTo(HaltReason.UNKNOWN_BINLOG_EVENT);
        assertThat(rows(before)).isEmpty();
    }

    /** Streams from {@code processed} until it halts; the records before go to {@code before}. */
    private static HaltReason haltOf(GtidSet processed, List<BinlogRecord> before)
            throws Exception {
        try (BinlogStreamer s =
                new BinlogStreamer(
                        config(ConnectorConfigs.rootConfig(server), ORDERS).build(),
                        BinlogStartPosition.of(processed))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            try {
                // the JDBC checks of a real start; a halt before the first connection is up
                // surfaces here
                s.start();
            } catch (CapstanHaltException halt) {
                return halt.reason();
            }
            while (System.nanoTime() < deadline) {
                try {
                    BinlogRecord r = s.poll(100, TimeUnit.MILLISECONDS);
                    if (r != null) {
                        before.add(r);
                    }
                } catch (CapstanHaltException halt) {
                    return halt.reason();
                }
            }
            throw new AssertionError("no halt within 60 s; records " + before.size());
        }
    }

    /** The set the stream had processed when {@code end} was emitted. */
    private static GtidSet processedAfter(List<BinlogRecord> all, TransactionEnd end) {
        assertThat(end.processedAfter()).as("position mode reports each end's set").isNotNull();
        assertThat(all).contains(end);
        return end.processedAfter();
    }

    /** Streams from {@code processed} until {@code transactions} transactions have ended. */
    private static List<BinlogRecord> stream(GtidSet processed, int transactions) throws Exception {
        try (BinlogStreamer s =
                new BinlogStreamer(
                        config(ConnectorConfigs.rootConfig(server), ORDERS).build(),
                        BinlogStartPosition.of(processed))) {
            s.start(); // the JDBC checks of a real start: identity, files, resume
            List<BinlogRecord> out =
                    drain(s, transactionEnds(transactions), Duration.ofSeconds(60));
            // nothing more arrives: no transaction twice
            List<BinlogRecord> late = new ArrayList<>();
            for (BinlogRecord r = s.poll(3, TimeUnit.SECONDS);
                    r != null;
                    r = s.poll(1, TimeUnit.SECONDS)) {
                late.add(r);
            }
            assertThat(rows(late)).isEmpty();
            assertThat(ends(late)).isEmpty();
            return out;
        }
    }

    /** Ends of transactions only: a position-mode stream also reports positions passed. */
    private static Predicate<List<BinlogRecord>> transactionEnds(int n) {
        return l -> ends(l).size() >= n;
    }

    private static List<TransactionEnd> ends(List<BinlogRecord> records) {
        List<TransactionEnd> out = new ArrayList<>();
        for (BinlogRecord r : records) {
            if (r instanceof TransactionEnd e && isTransaction(e)) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * A transaction's end, not positions passed between transactions (a rotation, the file-level
     * events, heartbeats): those carry the last position passed, just before the set's end.
     */
    private static boolean isTransaction(TransactionEnd e) {
        GtidSet read = e.processedAfter();
        return read == null
                || BinlogPositionAxis.ordinal(AXIS.firstMissing(read))
                        != e.gtid().transactionId() + 1;
    }

    private static List<Long> ids(List<RowChange> rows) {
        return rows.stream()
                .map(r -> (r.after() != null ? r.after() : r.before()).getLong(0))
                .collect(Collectors.toList());
    }

    /** The server's files and current position, as the connector reads them. */
    private static BinlogFiles files() throws Exception {
        try (Connection c = JdbcConnections.open(ConnectorConfigs.rootConfig(server))) {
            BinlogFiles files = ServerGtidState.read(c).files();
            assertThat(files).as("MariaDB runs on positions").isNotNull();
            return files;
        }
    }

    private static void sql(String... statements) throws Exception {
        try (Connection c = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.BlackHoleForwarder;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.endsAtLeast;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rows;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/** The streamer against the shared real MySQL: what it emits, resume, undecoded skip, KILL. */
class BinlogStreamerIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static TableId t;
    private static TableId other;

    @BeforeAll
    static void tables() {
        DB.execute(
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))",
                "CREATE TABLE other (id INT PRIMARY KEY, v VARCHAR(40))");
        t = TableId.of(DB.name(), "t");
        other = TableId.of(DB.name(), "other");
    }

    private static BinlogStartPosition latest() {
        return StartPositions.latest(connectorConfig(DB));
    }

    private static String summary(List<BinlogRecord> records) {
        return records.stream()
                .map(r -> r instanceof RowChange ? describe((RowChange) r) : "END")
                .collect(Collectors.joining(" "));
    }

    private static String describe(RowChange c) {
        String before =
                c.before() == null ? "" : c.before().getInt(0) + "/" + c.before().getString(1);
        String after = c.after() == null ? "" : c.after().getInt(0) + "/" + c.after().getString(1);
        return c.operation().name().charAt(0)
                + "#"
                + c.indexInTransaction()
                + "("
                + before
                + ">"
                + after
                + ")";
    }

    @Test
    void streamsInsertsUpdatesDeletesAndMultiStatementTransactions() throws Exception {
        DB.execute("DELETE FROM t");
        BinlogStartPosition start = latest();
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            s.start();
            DB.execute(
                    "INSERT INTO t VALUES (1, 'one')",
                    "UPDATE t SET v = 'uno' WHERE id = 1",
                    "DELETE FROM t WHERE id = 1");
            try (Connection c = DB.openRootConnection();
                    Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.execute("INSERT INTO t VALUES (2, 'two'), (3, 'three')");
                st.execute("INSERT INTO other VALUES (2, 'ignored')");
                st.execute("UPDATE t SET v = 'dos' WHERE id = 2");
                st.execute("UPDATE t SET id = 30 WHERE id = 3");
                st.execute("DELETE FROM t WHERE id = 2");
                c.commit();
            }
            List<BinlogRecord> out = drain(s, endsAtLeast(4), Duration.ofSeconds(30));
            assertThat(summary(out))
                    .isEqualTo(
                            "I#0(>1/one) END U#0(1/one>1/uno) END D#0(1/uno>) END "
                                    + "I#0(>2/two) I#1(>3/three) U#2(2/two>2/dos) U#3(3/three>30/three) D#4(2/dos>) END");
            BinlogPositionTracker tracker = new BinlogPositionTracker(start);
            out.forEach(tracker::onRecord);
            assertThat(tracker.position())
                    .isEqualTo(BinlogStartPosition.of(GtidSet.parse(DB.server().gtidExecuted())));
            RowChange first = (RowChange) out.get(0);
            assertThat(first.tableId()).isEqualTo(t);
            assertThat(first.schema().columnCount()).isEqualTo(2);
            assertThat(first.commitTimestampMicros()).isGreaterThan(1_600_000_000_000_000L);
            assertThat(s.metrics().rowChangesEmitted()).isEqualTo(8);
        }
    }

    @Test
    void transactionsOfUncapturedTablesAdvanceTheProcessedSetWithoutDecodingRows()
            throws Exception {
        BinlogStartPosition start = latest();
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            s.start();
            DB.execute(
                    "INSERT INTO other VALUES (100, 'x'), (101, 'y')",
                    "DELETE FROM other WHERE id >= 100");
            List<BinlogRecord> out = drain(s, endsAtLeast(2), Duration.ofSeconds(30));
            assertThat(out).allMatch(r -> r instanceof TransactionEnd).hasSize(2);
            BinlogPositionTracker tracker = new BinlogPositionTracker(start);
            out.forEach(tracker::onRecord);
            assertThat(tracker.position().processed())
                    .isEqualTo(GtidSet.parse(DB.server().gtidExecuted()));
            assertThat(s.metrics().uncapturedRowsEventsSkipped()).isEqualTo(2);
            assertThat(s.metrics().schemaBuilds()).isZero();
        }
    }

    @Test
    void resumeInsideATransactionSkipsExactlyTheRowsAlreadyEmitted() throws Exception {
        DB.execute("DELETE FROM t");
        BinlogStartPosition start = latest();
        DB.execute("INSERT INTO t VALUES (11, 'a'), (12, 'b'), (13, 'c'), (14, 'd'), (15, 'e')");
        List<BinlogRecord> all;
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            s.start();
            all = drain(s, endsAtLeast(1), Duration.ofSeconds(30));
        }
        assertThat(rows(all)).hasSize(5);
        for (int emitted = 0; emitted <= 5; emitted++) {
            BinlogPositionTracker tracker = new BinlogPositionTracker(start);
            all.subList(0, emitted).forEach(tracker::onRecord); // a checkpoint after `emitted` rows
            try (BinlogStreamer s =
                    new BinlogStreamer(
                            config(connectorConfig(DB), t).build(), tracker.position())) {
                s.start();
                List<BinlogRecord> rest = drain(s, endsAtLeast(1), Duration.ofSeconds(30));
                assertThat(summary(rest)).isEqualTo(summary(all.subList(emitted, all.size())));
                assertThat(s.metrics().rowChangesSkippedOnResume()).isEqualTo(emitted);
            }
        }
    }

    @Test
    void aLargeTransactionStreamsThroughASmallQueue() throws Exception {
        DB.execute("DELETE FROM t");
        BinlogStartPosition start = latest();
        int n = 20_000;
        DB.execute(
                "SET SESSION cte_max_recursion_depth = 100000",
                "INSERT INTO t WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < "
                        + n
                        + ") SELECT 1000 + i, CONCAT('v', i) FROM seq");
        try (BinlogStreamer s =
                new BinlogStreamer(
                        config(connectorConfig(DB), t).queueCapacity(16).build(), start)) {
            s.start();
            int maxQueued = 0;
            int expectIndex = 0;
            while (true) {
                maxQueued = Math.max(maxQueued, s.queuedRecords());
                BinlogRecord r = s.poll(5, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(r).as("record after %d rows", expectIndex).isNotNull();
                if (r instanceof TransactionEnd) {
                    break;
                }
                RowChange c = (RowChange) r;
                assertThat(c.indexInTransaction()).isEqualTo(expectIndex);
                assertThat(c.after().getInt(0)).isEqualTo(1001 + expectIndex);
                expectIndex++;
            }
            assertThat(expectIndex).isEqualTo(n);
            assertThat(maxQueued).isLessThanOrEqualTo(16);
        }
    }

    @Test
    void killOfTheDumpThreadReconnectsWithoutLossOrDuplicateEvenInsideATransaction()
            throws Exception {
        // Rows of 2 KB so that the transaction (40 MB) is far larger than the socket buffers: a
        // KILL then really cuts the stream in the middle of the transaction.
        DB.execute(
                "CREATE TABLE IF NOT EXISTS wide (id INT PRIMARY KEY, v TEXT)", "DELETE FROM wide");
        TableId wide = TableId.of(DB.name(), "wide");
        BinlogStartPosition start = latest();
        int n = 20_000;
        DB.execute(
                "SET SESSION cte_max_recursion_depth = 100000",
                "INSERT INTO wide WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < "
                        + n
                        + ") SELECT i, REPEAT(CHAR(65 + i % 26), 2000) FROM seq");
        for (int i = 1; i <= 20; i++) {
            DB.execute("UPDATE wide SET v = 'w" + i + "' WHERE id = " + i);
        }
        try (BinlogStreamer s =
                        new BinlogStreamer(
                                config(connectorConfig(DB), wide).queueCapacity(8).build(), start);
                Connection root = DB.server().openRootConnection()) {
            s.start();
            List<Integer> ids = new ArrayList<>();
            List<Integer> indexes = new ArrayList<>();
            List<String> gtids = new ArrayList<>();
            int ends = 0;
            int kills = 0;
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
            while (ends < 21) {
                assertThat(System.nanoTime())
                        .as("timeout; metrics %s", s.metrics())
                        .isLessThan(deadline);
                // Kill at rows 2000 and 9000, the second only once the first has reconnected.
                if (kills == 0 && ids.size() >= 2_000
                        || kills == 1 && ids.size() >= 9_000 && s.metrics().reconnects() >= 1) {
                    assertThat(
                                    StreamerFixture.killDumpThreads(
                                            root, DB.server().connectorAccount().username()))
                            .isEqualTo(1);
                    kills++;
                }
                BinlogRecord r = s.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (r instanceof TransactionEnd) {
                    ends++;
                } else if (r != null) {
                    RowChange c = (RowChange) r;
                    ids.add(c.after().getInt(0));
                    indexes.add(c.indexInTransaction());
                    gtids.add(c.gtid().toString());
                    int expectedLength = ids.size() <= n ? 2000 : ("w" + (ids.size() - n)).length();
                    assertThat(c.after().getString(1).toBytes().length).isEqualTo(expectedLength);
                }
            }
            assertThat(kills).isEqualTo(2);
            assertThat(ids).hasSize(n + 20);
            for (int i = 0; i < n; i++) {
                assertThat(ids.get(i)).isEqualTo(i + 1);
                assertThat(indexes.get(i)).isEqualTo(i);
                assertThat(gtids.get(i)).isEqualTo(gtids.get(0));
            }
            for (int i = 0; i < 20; i++) {
                assertThat(ids.get(n + i)).isEqualTo(i + 1);
                assertThat(indexes.get(n + i)).isZero();
            }
            assertThat(s.metrics().reconnects()).isEqualTo(2);
            assertThat(s.metrics().rowChangesSkippedOnResume())
                    .isGreaterThanOrEqualTo(2_000 + 9_000);
            assertThat(s.poll(500, java.util.concurrent.TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    void cachingSha2PasswordAuthenticatesWithoutTlsByRsaKeyExchange() throws Exception {
        // FLUSH PRIVILEGES empties the caching_sha2 cache: the next login takes the full path,
        // which over plain TCP needs the server's RSA public key.
        DB.server().executeAsRoot("FLUSH PRIVILEGES");
        BinlogStartPosition start = latest();
        DB.server().executeAsRoot("FLUSH PRIVILEGES");
        BinlogStreamerConfig cfg =
                config(connectorConfig(DB).toBuilder().sslMode(SslMode.DISABLED).build(), t)
                        .build();
        try (BinlogStreamer s = new BinlogStreamer(cfg, start)) {
            s.start();
            DB.execute("INSERT INTO other VALUES (500, 'x')");
            drain(s, endsAtLeast(1), Duration.ofSeconds(30));
            assertThat(s.metrics().isConnected()).isTrue();
        }
    }

    @Test
    void cachingSha2PasswordAuthenticatesOverTls() throws Exception {
        // A user that may only log in over TLS proves the binlog connection used it.
        DB.server()
                .executeAsRoot(
                        "CREATE USER IF NOT EXISTS 'capstan_tls'@'%' IDENTIFIED WITH caching_sha2_password BY 'Tls-pass-1' REQUIRE SSL",
                        "GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'capstan_tls'@'%'",
                        "FLUSH PRIVILEGES");
        io.capstan.flink.mysql.connect.MySqlConnectionConfig tlsUser =
                connectorConfig(DB).toBuilder()
                        .username("capstan_tls")
                        .password("Tls-pass-1")
                        .sslMode(SslMode.REQUIRED)
                        .build();
        BinlogStartPosition start = StartPositions.latest(tlsUser);
        DB.server().executeAsRoot("FLUSH PRIVILEGES"); // full caching_sha2 authentication again
        try (BinlogStreamer s = new BinlogStreamer(config(tlsUser, t).build(), start)) {
            s.start();
            DB.execute("INSERT INTO other VALUES (501, 'x')");
            drain(s, endsAtLeast(1), Duration.ofSeconds(30));
        }
        // Without TLS the same user is refused: the binlog connection halts at authentication.
        BinlogStreamerConfig plain =
                config(tlsUser.toBuilder().sslMode(SslMode.DISABLED).build(), t).build();
        try (BinlogStreamer s = new BinlogStreamer(plain, start)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(s::connect)
                    .isInstanceOfSatisfying(
                            io.capstan.flink.mysql.error.CapstanHaltException.class,
                            e ->
                                    assertThat(e.reason())
                                            .isEqualTo(
                                                    io.capstan.flink.mysql.error.HaltReason
                                                            .INVALID_CONFIGURATION));
        }
    }

    @Test
    void aTlsConnectionResetInsideAnEventReconnectsAndLosesAndRepeatsNothing() throws Exception {
        DB.execute("CREATE TABLE IF NOT EXISTS big (id INT PRIMARY KEY, v LONGBLOB)");
        TableId big = TableId.of(DB.name(), "big");
        BinlogStartPosition start = latest();
        try (BlackHoleForwarder network =
                        new BlackHoleForwarder(DB.server().host(), DB.server().port());
                BinlogStreamer s =
                        new BinlogStreamer(
                                config(
                                                connectorConfig(DB).toBuilder()
                                                        .hostname(network.host())
                                                        .port(network.port())
                                                        .sslMode(SslMode.REQUIRED)
                                                        .build(),
                                                big)
                                        .build(),
                                start)) {
            s.start();
            DB.execute("INSERT INTO big VALUES (1, 'small')");
            List<BinlogRecord> out =
                    new ArrayList<>(drain(s, endsAtLeast(1), Duration.ofSeconds(30)));
            // The next bytes the server sends are this transaction's events; a 4 MB rows event is
            // read from the socket while it is decoded, so the reset lands inside it. TLS reports
            // it as an SSLException caused by the socket's failure.
            network.cutAfter(1_000_000);
            DB.execute("INSERT INTO big VALUES (2, REPEAT('x', 4 * 1024 * 1024))");
            DB.execute("INSERT INTO big VALUES (3, 'small')");
            out.addAll(drain(s, endsAtLeast(2), Duration.ofSeconds(60)));
            assertThat(rows(out)).extracting(c -> c.after().getInt(0)).containsExactly(1, 2, 3);
            assertThat(rows(out).get(1).after().getBinary(1)).hasSize(4 * 1024 * 1024);
            assertThat(s.metrics().reconnects()).isGreaterThanOrEqualTo(1);
        }
    }
}

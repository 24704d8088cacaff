package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.endsAtLeast;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Halts raised for real by the shared MySQL: XA, foreign positions, a second replica with our id.
 */
class BinlogHaltsIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static TableId t;

    @BeforeAll
    static void tables() {
        DB.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))");
        t = TableId.of(DB.name(), "t");
    }

    static void assertHalt(ThrowingCallable call, HaltReason reason) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(reason);
                            assertThat(e.getMessage()).contains("Remedy");
                        });
    }

    /** Polls until the stream halts; fails if it does not within 30 s. */
    static void pollUntilHalt(BinlogStreamer s, HaltReason reason) {
        assertHalt(
                () -> {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (System.nanoTime() < deadline) {
                        s.poll(100, TimeUnit.MILLISECONDS);
                    }
                },
                reason);
    }

    @Test
    void aCommitOfAnXaTransactionPreparedBeforeTheStartHalts() throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement()) {
            st.execute("XA START 'capstan-xa'");
            st.execute("INSERT INTO t VALUES (901, 'xa')");
            st.execute("XA END 'capstan-xa'");
            st.execute("XA PREPARE 'capstan-xa'");
        }
        // The start position holds the prepared part's GTID: its rows are behind the stream.
        BinlogStartPosition start = StartPositions.latest(connectorConfig(DB));
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            s.start();
            try (Connection c = DB.openRootConnection();
                    Statement st = c.createStatement()) {
                st.execute("XA COMMIT 'capstan-xa'");
            }
            pollUntilHalt(s, HaltReason.XA_PREPARED_BEFORE_START);
            assertThat(s.metrics().rowChangesEmitted()).isZero();
        }
    }

    @Test
    void aPositionWithAForeignServerUuidHaltsBeforeConnecting() {
        GtidSet foreign =
                StartPositions.latest(connectorConfig(DB))
                        .processed()
                        .add(Gtid.of("ffffffff-1111-2222-3333-444444444444", 1));
        BinlogStartPosition start = BinlogStartPosition.of(foreign);
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            assertHalt(s::start, HaltReason.SOURCE_IDENTITY_MISMATCH);
        }
        assertHalt(
                () -> StartPositions.gtidSet(connectorConfig(DB), foreign),
                HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void aPositionAheadOfTheServerHaltsBeforeConnectingAndTheServersOwnRefusalMapsToo() {
        String uuid = DB.server().serverUuid();
        GtidSet executed = GtidSet.parse(DB.server().gtidExecuted());
        GtidSet ahead = executed.add(Gtid.of(uuid, 1_000_000));
        BinlogStartPosition start = BinlogStartPosition.of(ahead);
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            assertHalt(s::start, HaltReason.SOURCE_IDENTITY_MISMATCH);
        }
        // Past the JDBC check, the server refuses the dump itself (error 1236).
        try (BinlogStreamer s = new BinlogStreamer(config(connectorConfig(DB), t).build(), start)) {
            try {
                s.connect();
            } catch (CapstanHaltException e) {
                assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                return;
            }
            pollUntilHalt(s, HaltReason.SOURCE_IDENTITY_MISMATCH);
        }
    }

    @Test
    void anotherReplicaWithOurServerIdHalts() throws Exception {
        BinlogStreamerConfig cfg = config(connectorConfig(DB), t).build();
        BinlogStartPosition start = StartPositions.latest(connectorConfig(DB));
        try (BinlogStreamer first = new BinlogStreamer(cfg, start)) {
            first.start();
            DB.execute("INSERT INTO t VALUES (100, 'before')");
            drain(first, endsAtLeast(1), Duration.ofSeconds(30));
            try (BinlogStreamer second = new BinlogStreamer(cfg, start)) {
                second.start(); // the server drops the first dump in favour of this one
                pollUntilHalt(first, HaltReason.SERVER_ID_CONFLICT);
                assertThat(first.metrics().reconnects()).isZero();
                DB.execute("INSERT INTO t VALUES (101, 'after')");
                assertThat(drain(second, endsAtLeast(2), Duration.ofSeconds(30))).isNotEmpty();
            }
        }
    }

    /**
     * Every reconnect reads the server's identity first; a login refused there (the password was
     * changed while the job ran) halts by name instead of reconnecting until the budget is spent.
     */
    @Test
    void aRefusedLoginWhenReadingTheServerIdentityHalts() {
        assertThatThrownBy(
                        () ->
                                ServerIdentity.read(
                                        connectorConfig(DB).toBuilder()
                                                .password("not-the-password")
                                                .build()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION);
                            assertThat(e.getMessage())
                                    .contains("refused")
                                    .doesNotContain("not-the-password");
                        });
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializationException;
import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.UUID_B;
import static org.assertj.core.api.Assertions.assertThat;

/** The reconnect decisions and loop, with clients that never reach a server. */
class ReconnectSupervisorTest {

    private static final BinlogStartPosition P =
            BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-10"));

    private static BinlogStreamerConfig config(int maxAttempts, Duration initialBackoff) {
        return BinlogStreamerConfig.builder()
                .connection(
                        MySqlConnectionConfig.builder()
                                .hostname("db.example")
                                .port(3306)
                                .username("capstan")
                                .password("PASSWORD-SECRET")
                                .build())
                .serverId(4242)
                .tableFilter(TableFilter.of(Set.of()))
                .reconnectBackoff(initialBackoff, initialBackoff.multipliedBy(8))
                .reconnectMaxAttempts(maxAttempts)
                .reconnectMaxDuration(Duration.ofHours(1))
                .build();
    }

    /** The server id a client reports that never reached a server: the fakes' "server". */
    private static final long FAKE_SERVER_ID = -1;

    /** The server the fake clients reach: it executed everything any test position holds. */
    private static final ServerIdentity SERVER_A =
            identity(UUID_A, UUID_A + ":1-1000", "", FAKE_SERVER_ID);

    private static ServerIdentity identity(
            String uuid, String executed, String purged, long serverId) {
        return new ServerIdentity(
                uuid, serverId, ServerGtidState.of(GtidSet.parse(executed), GtidSet.parse(purged)));
    }

    private static ReconnectSupervisor supervisor(
            BinlogStreamerConfig c, BinlogStreamerMetrics metrics, AtomicLong clock) {
        return supervisor(c, metrics, clock, () -> SERVER_A);
    }

    private static ReconnectSupervisor supervisor(
            BinlogStreamerConfig c,
            BinlogStreamerMetrics metrics,
            AtomicLong clock,
            ReconnectSupervisor.IdentityProbe probe) {
        ReconnectBackoff backoff =
                new ReconnectBackoff(
                        c.reconnectInitialBackoff(),
                        c.reconnectMaxBackoff(),
                        c.reconnectMaxAttempts(),
                        c.reconnectMaxDuration(),
                        () -> 0.0);
        return new ReconnectSupervisor(c, backoff, metrics, clock::get, probe);
    }

    @Test
    void aTransientFailureReconnectsAfterTheBackoffUntilTheBudgetIsSpent() {
        ReconnectSupervisor s =
                supervisor(
                        config(2, Duration.ofMillis(100)),
                        new BinlogStreamerMetrics(),
                        new AtomicLong());
        assertThat(s.afterConnectionEnded(new EOFException(), P))
                .isEqualTo(new ReconnectSupervisor.Reconnect(50));
        assertThat(s.afterConnectionEnded(null, P))
                .isEqualTo(new ReconnectSupervisor.Reconnect(100));
        ReconnectSupervisor.Next spent =
                s.afterConnectionEnded(new IOException("Connection reset"), P);
        assertThat(spent)
                .isInstanceOfSatisfying(
                        ReconnectSupervisor.Halt.class,
                        h -> {
                            assertThat(h.halt()).isInstanceOf(RetryBudgetExhaustedException.class);
                            assertThat(h.halt().reason())
                                    .isEqualTo(HaltReason.RECONNECT_BUDGET_EXHAUSTED);
                            assertThat(h.halt().getMessage())
                                    .contains(
                                            "db.example:3306",
                                            "after 2 attempts",
                                            "IOException: Connection reset")
                                    .doesNotContain("PASSWORD-SECRET");
                        });
        // a connection that came up restores the whole budget
        s.connected();
        assertThat(s.afterConnectionEnded(new EOFException(), P))
                .isEqualTo(new ReconnectSupervisor.Reconnect(50));
    }

    @Test
    void aFailureThatCallsForAHaltHaltsWithoutSpendingTheBudget() {
        ReconnectSupervisor s =
                supervisor(
                        config(1, Duration.ofMillis(100)),
                        new BinlogStreamerMetrics(),
                        new AtomicLong());
        assertThat(
                        s.afterConnectionEnded(
                                new AuthenticationException("Access denied", 1045, "28000"), P))
                .isInstanceOfSatisfying(
                        ReconnectSupervisor.Halt.class,
                        h ->
                                assertThat(h.halt().reason())
                                        .isEqualTo(HaltReason.INVALID_CONFIGURATION));
        assertThat(s.afterConnectionEnded(new EOFException(), P))
                .isInstanceOf(ReconnectSupervisor.Reconnect.class);
    }

    /**
     * The library reports an event read past its end as a lost connection (an EOF inside the
     * event): once is the network, the same event three times in a row from the same position is
     * the event, and halts by name instead of spending the reconnect budget.
     */
    @Test
    void theSameEventFailingToDecodeThreeTimesInARowHaltsUndecodable() {
        ReconnectSupervisor s =
                supervisor(
                        config(100, Duration.ofMillis(100)),
                        new BinlogStreamerMetrics(),
                        new AtomicLong());
        assertThat(s.afterConnectionEnded(decodeFailure(1123), P))
                .isInstanceOf(ReconnectSupervisor.Reconnect.class);
        // another event in between (or any other failure) starts the count again
        assertThat(s.afterConnectionEnded(decodeFailure(2000), P))
                .isInstanceOf(ReconnectSupervisor.Reconnect.class);
        assertThat(s.afterConnectionEnded(decodeFailure(1123), P))
                .isInstanceOf(ReconnectSupervisor.Reconnect.class);
        assertThat(s.afterConnectionEnded(decodeFailure(1123), P))
                .isInstanceOf(ReconnectSupervisor.Reconnect.class);
        assertThat(s.afterConnectionEnded(decodeFailure(1123), P))
                .isInstanceOfSatisfying(
                        ReconnectSupervisor.Halt.class,
                        h -> {
                            assertThat(h.halt().reason()).isEqualTo(HaltReason.UNDECODABLE_COLUMN);
                            assertThat(h.halt().getMessage())
                                    .contains("TABLE_MAP ending at 1123", "3 times in a row");
                        });
    }

    private static EventDataDeserializationException decodeFailure(long nextPosition) {
        EventHeaderV4 header = new EventHeaderV4();
        header.setEventType(EventType.TABLE_MAP);
        header.setNextPosition(nextPosition);
        return new EventDataDeserializationException(header, new EOFException());
    }

    /** A client whose connections end at once: up and closed by the server, or refused. */
    private static final class FakeClient extends BinaryLogClient {
        private final ReconnectSupervisor supervisor;
        private final boolean comesUp;

        FakeClient(ReconnectSupervisor supervisor, boolean comesUp) {
            super("db.example", 3306, "capstan", "PASSWORD-SECRET");
            this.supervisor = supervisor;
            this.comesUp = comesUp;
        }

        @Override
        public void connect() throws IOException {
            if (!comesUp) {
                throw new IOException("Connection refused");
            }
            supervisor.connected(); // what the lifecycle listener reports
        }
    }

    /**
     * Connects from the resume position each time; the first {@code upFirst} connections come up.
     */
    private static class FakeStream implements ReconnectSupervisor.Stream {
        final List<BinlogStartPosition> connectedFrom = new ArrayList<>();
        final List<CapstanHaltException> halts = new ArrayList<>();
        ReconnectSupervisor supervisor;
        BinlogStartPosition resume = P;
        int upFirst;

        @Override
        public BinlogStartPosition resumePosition() {
            return resume;
        }

        @Override
        public BinaryLogClient clientFrom(BinlogStartPosition position) {
            connectedFrom.add(position);
            // the stream moves on while connected: the next connection must start from there
            resume =
                    BinlogStartPosition.of(
                            GtidSet.parse(UUID_A + ":1-" + (10 + connectedFrom.size())));
            return new FakeClient(supervisor, connectedFrom.size() <= upFirst);
        }

        @Override
        public boolean stopped() {
            return !halts.isEmpty();
        }

        @Override
        public void halt(CapstanHaltException halt) {
            halts.add(halt);
        }
    }

    @Test
    void theLoopResumesFromTheCurrentPositionAndHaltsWhenTheBudgetIsSpent() throws Exception {
        BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
        ReconnectSupervisor s =
                supervisor(config(3, Duration.ofMillis(1)), metrics, new AtomicLong());
        FakeStream stream = new FakeStream();
        stream.supervisor = s;
        stream.upFirst = 2; // up, up, then refused until the budget of 3 is spent
        s.run(stream);

        // the end of the second connection is the budget's first failure, two refusals follow,
        // and the third refusal finds the budget spent
        assertThat(stream.connectedFrom).hasSize(5);
        for (int i = 0; i < stream.connectedFrom.size(); i++) {
            assertThat(stream.connectedFrom.get(i).processed())
                    .isEqualTo(GtidSet.parse(UUID_A + ":1-" + (10 + i)));
        }
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.reason()).isEqualTo(HaltReason.RECONNECT_BUDGET_EXHAUSTED);
                            assertThat(h.getMessage())
                                    .contains("after 3 attempts", "Connection refused");
                        });
        assertThat(metrics.reconnects()).isEqualTo(1); // the second connection was a reconnect
        assertThat(metrics.isConnected()).isFalse();
    }

    @Test
    void theLoopStopsAtAHaltOfTheFailure() throws Exception {
        ReconnectSupervisor s =
                supervisor(
                        config(100, Duration.ofMillis(1)),
                        new BinlogStreamerMetrics(),
                        new AtomicLong());
        FakeStream stream =
                new FakeStream() {
                    @Override
                    public BinaryLogClient clientFrom(BinlogStartPosition position) {
                        connectedFrom.add(position);
                        return new BinaryLogClient("db.example", 3306, "capstan", "x") {
                            @Override
                            public void connect() throws IOException {
                                throw new AuthenticationException("Access denied", 1045, "28000");
                            }
                        };
                    }
                };
        s.run(stream);
        assertThat(stream.connectedFrom).hasSize(1);
        assertThat(stream.halts)
                .singleElement()
                .satisfies(h -> assertThat(h.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION));
    }

    // ---- the server check before every reconnect ----

    /** Answers with {@code servers} in turn, repeating the last one. */
    private static ReconnectSupervisor.IdentityProbe probes(ServerIdentity... servers) {
        Iterator<ServerIdentity> it = List.of(servers).iterator();
        ServerIdentity[] last = new ServerIdentity[1];
        return () -> {
            if (it.hasNext()) {
                last[0] = it.next();
            }
            return last[0];
        };
    }

    private static ReconnectSupervisor supervisor(
            int maxAttempts, BinlogStreamerMetrics metrics, ReconnectSupervisor.IdentityProbe p) {
        return supervisor(config(maxAttempts, Duration.ofMillis(1)), metrics, new AtomicLong(), p);
    }

    private static FakeStream stream(ReconnectSupervisor s, int upFirst) {
        FakeStream stream = new FakeStream();
        stream.supervisor = s;
        stream.upFirst = upFirst;
        return stream;
    }

    @Test
    void aFailoverToAServerHoldingEveryProcessedTransactionContinues() throws Exception {
        // B replicated all of A (log_replica_updates) and took writes of its own after promotion
        ServerIdentity promoted =
                identity(UUID_B, UUID_A + ":1-1000," + UUID_B + ":1-5", "", FAKE_SERVER_ID);
        ReconnectSupervisor s =
                supervisor(1, new BinlogStreamerMetrics(), probes(SERVER_A, promoted));
        FakeStream stream = stream(s, 2);
        s.run(stream);

        // up on A, up on B from the position reached on A, then refused until the budget is spent
        assertThat(stream.connectedFrom).hasSize(3);
        assertThat(stream.connectedFrom.get(1).processed())
                .isEqualTo(GtidSet.parse(UUID_A + ":1-11"));
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h ->
                                assertThat(h.reason())
                                        .isEqualTo(HaltReason.RECONNECT_BUDGET_EXHAUSTED));
    }

    @Test
    void aFailoverToAReplicaThatMissedDeliveredTransactionsHaltsBeforeConnecting()
            throws Exception {
        // the first connection delivered A:11; the promoted replica stopped applying at A:10
        ServerIdentity behind =
                identity(UUID_B, UUID_A + ":1-10," + UUID_B + ":1-3", "", FAKE_SERVER_ID);
        ReconnectSupervisor s =
                supervisor(5, new BinlogStreamerMetrics(), probes(SERVER_A, behind));
        FakeStream stream = stream(s, 5);
        s.run(stream);

        assertThat(stream.connectedFrom).hasSize(1);
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                            assertThat(h.getMessage())
                                    .contains(UUID_A + ":11", "is now server_uuid " + UUID_B)
                                    .contains("reached " + UUID_A, "Remedy")
                                    .doesNotContain("PASSWORD-SECRET");
                        });
    }

    @Test
    void theOldPrimaryAfterTheWritesMovedOnHalts() throws Exception {
        // streaming from B (it took B:1-5 after the failover), then the address leads back to A
        ServerIdentity promoted =
                identity(UUID_B, UUID_A + ":1-10," + UUID_B + ":1-5", "", FAKE_SERVER_ID);
        ServerIdentity oldPrimary = identity(UUID_A, UUID_A + ":1-10", "", FAKE_SERVER_ID);
        ReconnectSupervisor s =
                supervisor(5, new BinlogStreamerMetrics(), probes(promoted, oldPrimary));
        FakeStream stream = stream(s, 5);
        stream.resume = BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-10," + UUID_B + ":1-5"));
        s.run(stream);

        assertThat(stream.connectedFrom).hasSize(1);
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                            assertThat(h.getMessage()).contains("is now server_uuid " + UUID_A);
                        });
    }

    @Test
    void aNewServerThatPurgedNeededTransactionsHaltsWithADataGap() throws Exception {
        ServerIdentity purgedAhead =
                identity(UUID_B, UUID_A + ":1-1000", UUID_A + ":1-500", FAKE_SERVER_ID);
        ReconnectSupervisor s =
                supervisor(5, new BinlogStreamerMetrics(), probes(SERVER_A, purgedAhead));
        FakeStream stream = stream(s, 5);
        s.run(stream);

        assertThat(stream.connectedFrom).hasSize(1);
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.reason()).isEqualTo(HaltReason.DATA_GAP);
                            assertThat(h.getMessage())
                                    .contains(UUID_A + ":12-500", "log_replica_updates");
                        });
    }

    @Test
    void theSameServerIsCheckedOnEveryReconnectToo() throws Exception {
        // the server purged past the position while the connection was down
        ServerIdentity purged =
                identity(UUID_A, UUID_A + ":1-1000", UUID_A + ":1-20", FAKE_SERVER_ID);
        ReconnectSupervisor s =
                supervisor(5, new BinlogStreamerMetrics(), probes(SERVER_A, purged));
        FakeStream stream = stream(s, 5);
        s.run(stream);

        assertThat(stream.connectedFrom).hasSize(1);
        assertThat(stream.halts)
                .singleElement()
                .satisfies(h -> assertThat(h.reason()).isEqualTo(HaltReason.DATA_GAP));
    }

    @Test
    void aServerThatCannotBeReadIsNotStreamedFromOnAReconnect() throws Exception {
        ReconnectSupervisor s =
                supervisor(
                        2,
                        new BinlogStreamerMetrics(),
                        () -> {
                            throw new IOException("Connection refused (identity)");
                        });
        FakeStream stream = stream(s, 5);
        s.run(stream);

        // the first connection meets the server itself; no reconnect streams unchecked
        assertThat(stream.connectedFrom).hasSize(1);
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.reason()).isEqualTo(HaltReason.RECONNECT_BUDGET_EXHAUSTED);
                            assertThat(h.getMessage()).contains("Connection refused (identity)");
                        });
    }

    @Test
    void aConnectionThatReachedAnotherServerThanTheCheckedOneIsDropped() throws Exception {
        // the address switched between the check (server id 7) and the binlog connection (-1)
        BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
        ReconnectSupervisor s =
                supervisor(1, metrics, probes(identity(UUID_A, UUID_A + ":1-1000", "", 7)));
        FakeStream stream = stream(s, 5);
        s.run(stream);

        // dropped before it counted as up: the budget is not restored, so the next end halts
        assertThat(stream.connectedFrom).hasSize(2);
        assertThat(metrics.reconnects()).isZero();
        assertThat(stream.halts)
                .singleElement()
                .satisfies(
                        h ->
                                assertThat(h.getMessage())
                                        .contains("reached server id -1, not the checked server"));
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import io.capstan.flink.mysql.gtid.GtidSet;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
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

    private static ReconnectSupervisor supervisor(
            BinlogStreamerConfig c, BinlogStreamerMetrics metrics, AtomicLong clock) {
        ReconnectBackoff backoff =
                new ReconnectBackoff(
                        c.reconnectInitialBackoff(),
                        c.reconnectMaxBackoff(),
                        c.reconnectMaxAttempts(),
                        c.reconnectMaxDuration(),
                        () -> 0.0);
        return new ReconnectSupervisor(c, backoff, metrics, clock::get);
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
}

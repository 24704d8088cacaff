package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.table.data.GenericRowData;

import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializationException;
import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.ServerException;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.UUID_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PositionAndBackoffTest {

    private static final GtidSet P = GtidSet.parse(UUID_A + ":1-10");

    private static RowChange change(long n, int index) {
        return new RowChange(
                TableId.of("d", "t"),
                null,
                Operation.INSERT,
                null,
                GenericRowData.of(1),
                Gtid.of(UUID_A, n),
                index,
                0);
    }

    // ---- BinlogStartPosition ----

    @Test
    void startPositionValidatesItsParts() {
        assertThatThrownBy(() -> BinlogStartPosition.of(P, Gtid.of(UUID_A, 5), 2))
                .hasMessageContaining("already in the processed set");
        assertThatThrownBy(() -> BinlogStartPosition.of(P, Gtid.of(UUID_A, 11), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(BinlogStartPosition.of(P, Gtid.of(UUID_A, 11), 0))
                .isEqualTo(BinlogStartPosition.of(P));
        BinlogStartPosition mid = BinlogStartPosition.of(P, Gtid.of(UUID_A, 11), 4);
        assertThat(mid.rowsToSkip(Gtid.of(UUID_A, 11))).isEqualTo(4);
        assertThat(mid.rowsToSkip(Gtid.of(UUID_A, 12))).isZero();
    }

    @Test
    void startPositionSurvivesJavaSerialization() throws Exception {
        BinlogStartPosition mid = BinlogStartPosition.of(P, Gtid.of(UUID_B, 3), 4);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(mid);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(mid);
        }
    }

    // ---- BinlogPositionTracker ----

    @Test
    void trackerFollowsRowsAndTransactionEnds() {
        BinlogPositionTracker t = new BinlogPositionTracker(BinlogStartPosition.of(P));
        t.onRecord(change(11, 0));
        t.onRecord(change(11, 1));
        assertThat(t.position()).isEqualTo(BinlogStartPosition.of(P, Gtid.of(UUID_A, 11), 2));
        t.onRecord(new TransactionEnd(Gtid.of(UUID_A, 11), 0));
        assertThat(t.position()).isEqualTo(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-11")));
    }

    @Test
    void trackerKeepsTheResumedSkipUntilThatTransactionIsSeen() {
        BinlogStartPosition start = BinlogStartPosition.of(P, Gtid.of(UUID_A, 11), 3);
        BinlogPositionTracker t = new BinlogPositionTracker(start);
        assertThat(t.position()).isEqualTo(start);
        t.onRecord(new TransactionEnd(Gtid.of(UUID_B, 1), 0)); // another transaction first
        assertThat(t.position())
                .isEqualTo(
                        BinlogStartPosition.of(P.add(Gtid.of(UUID_B, 1)), Gtid.of(UUID_A, 11), 3));
        t.onRecord(change(11, 3));
        assertThat(t.position().rowsAlreadyEmitted()).isEqualTo(4);
        t.onRecord(new TransactionEnd(Gtid.of(UUID_A, 11), 0));
        assertThat(t.position().partialGtid()).isNull();
    }

    // ---- ReconnectBackoff ----

    @Test
    void backoffDoublesWithJitterAndIsCapped() {
        ReconnectBackoff lowest =
                new ReconnectBackoff(
                        Duration.ofMillis(100),
                        Duration.ofMillis(1000),
                        Integer.MAX_VALUE,
                        Duration.ofHours(1),
                        () -> 0.0);
        assertThat(lowest.nextDelayMillis(0)).isEqualTo(50);
        assertThat(lowest.nextDelayMillis(0)).isEqualTo(100);
        assertThat(lowest.nextDelayMillis(0)).isEqualTo(200);
        ReconnectBackoff highest =
                new ReconnectBackoff(
                        Duration.ofMillis(100),
                        Duration.ofMillis(1000),
                        Integer.MAX_VALUE,
                        Duration.ofHours(1),
                        () -> 0.999999);
        long[] delays = new long[6];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = highest.nextDelayMillis(0);
        }
        assertThat(delays).containsExactly(99, 199, 399, 799, 999, 999);
        assertThat(highest.nominalDelayMillis(200)).isEqualTo(1000); // no overflow
    }

    @Test
    void backoffBudgetByAttemptsAndByTimeAndReset() {
        ReconnectBackoff byAttempts =
                new ReconnectBackoff(
                        Duration.ofMillis(10),
                        Duration.ofMillis(10),
                        2,
                        Duration.ofHours(1),
                        () -> 0.5);
        assertThat(byAttempts.nextDelayMillis(0)).isPositive();
        assertThat(byAttempts.nextDelayMillis(0)).isPositive();
        assertThat(byAttempts.nextDelayMillis(0)).isEqualTo(-1);
        byAttempts.reset();
        assertThat(byAttempts.nextDelayMillis(0)).isPositive();

        ReconnectBackoff byTime =
                new ReconnectBackoff(
                        Duration.ofMillis(400),
                        Duration.ofMillis(400),
                        Integer.MAX_VALUE,
                        Duration.ofMillis(1000),
                        () -> 1.0);
        assertThat(byTime.nextDelayMillis(10_000)).isEqualTo(400); // lost at 10 000
        assertThat(byTime.nextDelayMillis(10_400)).isEqualTo(400);
        assertThat(byTime.nextDelayMillis(10_800))
                .isEqualTo(200); // last attempt at the budget's end
        assertThat(byTime.nextDelayMillis(11_000)).isEqualTo(-1);
    }

    // ---- ResumeCheck ----

    @Test
    void resumeCheckFindsGapsAndForeignTransactions() {
        GtidSet executed = GtidSet.parse(UUID_A + ":1-100");
        GtidSet purged = GtidSet.parse(UUID_A + ":1-20");
        ServerGtidState state = ServerGtidState.of(executed, purged);
        ResumeCheck.check(BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-20")), state, "h:1");
        ResumeCheck.check(BinlogStartPosition.of(executed), state, "h:1");

        assertThatThrownBy(
                        () ->
                                ResumeCheck.check(
                                        BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-19")),
                                        state,
                                        "h:1"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP);
                            assertThat(e.getMessage()).contains(UUID_A + ":20");
                        });
        // The partial transaction itself is needed: purged -> gap.
        assertThatThrownBy(
                        () ->
                                ResumeCheck.check(
                                        BinlogStartPosition.of(
                                                GtidSet.parse(UUID_A + ":1-19"),
                                                Gtid.of(UUID_A, 20),
                                                1),
                                        state,
                                        "h:1"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP));
        assertThatThrownBy(
                        () ->
                                ResumeCheck.check(
                                        BinlogStartPosition.of(
                                                GtidSet.parse(UUID_A + ":1-100," + UUID_B + ":1")),
                                        state,
                                        "h:1"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                            assertThat(e.getMessage()).contains(UUID_B);
                        });
    }

    @Test
    void resumeCheckNeedsThePartlyDeliveredTransactionOnTheServer() {
        // A:21 was partly delivered from the old primary; the new server never executed it
        BinlogStartPosition inside =
                BinlogStartPosition.of(GtidSet.parse(UUID_A + ":1-20"), Gtid.of(UUID_A, 21), 3);
        ServerIdentity behind =
                new ServerIdentity(
                        UUID_B,
                        2,
                        ServerGtidState.of(
                                GtidSet.parse(UUID_A + ":1-20," + UUID_B + ":1"), GtidSet.empty()));
        assertThatThrownBy(() -> ResumeCheck.checkReconnect(inside, UUID_A, behind, "h:1"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                            assertThat(e.getMessage()).contains(UUID_A + ":21");
                        });
        ServerIdentity holding =
                new ServerIdentity(
                        UUID_B,
                        2,
                        ServerGtidState.of(
                                GtidSet.parse(UUID_A + ":1-21," + UUID_B + ":1"), GtidSet.empty()));
        assertThat(ResumeCheck.checkReconnect(inside, UUID_A, holding, "h:1")).isTrue();
        assertThat(ResumeCheck.checkReconnect(inside, UUID_B, holding, "h:1")).isFalse();
        assertThat(ResumeCheck.checkReconnect(inside, null, holding, "h:1")).isFalse();
    }

    // ---- ServerFailures ----

    @Test
    void serverErrorsMapToHaltsOrRetries() {
        BinlogStartPosition pos = BinlogStartPosition.of(P);
        assertThat(
                        ServerFailures.haltFor(
                                        new ServerException(
                                                "The slave is connecting using CHANGE MASTER TO MASTER_AUTO_POSITION = 1, but the master has"
                                                        + " purged binary logs containing GTIDs that the slave requires.",
                                                1236,
                                                "HY000"),
                                        pos,
                                        7,
                                        "h:1")
                                .reason())
                .isEqualTo(HaltReason.DATA_GAP);
        assertThat(
                        ServerFailures.haltFor(
                                        new ServerException(
                                                "Slave has more GTIDs than the master has, using the master's SERVER_UUID.",
                                                1236,
                                                "HY000"),
                                        pos,
                                        7,
                                        "h:1")
                                .reason())
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(
                        ServerFailures.haltFor(
                                        new ServerException(
                                                "A slave with the same server_uuid/server_id as this slave has connected to the master;"
                                                        + " the first event 'binlog.000001' at 4",
                                                1236,
                                                "HY000"),
                                        pos,
                                        7,
                                        "h:1")
                                .reason())
                .isEqualTo(HaltReason.SERVER_ID_CONFLICT);
        assertThat(
                        ServerFailures.haltFor(
                                        new AuthenticationException("Access denied", 1045, "28000"),
                                        pos,
                                        7,
                                        "h:1")
                                .reason())
                .isEqualTo(HaltReason.INVALID_CONFIGURATION);
        assertThat(ServerFailures.haltFor(new EOFException(), pos, 7, "h:1")).isNull();
        assertThat(ServerFailures.haltFor(null, pos, 7, "h:1")).isNull();
        assertThat(
                        ServerFailures.haltFor(
                                new ServerException(
                                        "Query execution was interrupted", 1317, "70100"),
                                pos,
                                7,
                                "h:1"))
                .isNull();
    }

    @Test
    void mariaDbsDumpRefusalsMapToTheirHalts() {
        BinlogStartPosition pos = BinlogStartPosition.of(MariaDbGtidAxes.ofState("0-1-9"));
        CapstanHaltException foreign =
                ServerFailures.haltFor(
                        new ServerException(
                                "Error: connecting slave requested to start from GTID 0-1-9, which"
                                        + " is not in the master's binlog",
                                1236,
                                "HY000"),
                        pos,
                        7,
                        "maria:3306");
        assertThat(foreign.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(foreign.getMessage()).contains("maria:3306").contains("0-1-9");
        CapstanHaltException purged =
                ServerFailures.haltFor(
                        new ServerException(
                                "Could not find GTID state requested by slave in any binlog files."
                                        + " Probably the slave state is too old and required binlog"
                                        + " files have been purged.",
                                1236,
                                "HY000"),
                        pos,
                        7,
                        "maria:3306");
        assertThat(purged.reason()).isEqualTo(HaltReason.DATA_GAP);
        assertThat(purged.getMessage()).contains("maria:3306").contains("0-1-9");
    }

    @Test
    void aReadFromTheConnectionThatFailedIsALostConnectionHoweverDeeplyWrapped() {
        EventHeaderV4 header = new EventHeaderV4();
        // TLS reports a reset inside an event as an SSLException caused by the socket's failure:
        // the library's own check (the direct cause only) reports it as undecodable.
        assertThat(
                        ServerFailures.isLostConnection(
                                new EventDataDeserializationException(
                                        header,
                                        new SSLException(
                                                "Connection reset",
                                                new SocketException("Connection reset")))))
                .isTrue();
        assertThat(
                        ServerFailures.isLostConnection(
                                new IllegalStateException(
                                        new SocketTimeoutException("Read timed out"))))
                .isTrue();
        assertThat(
                        ServerFailures.isLostConnection(
                                new EventDataDeserializationException(header, new EOFException())))
                .isTrue();
        // A body that does not decode is the event's fault, not the connection's.
        assertThat(
                        ServerFailures.isLostConnection(
                                new EventDataDeserializationException(
                                        header, new IllegalStateException("malformed length"))))
                .isFalse();
        assertThat(
                        ServerFailures.isLostConnection(
                                new java.io.IOException("malformed binary JSON")))
                .isFalse();
    }
}

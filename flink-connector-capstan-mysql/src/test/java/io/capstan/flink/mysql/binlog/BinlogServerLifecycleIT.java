package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.capstan.flink.mysql.binlog.BinlogHaltsIT.assertHalt;
import static io.capstan.flink.mysql.binlog.BinlogHaltsIT.pollUntilHalt;
import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.endsAtLeast;
import static io.capstan.flink.mysql.binlog.StreamerFixture.rows;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What disturbs a whole server, on an extra embedded MySQL of its own: a restart while streaming,
 * purged binlogs (data_gap), missing row metadata (a schema halt) and a server that does not come
 * back (reconnect_budget_exhausted, last: it stops the server).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BinlogServerLifecycleIT {

    private static MySqlServer server;
    private static final TableId T = TableId.of("lifecycle", "t");

    @BeforeAll
    static void startServer() {
        server = MySqlServer.startEmbedded(ServerOptions.defaults());
        server.executeAsRoot(
                "CREATE DATABASE lifecycle",
                "CREATE TABLE lifecycle.t (id INT PRIMARY KEY, v VARCHAR(40))");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static void insert(int from, int to) {
        for (int i = from; i <= to; i++) {
            server.executeAsRoot("INSERT INTO lifecycle.t VALUES (" + i + ", 'v" + i + "')");
        }
    }

    @Test
    @Order(1)
    void serverRestartWhileStreamingLosesAndDuplicatesNothing() throws Exception {
        BinlogStartPosition start = StartPositions.latest(connectorConfig(server));
        try (BinlogStreamer s =
                new BinlogStreamer(config(connectorConfig(server), T).build(), start)) {
            s.start();
            insert(1, 50);
            List<BinlogRecord> out =
                    new ArrayList<>(drain(s, endsAtLeast(20), Duration.ofSeconds(30)));
            server.restart();
            insert(51, 100);
            out.addAll(
                    drain(
                            s,
                            l ->
                                    l.stream().filter(r -> r instanceof TransactionEnd).count()
                                                    + out.stream()
                                                            .filter(
                                                                    r ->
                                                                            r
                                                                                    instanceof
                                                                                    TransactionEnd)
                                                            .count()
                                            >= 100,
                            Duration.ofSeconds(60)));

            assertThat(rows(out))
                    .extracting(c -> c.after().getInt(0))
                    .containsExactlyElementsOf(
                            IntStream.rangeClosed(1, 100).boxed().collect(Collectors.toList()));
            assertThat(s.metrics().reconnects()).isGreaterThanOrEqualTo(1);
            BinlogPositionTracker tracker = new BinlogPositionTracker(start);
            out.forEach(tracker::onRecord);
            assertThat(tracker.position().processed())
                    .isEqualTo(GtidSet.parse(server.gtidExecuted()));
            assertThat(s.poll(500, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    @Order(2)
    void purgedTransactionsHaltWithDataGapBeforeAndWhileConnecting() throws Exception {
        BinlogStartPosition old = StartPositions.latest(connectorConfig(server));
        insert(1001, 1003);
        server.purgeBinaryLogs();
        try (BinlogStreamer s =
                new BinlogStreamer(config(connectorConfig(server), T).build(), old)) {
            assertHalt(s::start, HaltReason.DATA_GAP);
        }
        assertHalt(
                () -> StartPositions.gtidSet(connectorConfig(server), old.processed()),
                HaltReason.DATA_GAP);
        // Past the JDBC check, the server's own refusal (error 1236) maps to the same halt.
        // The refusal surfaces from connect() or from a later poll, whichever comes after it.
        try (BinlogStreamer s =
                new BinlogStreamer(config(connectorConfig(server), T).build(), old)) {
            boolean haltedOnConnect = false;
            try {
                s.connect();
            } catch (CapstanHaltException e) {
                assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP);
                haltedOnConnect = true;
            }
            if (!haltedOnConnect) {
                pollUntilHalt(s, HaltReason.DATA_GAP);
            }
        }
        // earliest = what the server still holds: valid.
        BinlogStartPosition earliest = StartPositions.earliest(connectorConfig(server));
        assertThat(earliest.processed()).isEqualTo(GtidSet.parse(server.gtidPurged()));
        try (BinlogStreamer s =
                new BinlogStreamer(config(connectorConfig(server), T).build(), earliest)) {
            s.start();
        }
    }

    @Test
    @Order(3)
    void aSchemaHaltFromATableMapWithoutRowMetadataStopsTheStream() throws Exception {
        BinlogStartPosition start = StartPositions.latest(connectorConfig(server));
        server.executeAsRoot("SET GLOBAL binlog_row_metadata = MINIMAL");
        try {
            server.executeAsRoot("INSERT INTO lifecycle.t VALUES (2001, 'minimal')");
        } finally {
            server.executeAsRoot("SET GLOBAL binlog_row_metadata = FULL");
        }
        try (BinlogStreamer s =
                new BinlogStreamer(config(connectorConfig(server), T).build(), start)) {
            // The schema reader's halt travels through the streamer like UNSUPPORTED_COLUMN_TYPE
            // and UNDECODABLE_COLUMN would (same path); this one the test server can produce. The
            // table map may be read before start() returns: the halt then surfaces from start().
            CapstanHaltException early = catchThrowableOfType(s::start, CapstanHaltException.class);
            if (early != null) {
                assertThat(early.reason()).isEqualTo(HaltReason.BINLOG_ROW_METADATA_NOT_FULL);
            } else {
                pollUntilHalt(s, HaltReason.BINLOG_ROW_METADATA_NOT_FULL);
            }
            assertThat(s.metrics().rowChangesEmitted()).isZero();
        }
    }

    @Test
    @Order(4)
    void aServerThatDoesNotComeBackExhaustsTheReconnectBudget() throws Exception {
        BinlogStartPosition start = StartPositions.latest(connectorConfig(server));
        BinlogStreamerConfig cfg =
                config(connectorConfig(server), T)
                        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(500))
                        .reconnectMaxDuration(Duration.ofSeconds(3))
                        .build();
        try (BinlogStreamer s = new BinlogStreamer(cfg, start)) {
            s.start();
            server.close();
            server = null;
            pollUntilHalt(s, HaltReason.RECONNECT_BUDGET_EXHAUSTED);
        }
    }
}

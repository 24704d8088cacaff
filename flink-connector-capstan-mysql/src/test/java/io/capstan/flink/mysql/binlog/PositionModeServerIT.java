package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;
import io.capstan.flink.mysql.testing.SwitchableTcpProxy;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real servers without GTIDs: the stream survives a server restart (a reconnect into a new binlog
 * file) exactly, and a start or resume on binlog positions halts by name where it cannot be exact
 * (docs/operations.md, Servers without GTIDs); each check is the one a job runs before it connects
 * the binlog and before each reconnect.
 */
class PositionModeServerIT {

    private static final String WITHOUT_GTIDS = "--gtid-mode=OFF --enforce-gtid-consistency=OFF";

    private static MySqlServer server;
    private static MySqlServer other;

    @BeforeAll
    static void startServers() {
        server = MySqlServer.startEmbedded(ServerOptions.defaults().withFlag(WITHOUT_GTIDS));
        other = MySqlServer.startEmbedded(ServerOptions.defaults().withFlag(WITHOUT_GTIDS));
        server.executeAsRoot(
                "CREATE DATABASE IF NOT EXISTS halts",
                "CREATE TABLE IF NOT EXISTS halts.t (id INT PRIMARY KEY)");
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (server != null) {
            server.close();
        }
        if (other != null) {
            other.close();
        }
    }

    private static HaltReason haltOf(MySqlConnectionConfig config, GtidSet processed) {
        try {
            StartPositions.validate(config, BinlogStartPosition.of(processed));
            return null;
        } catch (CapstanHaltException e) {
            return e.reason();
        }
    }

    @Test
    void aServerWithoutGtidsStartsOnPositionsAndResumesWhereItWrote() {
        MySqlConnectionConfig config = connectorConfig(server);
        ServerGtidState state = ServerGtidState.read(config);
        assertThat(state.positionMode()).isTrue();
        GtidSet latest = state.latest().processed();
        assertThat(BinlogPositionAxis.isPositionSet(latest)).isTrue();
        assertThat(haltOf(config, latest)).isNull();
        assertThat(haltOf(config, state.earliest().processed())).isNull();
    }

    @Test
    void aServerRestartWhileStreamingLosesAndDuplicatesNothing() throws Exception {
        TableId t = TableId.of("halts", "r");
        server.executeAsRoot("CREATE TABLE IF NOT EXISTS halts.r (id INT PRIMARY KEY)");
        MySqlConnectionConfig config = connectorConfig(server);
        BinlogStartPosition start = StartPositions.latest(config);
        try (BinlogStreamer s =
                new BinlogStreamer(StreamerFixture.config(config, t).build(), start)) {
            s.start();
            insert(1, 50);
            List<BinlogRecord> out =
                    new ArrayList<>(
                            StreamerFixture.drain(
                                    s, StreamerFixture.rowsAtLeast(20), Duration.ofSeconds(30)));
            server.restart(); // a new binlog file: the stream reconnects and resumes by position
            insert(51, 100);
            out.addAll(
                    StreamerFixture.drain(
                            s,
                            l ->
                                    StreamerFixture.rows(l).size()
                                                    + StreamerFixture.rows(out).size()
                                            >= 100,
                            Duration.ofSeconds(60)));
            assertThat(StreamerFixture.rows(out))
                    .extracting(c -> c.after().getInt(0))
                    .containsExactlyElementsOf(
                            IntStream.rangeClosed(1, 100).boxed().collect(Collectors.toList()));
            assertThat(s.metrics().reconnects()).isGreaterThanOrEqualTo(1);
            List<BinlogRecord> later = new ArrayList<>();
            for (BinlogRecord r; (r = s.poll(1_000, TimeUnit.MILLISECONDS)) != null; ) {
                later.add(r); // positions passed (the new file's first events) may still come
            }
            assertThat(StreamerFixture.rows(later)).as("no row twice").isEmpty();
        }
    }

    private static void insert(int from, int to) {
        insert(server, "halts.r", from, to);
    }

    private static void insert(MySqlServer on, String table, int from, int to) {
        for (int i = from; i <= to; i++) {
            on.executeAsRoot("INSERT INTO " + table + " VALUES (" + i + ")");
        }
    }

    /**
     * A failover under a running stream: the address now leads to another server whose binary log
     * has the same file names and is longer, so the resume position exists there too. Only the
     * server's identity tells that the position means other transactions there; streaming on would
     * deliver its rows as if they followed the old server's.
     */
    @Test
    void aReconnectThatReachesAnotherServerHaltsBeforeReadingIt() throws Exception {
        MySqlServer successor =
                MySqlServer.startEmbedded(ServerOptions.defaults().withFlag(WITHOUT_GTIDS));
        TableId t = TableId.of("halts", "f");
        String create = "CREATE TABLE IF NOT EXISTS halts.f (id INT PRIMARY KEY)";
        try (successor;
                SwitchableTcpProxy address = new SwitchableTcpProxy(server.port())) {
            server.executeAsRoot(create);
            successor.executeAsRoot("CREATE DATABASE IF NOT EXISTS halts", create);
            MySqlConnectionConfig config =
                    connectorConfig(server).toBuilder()
                            .hostname("127.0.0.1")
                            .port(address.port())
                            .build();
            BinlogStartPosition start = StartPositions.latest(config);
            try (BinlogStreamer s =
                    new BinlogStreamer(StreamerFixture.config(config, t).build(), start)) {
                s.start();
                insert(server, "halts.f", 1, 20);
                List<BinlogRecord> out =
                        new ArrayList<>(
                                StreamerFixture.drain(
                                        s,
                                        StreamerFixture.rowsAtLeast(20),
                                        Duration.ofSeconds(30)));

                // the successor's log reaches past the stream's position, in a file of the same
                // name
                BinlogFiles old = ServerGtidState.read(connectorConfig(server)).files();
                MySqlConnectionConfig successorConfig = connectorConfig(successor);
                while (ServerGtidState.read(successorConfig).files().current().fileIndex()
                        < old.current().fileIndex()) {
                    successor.executeAsRoot("FLUSH BINARY LOGS");
                }
                int next = 1_000;
                while (ServerGtidState.read(successorConfig)
                                .files()
                                .current()
                                .compareTo(old.current())
                        <= 0) {
                    insert(successor, "halts.f", next, next + 49);
                    next += 50;
                }
                address.switchTo(successor.port());
                insert(successor, "halts.f", next, next + 9);

                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                CapstanHaltException halt = null;
                while (halt == null && System.nanoTime() < deadline) {
                    try {
                        BinlogRecord r = s.poll(100, TimeUnit.MILLISECONDS);
                        if (r != null) {
                            out.add(r);
                        }
                    } catch (CapstanHaltException e) {
                        halt = e;
                    }
                }
                assertThat(halt).as("a halt within 60 s").isNotNull();
                assertThat(halt.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                assertThat(halt.getMessage())
                        .contains("binlog position of another server")
                        .contains(successor.serverUuid());
                assertThat(StreamerFixture.rows(out))
                        .as("no row of the successor")
                        .extracting(c -> c.after().getInt(0))
                        .containsExactlyElementsOf(
                                IntStream.rangeClosed(1, 20).boxed().collect(Collectors.toList()));
            }
        }
    }

    @Test
    void positionsOfAnotherServerHalt() {
        GtidSet theirs = ServerGtidState.read(connectorConfig(other)).latest().processed();
        assertThat(haltOf(connectorConfig(server), theirs))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void aPurgedFileIsADataGap() {
        MySqlConnectionConfig config = connectorConfig(server);
        server.executeAsRoot("INSERT INTO halts.t VALUES (1)");
        GtidSet before = ServerGtidState.read(config).latest().processed();
        server.executeAsRoot("FLUSH BINARY LOGS", "INSERT INTO halts.t VALUES (2)");
        BinlogFiles files = ServerGtidState.read(config).files();
        server.executeAsRoot(
                "PURGE BINARY LOGS TO '"
                        + files.files().get(files.files().size() - 1).name()
                        + "'");
        assertThatThrownBy(() -> StartPositions.validate(config, BinlogStartPosition.of(before)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP);
                            assertThat(e.getMessage()).contains("no longer lists that file");
                        });
    }

    @Test
    void aResetBinaryLogIsAPositionNeverWritten() {
        MySqlConnectionConfig config = connectorConfig(other);
        other.executeAsRoot("FLUSH BINARY LOGS", "FLUSH BINARY LOGS");
        GtidSet late = ServerGtidState.read(config).latest().processed();
        other.executeAsRoot("RESET MASTER");
        assertThat(haltOf(config, late)).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void gtidsTurnedOnUnderAPositionJobHalt() {
        MySqlServer turning =
                MySqlServer.startEmbedded(ServerOptions.defaults().withFlag(WITHOUT_GTIDS));
        try {
            MySqlConnectionConfig config = connectorConfig(turning);
            GtidSet positions = ServerGtidState.read(config).latest().processed();
            turning.executeAsRoot(
                    "SET GLOBAL enforce_gtid_consistency = ON",
                    "SET GLOBAL gtid_mode = OFF_PERMISSIVE",
                    "SET GLOBAL gtid_mode = ON_PERMISSIVE");
            assertThat(haltOf(config, positions)).as("still without GTIDs for all").isNull();
            turning.executeAsRoot("SET GLOBAL gtid_mode = ON");
            assertThat(haltOf(config, positions)).isEqualTo(HaltReason.GTID_MODE_CHANGED);
        } finally {
            turning.close();
        }
    }
}

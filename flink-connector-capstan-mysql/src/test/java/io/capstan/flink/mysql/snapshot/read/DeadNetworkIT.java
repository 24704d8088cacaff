package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.proxy.server.ServerJdbcProxy;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.testing.BlackHoleForwarder;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.resolve;
import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.spec;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A network that goes silent without a reset (a {@link BlackHoleForwarder} between the connector
 * and the server): a JDBC call fails after {@code connect.socket-timeout} with a connection-class
 * error instead of waiting for the OS keepalive (hours), and the retry path reads again, exactly.
 */
class DeadNetworkIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(2);

    /** The call must end well within this; without a socket timeout it never would. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private static MySqlConnectionConfig through(BlackHoleForwarder network) {
        return connectorConfig(DB).toBuilder()
                .hostname(network.host())
                .port(network.port())
                .connectTimeout(Duration.ofSeconds(2))
                .socketTimeout(SOCKET_TIMEOUT)
                .maxRetries(0)
                .build();
    }

    @Test
    void aPlanningCallOnASilentNetworkFailsAsAConnectionFailureAndTheNextCallWorks()
            throws Exception {
        DB.execute("CREATE TABLE planned (id BIGINT PRIMARY KEY)");
        TableId table = TableId.of(DB.name(), "planned");
        try (BlackHoleForwarder network =
                        new BlackHoleForwarder(DB.server().host(), DB.server().port());
                ServerJdbcProxy proxy = new ServerJdbcProxy(through(network))) {
            assertThat(proxy.tableSchema(table).columnCount()).isEqualTo(1);

            network.blackHole();
            long start = System.nanoTime();
            assertTimeoutPreemptively(
                    PATIENCE,
                    () ->
                            assertThatThrownBy(() -> proxy.tableSchema(table))
                                    .isInstanceOf(IOException.class)
                                    .hasMessageContaining("SQLState 08"),
                    "the call waited on the silent network");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.println("Planning call on a silent network failed after " + took);
            // the kept connection's read, then the one retry's handshake: each one timeout
            assertThat(took).isLessThan(SOCKET_TIMEOUT.multipliedBy(2).plusSeconds(5));

            network.heal();
            assertThat(proxy.tableSchema(table).columnCount())
                    .as("after the network healed")
                    .isEqualTo(1);
        }
    }

    /**
     * A closing reader aborts the proxy: the call waiting on the silent network fails at once,
     * without the retry on a new connection (whose handshake would wait a whole socket timeout),
     * and later calls are refused.
     */
    @Test
    void anAbortedProxyFailsItsCallInFlightAtOnceWithoutRetrying() throws Exception {
        DB.execute("CREATE TABLE aborted (id BIGINT PRIMARY KEY)");
        TableId table = TableId.of(DB.name(), "aborted");
        try (BlackHoleForwarder network =
                        new BlackHoleForwarder(DB.server().host(), DB.server().port());
                ServerJdbcProxy proxy =
                        new ServerJdbcProxy(
                                through(network).toBuilder()
                                        .socketTimeout(Duration.ofMinutes(2))
                                        .build())) {
            assertThat(proxy.tableSchema(table).columnCount()).isEqualTo(1);
            network.blackHole();
            java.util.concurrent.CompletableFuture<Throwable> call =
                    java.util.concurrent.CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    proxy.tableSchema(table);
                                    return null;
                                } catch (Throwable t) {
                                    return t;
                                }
                            });
            Thread.sleep(1_000); // the call is waiting on the silent socket
            long start = System.nanoTime();
            proxy.abort();
            Throwable failed =
                    call.get(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.println("Aborted call failed after " + took);
            assertThat(failed).isInstanceOf(IOException.class);
            assertThat(took).isLessThan(Duration.ofSeconds(5));
            assertThatThrownBy(() -> proxy.tableSchema(table))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("closing");
        }
    }

    @Test
    void aChunkReadOnASilentNetworkFailsAndTheSameReaderReadsTheChunkAgainExactly()
            throws Exception {
        DB.execute("CREATE TABLE silenced (id BIGINT PRIMARY KEY, v VARCHAR(64) NOT NULL)");
        StringBuilder insert = new StringBuilder("INSERT INTO silenced VALUES ");
        for (int i = 0; i < 5_000; i++) {
            insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", REPEAT('x', 60))");
        }
        DB.execute(insert.toString());
        ChunkKey key =
                resolve(connectorConfig(DB), TableId.of(DB.name(), "silenced"), Optional.empty());
        TableReadSpec spec = spec(connectorConfig(DB), key);
        SnapshotChunk all = new SnapshotChunk(key.table(), 0, ChunkRange.all());
        try (BlackHoleForwarder network =
                new BlackHoleForwarder(DB.server().host(), DB.server().port())) {
            // The network dies right after the lock is released, as the rows are asked for.
            BriefLockListener cut =
                    new BriefLockListener() {
                        private boolean done;

                        @Override
                        public void afterUnlock(TableId table) {
                            if (!done) {
                                done = true;
                                network.blackHole();
                            }
                        }
                    };
            try (ChunkReader reader =
                    new ChunkReader(through(network), SnapshotReadOptions.defaults(), cut)) {
                long start = System.nanoTime();
                assertTimeoutPreemptively(
                        PATIENCE,
                        () ->
                                assertThatThrownBy(() -> reader.read(all, spec))
                                        .isInstanceOf(IOException.class)
                                        .hasMessageContaining("SQLState 08"),
                        "the chunk read waited on the silent network");
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                System.out.println("Chunk read on a silent network failed after " + took);
                assertThat(took).isLessThan(SOCKET_TIMEOUT.plusSeconds(5));

                network.heal();
                ChunkResult again = reader.read(all, spec);
                Set<Long> ids = new HashSet<>();
                for (RowData row : again.rows()) {
                    assertThat(ids.add(row.getLong(0))).isTrue();
                }
                assertThat(ids).hasSize(5_000);
            }
        }
    }
}

package io.capstan.flink.mysql.source.failover;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ReplicationSetup;
import io.capstan.flink.mysql.testing.ServerOptions;
import io.capstan.flink.mysql.testing.SwitchableTcpProxy;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real failover under a running job: two embedded servers, a primary and its GTID replica ({@code
 * log_slave_updates=ON}), behind a {@link SwitchableTcpProxy} the connector connects to. The
 * primary stops, the replica is promoted and the proxy switched to it: the job streams on from the
 * new primary with no change lost or duplicated. A replica that missed delivered transactions, and
 * the old primary after the new one took writes, halt by name instead.
 *
 * <p>The servers, the job's start position and the halt's wording of a server's identity are hooks
 * ({@link #startPrimary()}, {@link #startReplica()}, {@link #startPosition}, {@link #haltDetail}):
 * a subclass runs the same failovers on another kind of server ({@link MariaDbFailoverIT}).
 */
class FailoverIT {

    private static final Duration WAIT = Duration.ofMinutes(2);

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    private MySqlServer primary;
    private MySqlServer replica;
    private SwitchableTcpProxy proxy;
    private FailoverWrites writes;
    private JobClient job;
    private final String database =
            "failover_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);

    /** The primary, with GTIDs and a binary log the connector can capture. */
    protected MySqlServer startPrimary() {
        return MySqlServer.startEmbedded(ServerOptions.defaults());
    }

    /**
     * The replica-to-be, of the primary's kind, whose binary log carries the primary's transactions
     * with their GTIDs ({@code log_slave_updates}).
     */
    protected MySqlServer startReplica() {
        return MySqlServer.startEmbedded(
                ServerOptions.defaults().withFlag("--log-slave-updates=ON"));
    }

    /** The server's position now, as the job's {@link StartupOptions#gtidSet} start takes it. */
    protected String startPosition(MySqlServer server) {
        return server.gtidExecuted();
    }

    /** The text naming {@code server} a source identity halt must contain when it reaches it. */
    protected String haltDetail(MySqlServer server) {
        return "is now server_uuid " + server.serverUuid();
    }

    @BeforeEach
    void startTopology() throws Exception {
        primary = startPrimary();
        replica = startReplica();
        ReplicationSetup.start(primary, replica);
        primary.executeAsRoot(
                "CREATE DATABASE " + database, "USE " + database, Workload.createTable("t"));
        ReplicationSetup.awaitCaughtUp(primary, replica, WAIT);
        proxy = new SwitchableTcpProxy(primary.port());
        writes = new FailoverWrites(database);
        job = startJob(startPosition(primary));
    }

    @AfterEach
    void stopTopology() throws Exception {
        if (job != null) {
            try {
                job.cancel().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                // already ended (the halting tests)
            }
        }
        if (proxy != null) {
            proxy.close();
        }
        if (replica != null) {
            replica.close();
        }
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void theJobFollowsAPromotedReplicaWithNoChangeLostOrDuplicated() throws Exception {
        writes.insert(primary, 1, 300);
        awaitCommitted(writes.expected().size()); // the job is streaming from the primary
        // cut the job off the primary (the address leads nowhere), so the primary's last writes
        // reach it only through the replica's binary log, with the primary's GTIDs
        proxy.switchTo(unusedPort());
        writes.update(primary, 1, 100);

        // the operator's failover: writes stop, the replica catches up, the primary goes away
        ReplicationSetup.awaitCaughtUp(primary, replica, WAIT);
        primary.close();
        primary = null;
        ReplicationSetup.promote(replica);
        proxy.switchTo(replica.port());

        writes.update(replica, 50, 250);
        writes.delete(replica, 280, 300);
        writes.insert(replica, 301, 400);
        awaitCommitted(writes.expected().size());
        Thread.sleep(1_500); // more checkpoints: a duplicate would show

        List<String> committed = SourceJobs.committed(sinkDir);
        ExactlyOnceCheck.assertExactlyOnce(writes.expected(), committed);
        assertThat(FailoverWrites.replay(committed))
                .as("the Flink side equals the new primary")
                .isEqualTo(writes.tableOn(replica))
                .hasSize(379);
    }

    @Test
    void aPromotedReplicaThatMissedDeliveredTransactionsHaltsTheJob() throws Exception {
        writes.insert(primary, 1, 100);
        ReplicationSetup.awaitCaughtUp(primary, replica, WAIT);
        ReplicationSetup.stop(replica); // replication breaks: the replica misses what follows
        writes.update(primary, 1, 20);
        awaitCommitted(writes.expected().size()); // the job delivered changes the replica lacks

        primary.close();
        primary = null;
        ReplicationSetup.promote(replica);
        writes.insert(replica, 101, 110);
        proxy.switchTo(replica.port());

        assertHalts("[source_identity_mismatch]", haltDetail(replica));
        // nothing the replica wrote was taken for the lost changes' continuation
        assertThat(SourceJobs.committed(sinkDir)).noneMatch(line -> line.startsWith("t|c|101|"));
    }

    @Test
    void theOldPrimaryAfterTheNewOneTookWritesHaltsTheJob() throws Exception {
        writes.insert(primary, 1, 100);
        ReplicationSetup.awaitCaughtUp(primary, replica, WAIT);
        ReplicationSetup.promote(replica); // the old primary keeps running, without writes
        proxy.switchTo(replica.port());
        writes.insert(replica, 101, 150);
        awaitCommitted(writes.expected().size()); // the job streamed the new primary's writes

        proxy.switchTo(primary.port()); // the address leads back to the old primary
        assertHalts("[source_identity_mismatch]", haltDetail(primary));
    }

    private JobClient startJob(String startGtids) throws Exception {
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname("127.0.0.1")
                        .port(proxy.port())
                        .username(primary.connectorAccount().username())
                        .password(primary.connectorAccount().password())
                        .databaseList(database)
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.gtidSet(startGtids))
                        .deserializer(new ChangeLineDeserializer())
                        .heartbeatInterval(Duration.ofSeconds(1))
                        .reconnectBackoff(Duration.ofMillis(200))
                        .build();
        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(env, source, sinkDir);
        return env.executeAsync("failover");
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void awaitCommitted(int lines) throws InterruptedException {
        SourceJobs.await(
                lines + " changes committed",
                WAIT,
                () -> SourceJobs.committedCount(sinkDir) >= lines);
    }

    private void assertHalts(String code, String detail) {
        assertThatThrownBy(
                        () -> job.getJobExecutionResult().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .satisfies(
                        failure ->
                                assertThat(
                                                ExceptionUtils.findThrowable(
                                                        failure,
                                                        t ->
                                                                String.valueOf(t.getMessage())
                                                                        .contains(code)))
                                        .hasValueSatisfying(
                                                halt ->
                                                        assertThat(halt.getMessage())
                                                                .contains(detail, "Remedy")));
        job = null;
    }
}

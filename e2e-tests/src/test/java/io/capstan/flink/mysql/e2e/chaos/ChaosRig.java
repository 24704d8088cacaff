package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.connector.CdcJobFixture;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;
import io.capstan.flink.mysql.testing.ServerOptions;

/**
 * What the chaos runs stand on: a MySQL server of their own (restarting it disturbs no other test),
 * a database on it, a TCP proxy in front of it for the cluster's connections, and a standalone
 * Flink cluster of separate JVMs (JobManager, two TaskManagers of one slot) that retains each job's
 * latest checkpoint when the job is cancelled.
 */
final class ChaosRig implements AutoCloseable {
    final MySqlServer server;
    final MySqlTestDatabase db;
    final TcpChaosProxy proxy;
    final FlinkStandaloneCluster cluster;

    private ChaosRig(
            MySqlServer server,
            MySqlTestDatabase db,
            TcpChaosProxy proxy,
            FlinkStandaloneCluster cluster) {
        this.server = server;
        this.db = db;
        this.proxy = proxy;
        this.cluster = cluster;
    }

    static ChaosRig start(String name) {
        MySqlServer server = MySqlServer.startEmbedded(ServerOptions.defaults());
        MySqlTestDatabase db = new MySqlTestDatabase(() -> server);
        db.beforeAll(null);
        TcpChaosProxy proxy = TcpChaosProxy.start(server.host(), server.port());
        FlinkStandaloneCluster cluster =
                FlinkStandaloneCluster.builder()
                        .name(name)
                        .taskManagers(2)
                        .slotsPerTaskManager(1)
                        .config(
                                "execution.checkpointing.externalized-checkpoint-retention",
                                "RETAIN_ON_CANCELLATION")
                        // every restore submits the jar again, and each submission leaves classes
                        // in the JobManager's metaspace: a long round's 20 or more need room
                        .jobManagerProcessSize("1536m")
                        .config("jobmanager.memory.jvm-metaspace.size", "512m")
                        // the enumerator's snapshot gauges (SnapshotProgress) without 10 s of lag
                        .config("metrics.fetcher.update-interval", "500")
                        .start();
        System.out.printf(
                "Chaos rig: %s behind proxy port %d, cluster up in %d ms%n",
                server, proxy.port(), cluster.startupMillis());
        return new ChaosRig(server, db, proxy, cluster);
    }

    ChaosRun run(ChaosRun.Settings settings) {
        return new ChaosRun(cluster, db, proxy, settings);
    }

    @Override
    public void close() {
        try {
            cluster.close();
            CdcJobFixture.assertNoProcessesLeft(cluster);
        } finally {
            proxy.close();
            db.afterAll(null);
            server.close();
        }
    }
}

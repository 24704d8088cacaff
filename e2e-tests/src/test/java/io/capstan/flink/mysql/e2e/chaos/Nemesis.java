package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.testing.MySqlServer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Applies one {@link Fault} at a time to the job of a round, its cluster, the proxy between the
 * cluster and MySQL, or MySQL itself, and says what it did (no row values, no statements).
 */
final class Nemesis {
    private final FlinkStandaloneCluster cluster;
    private final TcpChaosProxy proxy;
    private final MySqlServer server;
    private final String connectorUser;
    private final ChaosJob job;
    private final Random random;

    Nemesis(
            FlinkStandaloneCluster cluster,
            TcpChaosProxy proxy,
            MySqlServer server,
            String connectorUser,
            ChaosJob job,
            long seed) {
        this.cluster = cluster;
        this.proxy = proxy;
        this.server = server;
        this.connectorUser = connectorUser;
        this.job = job;
        this.random = new Random(seed ^ 0x5DEECE66DL);
    }

    /** Applies the fault and returns what was done. */
    String apply(Fault fault) throws InterruptedException {
        return switch (fault) {
            case TASK_MANAGER_KILL -> killTaskManager();
            case NETWORK_RESET -> {
                int open = proxy.openConnections();
                proxy.resetAll();
                yield "reset " + open + " connection(s)";
            }
            case NETWORK_STALL -> {
                long millis = 2_000 + random.nextInt(6_000);
                proxy.stall();
                try {
                    Thread.sleep(millis);
                } finally {
                    proxy.pass();
                }
                yield "stalled " + millis + " ms";
            }
            case KILL_CONNECTIONS -> "killed " + killConnectorConnections() + " connection(s)";
            case BINLOG_ROTATION -> {
                server.executeAsRoot("FLUSH BINARY LOGS");
                yield "rotated the binlog";
            }
            case MYSQL_RESTART -> {
                long begun = System.nanoTime();
                server.restart();
                yield "restarted mysqld in " + (System.nanoTime() - begun) / 1_000_000 + " ms";
            }
            case CHECKPOINT_RESTORE -> {
                String from = job.id();
                job.restoreFromLatestCheckpoint();
                yield "cancelled " + from + ", restored as " + job.id();
            }
            case SAVEPOINT_RESTORE -> {
                String from = job.id();
                job.restoreFromSavepoint();
                yield "stopped " + from + " with a savepoint, restored as " + job.id();
            }
        };
    }

    private String killTaskManager() {
        String victim = cluster.aTaskManagerRunning(job.id(), Duration.ofMinutes(2));
        int exit = cluster.killTaskManager(victim);
        String replacement = cluster.startTaskManager().name();
        return "SIGKILLed " + victim + " (exit " + exit + "), started " + replacement;
    }

    /** KILLs every connection of the connector's account, as a DBA would; returns how many. */
    private int killConnectorConnections() {
        List<Long> ids = new ArrayList<>();
        try (Connection c = server.openRootConnection()) {
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "SELECT id FROM information_schema.processlist WHERE user = ?")) {
                ps.setString(1, connectorUser);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            int killed = 0;
            try (Statement st = c.createStatement()) {
                for (long id : ids) {
                    try {
                        st.execute("KILL " + id);
                        killed++;
                    } catch (SQLException e) {
                        // 1094 unknown thread: it ended meanwhile
                    }
                }
            }
            return killed;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot kill the connector's connections", e);
        }
    }
}

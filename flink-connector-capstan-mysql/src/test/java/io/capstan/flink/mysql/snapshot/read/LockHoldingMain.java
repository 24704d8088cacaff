package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;

import java.time.Duration;

/**
 * A process that takes a chunk's brief lock with the production {@link BriefLock} and then, inside
 * the lock window, announces {@code LOCKED} on stdout and waits to be killed: what a TaskManager
 * killed at the worst moment leaves on the server. Launched by {@link LockHolderVanishesIT}.
 *
 * <p>Arguments: host, port, user, database, table; the password comes in the environment variable
 * {@code CAPSTAN_TEST_PASSWORD}.
 */
public final class LockHoldingMain {

    private LockHoldingMain() {}

    public static void main(String[] args) throws Exception {
        MySqlConnectionConfig config =
                MySqlConnectionConfig.builder()
                        .hostname(args[0])
                        .port(Integer.parseInt(args[1]))
                        .username(args[2])
                        .password(System.getenv("CAPSTAN_TEST_PASSWORD"))
                        .connectTimeout(Duration.ofSeconds(10))
                        .build();
        TableId table = TableId.of(args[3], args[4]);
        BriefLockListener holdForever =
                new BriefLockListener() {
                    @Override
                    public void whileLocked(TableId locked) {
                        System.out.println("LOCKED");
                        System.out.flush();
                        try {
                            Thread.sleep(Long.MAX_VALUE);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                };
        SnapshotReadOptions options = SnapshotReadOptions.defaults();
        try (ChunkConnections sessions = new ChunkConnections(config, options)) {
            sessions.open();
            new BriefLock(options, holdForever).openReadView(sessions, table);
        }
    }
}

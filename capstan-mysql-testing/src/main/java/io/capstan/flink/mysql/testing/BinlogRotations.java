package io.capstan.flink.mysql.testing;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rotates a server's binary log ({@code FLUSH BINARY LOGS}) at a fixed period until closed, so a
 * test meets rotations at moments it does not choose: between and inside chunk reads, the handoff
 * and restores. A failed rotation is counted as not done, never thrown.
 */
public final class BinlogRotations implements AutoCloseable {

    private final ScheduledExecutorService executor;
    private final AtomicInteger count = new AtomicInteger();

    private BinlogRotations(MySqlServer server, long periodMillis) {
        executor =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "binlog-rotations");
                            t.setDaemon(true);
                            return t;
                        });
        executor.scheduleWithFixedDelay(
                () -> {
                    try {
                        server.executeAsRoot("FLUSH BINARY LOGS");
                        count.incrementAndGet();
                    } catch (RuntimeException e) {
                        // the server may be restarting: the next period tries again
                    }
                },
                periodMillis,
                periodMillis,
                TimeUnit.MILLISECONDS);
    }

    /** Rotates the binary log of {@code db}'s server every {@code periodMillis}. */
    public static BinlogRotations every(MySqlTestDatabase db, long periodMillis) {
        return new BinlogRotations(db.server(), periodMillis);
    }

    /** Rotations done so far. */
    public int count() {
        return count.get();
    }

    /** Stops rotating (idempotent). */
    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}

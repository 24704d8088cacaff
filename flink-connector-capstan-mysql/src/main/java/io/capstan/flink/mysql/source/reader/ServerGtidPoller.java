package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.JdbcProxy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads the server's {@code gtid_executed} at a fixed interval ({@link #INTERVAL} in the reader)
 * through a JDBC proxy of its own (a daemon thread, off the read path), for the {@code
 * processedGtidLag} gauge. A failed poll keeps the last value and is logged once until a poll
 * succeeds again; the stream never depends on it.
 */
final class ServerGtidPoller implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerGtidPoller.class);

    static final Duration INTERVAL = Duration.ofSeconds(10);

    /** The poller thread's, until close() has seen that thread end. */
    private final JdbcProxy mysql;

    private final Duration interval;
    private final ScheduledExecutorService executor;
    @Nullable private volatile GtidSet latest;
    private boolean failing;
    private volatile boolean closed;

    /** Starts polling {@code mysql}, which it owns from now on. */
    ServerGtidPoller(JdbcProxy mysql, Duration interval) {
        this.mysql = mysql;
        this.interval = interval;
        this.executor =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "capstan-gtid-poller");
                            t.setDaemon(true);
                            return t;
                        });
        executor.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The server's executed set at the latest successful poll; null before the first. */
    @Nullable
    GtidSet latest() {
        return latest;
    }

    /** True once closed and its thread has ended. */
    boolean stopped() {
        return executor.isTerminated();
    }

    private void poll() {
        try {
            if (closed) {
                return;
            }
            latest = mysql.gtidExecuted();
            failing = false;
        } catch (IOException | RuntimeException e) {
            // The proxy dropped its connection with the failed call: the next poll reconnects.
            if (!failing) {
                LOG.warn(
                        "Could not read gtid_executed from {} for the processedGtidLag metric ({});"
                                + " retrying every {} ms",
                        mysql.serverAddress(),
                        e.getClass().getSimpleName(),
                        interval.toMillis());
                failing = true;
            }
        } finally {
            if (closed) {
                closeConnection(); // close() raced with this poll and left the connection to it
            }
        }
    }

    private void closeConnection() {
        mysql.close();
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
        boolean ended = false;
        try {
            ended = executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ended) {
            closeConnection(); // else the poll still running closes it as it ends
        }
    }
}

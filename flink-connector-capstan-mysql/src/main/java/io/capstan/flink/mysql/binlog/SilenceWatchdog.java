package io.capstan.flink.mysql.binlog;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Notices a binlog connection that went silent: no event and no heartbeat for three heartbeat
 * intervals (plus five seconds of slack). A half-open TCP connection (a server that vanished
 * without a FIN) would otherwise block the reader forever; reconnecting is the remedy. Its thread
 * looks every half heartbeat interval (at least every second).
 */
final class SilenceWatchdog {

    private final long silenceNanos;
    private final long checkMillis;
    private final LongSupplier nanoClock;
    private volatile long lastActivityNanos;
    private volatile Thread thread; // set by start(), read by stop() on another thread

    SilenceWatchdog(Duration heartbeatInterval, LongSupplier nanoClock) {
        this.silenceNanos = heartbeatInterval.toNanos() * 3 + TimeUnit.SECONDS.toNanos(5);
        this.checkMillis = Math.max(1000, heartbeatInterval.toMillis() / 2);
        this.nanoClock = nanoClock;
        this.lastActivityNanos = nanoClock.getAsLong();
    }

    /** The server spoke, or the reader is busy waiting for the consumer: not silence. */
    void activity() {
        lastActivityNanos = nanoClock.getAsLong();
    }

    /** Whether nothing happened for longer than the silence allowed. */
    boolean silent() {
        return nanoClock.getAsLong() - lastActivityNanos > silenceNanos;
    }

    /** How long a silence is allowed. */
    long silenceMillis() {
        return TimeUnit.NANOSECONDS.toMillis(silenceNanos);
    }

    /**
     * Starts the watching thread: while {@code running}, calls {@code onSilence} each time it finds
     * the connection silent (the callback reconnects, which counts as activity once connected).
     */
    void start(String threadName, BooleanSupplier running, Runnable onSilence) {
        thread = new Thread(() -> watch(running, onSilence), threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread and waits for it (a few seconds at most). */
    void stop() throws InterruptedException {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            t.join(10_000);
        }
    }

    private void watch(BooleanSupplier running, Runnable onSilence) {
        try {
            while (running.getAsBoolean()) {
                Thread.sleep(checkMillis);
                if (silent()) {
                    onSilence.run();
                }
            }
        } catch (InterruptedException e) {
            // stopping
        }
    }
}

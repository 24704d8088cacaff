package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.LongSupplier;

/**
 * Keeps the binlog connection up: connects from the stream's exact resume position (the processed
 * set plus the rows of the open transaction already handed on, so nothing is lost or handed on
 * twice), and when the connection ends decides between a halt ({@link ServerFailures}: the server
 * refuses the position, another replica took the server id, ...) and a reconnect after a capped,
 * jittered backoff ({@link ReconnectBackoff}), until the reconnect budget is spent.
 *
 * <p>{@link #run} is the binlog reader thread's loop; the client's lifecycle callbacks (on the same
 * thread) report to {@link #connected()} and {@link #connectionFailed}. The silence watchdog's
 * thread calls {@link #connectionFailed} too, before it drops a silent connection; the fields both
 * threads touch ({@code client}, {@code lastConnectionFailure}) are volatile.
 */
final class ReconnectSupervisor {

    private static final Logger LOG = LoggerFactory.getLogger(ReconnectSupervisor.class);

    /** What the supervisor keeps connected. */
    interface Stream {
        /** Where the next connection must start. */
        BinlogStartPosition resumePosition();

        /**
         * A client to stream from {@code position}, not connected yet, its listeners registered.
         */
        BinaryLogClient clientFrom(BinlogStartPosition position);

        /** Closed or halted: no further connection. */
        boolean stopped();

        /** Ends the stream with {@code halt}. */
        void halt(CapstanHaltException halt);
    }

    /** What to do after a connection ended. */
    sealed interface Next permits Halt, Reconnect {}

    /** End the stream. */
    record Halt(CapstanHaltException halt) implements Next {}

    /** Reconnect after a pause. */
    record Reconnect(long delayMillis) implements Next {}

    private final BinlogStreamerConfig config;
    private final ReconnectBackoff backoff;
    private final BinlogStreamerMetrics metrics;
    private final LongSupplier clockMillis;

    private volatile BinaryLogClient client;
    private volatile Exception lastConnectionFailure;
    private boolean reconnecting; // reader thread only

    ReconnectSupervisor(
            BinlogStreamerConfig config,
            ReconnectBackoff backoff,
            BinlogStreamerMetrics metrics,
            LongSupplier clockMillis) {
        this.config = config;
        this.backoff = backoff;
        this.metrics = metrics;
        this.clockMillis = clockMillis;
    }

    /**
     * Connects, streams and reconnects until the stream stops or halts (the halt goes to {@link
     * Stream#halt}).
     *
     * @throws InterruptedException when the thread is interrupted during a backoff pause (closing)
     */
    void run(Stream stream) throws InterruptedException {
        while (!stream.stopped()) {
            BinlogStartPosition position = stream.resumePosition();
            BinaryLogClient c = stream.clientFrom(position);
            lastConnectionFailure = null;
            client = c;
            if (stream.stopped()) {
                return;
            }
            try {
                c.connect(); // blocks while streaming; returns when the connection ends
            } catch (Exception e) {
                lastConnectionFailure = e;
            }
            metrics.connected(false);
            if (stream.stopped()) {
                return;
            }
            Exception cause = lastConnectionFailure;
            Next next = afterConnectionEnded(cause, position);
            if (next instanceof Halt halt) {
                stream.halt(halt.halt());
                return;
            }
            long delay = ((Reconnect) next).delayMillis();
            LOG.warn(
                    "Binlog connection to {} (server id {}) ended ({}); reconnecting in {} ms from {}",
                    config.connection().address(),
                    config.serverId(),
                    describe(cause),
                    delay,
                    stream.resumePosition());
            reconnecting = true;
            Thread.sleep(delay);
        }
    }

    /**
     * The decision after a connection from {@code position} ended with {@code cause} (null: the
     * server closed it): a halt the failure calls for, the reconnect budget's halt when it is
     * spent, or the backoff pause.
     */
    Next afterConnectionEnded(Exception cause, BinlogStartPosition position) {
        CapstanHaltException halt =
                ServerFailures.haltFor(
                        cause, position, config.serverId(), config.connection().address());
        if (halt != null) {
            return new Halt(halt);
        }
        long delay = backoff.nextDelayMillis(clockMillis.getAsLong());
        if (delay < 0) {
            return new Halt(
                    new RetryBudgetExhaustedException(
                            HaltReason.RECONNECT_BUDGET_EXHAUSTED,
                            "the binlog connection to "
                                    + config.connection().address()
                                    + " could not be restored after "
                                    + backoff.attempts()
                                    + " attempts within "
                                    + config.reconnectMaxDuration()
                                    + " (last failure: "
                                    + describe(cause)
                                    + "). Remedy: bring the server back or"
                                    + " fix the network; Flink's restart strategy (if any) restarts from the last"
                                    + " checkpoint and tries again; raise the reconnect budget if outages this long"
                                    + " are expected."));
        }
        return new Reconnect(delay);
    }

    /** The client's lifecycle: the connection is up; the next loss starts a fresh budget. */
    void connected() {
        metrics.connected(true);
        if (reconnecting) {
            metrics.reconnected();
            reconnecting = false;
        }
        backoff.reset();
    }

    /** Why the current connection is ending (the client's lifecycle, or the watchdog). */
    void connectionFailed(Exception e) {
        lastConnectionFailure = e;
    }

    /** The client of the current connection attempt, or null before the first. */
    BinaryLogClient client() {
        return client;
    }

    private static String describe(Exception e) {
        if (e == null) {
            return "closed by the server";
        }
        // Network and protocol messages carry addresses, error codes and binlog positions, no row
        // values.
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}

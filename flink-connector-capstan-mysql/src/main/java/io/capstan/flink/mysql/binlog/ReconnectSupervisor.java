package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import io.capstan.flink.mysql.event.BinlogStartPosition;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * Keeps the binlog connection up: connects from the stream's exact resume position (the processed
 * set plus the rows of the open transaction already handed on, so nothing is lost or handed on
 * twice), and when the connection ends decides between a halt ({@link ServerFailures}: the server
 * refuses the position, another replica took the server id, ...) and a reconnect after a capped,
 * jittered backoff ({@link ReconnectBackoff}), until the reconnect budget is spent.
 *
 * <p>Before every connection it reads who answers at the address ({@link ServerIdentity}). The
 * first connection only records it (the stream's start checked the position already, and tests
 * reach the server's own refusals through it); every reconnect must pass {@link
 * ResumeCheck#checkReconnect} first, so a failover to a server that lacks delivered transactions or
 * purged needed ones halts instead of streaming on silently. The binlog client reads the server's
 * {@code server_id} on its own connection; a connection that reached another server than the one
 * checked (the address switched in between) is dropped and checked again.
 *
 * <p>{@link #run} is the binlog reader thread's loop; the client's lifecycle callbacks (on the same
 * thread) report to {@link #connected()} and {@link #connectionFailed}. The silence watchdog's
 * thread calls {@link #connectionFailed} too, before it drops a silent connection; the fields both
 * threads touch ({@code client}, {@code lastConnectionFailure}) are volatile.
 */
final class ReconnectSupervisor {

    private static final Logger LOG = LoggerFactory.getLogger(ReconnectSupervisor.class);

    /** Tells an event that never decodes from a connection lost while reading one. */
    private final RepeatedDecodeFailure undecodableEvent = new RepeatedDecodeFailure();

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

    /** Reads who answers at the configured address now. */
    @FunctionalInterface
    interface IdentityProbe {
        /**
         * @throws IOException when the server cannot be reached or read (a failed attempt)
         */
        ServerIdentity read() throws IOException;
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
    private final IdentityProbe probe;

    private volatile BinaryLogClient client;
    private volatile Exception lastConnectionFailure;
    private boolean reconnecting; // reader thread only
    // reader thread only (connected() runs in the client's lifecycle callback on that thread):
    private boolean firstAttempt = true;
    private ServerIdentity checked; // the server the current attempt was checked against, or null
    private String sourceUuid; // the server last streamed from (or first seen), or null

    /** Reads the server's identity over JDBC with the stream's connection settings. */
    ReconnectSupervisor(
            BinlogStreamerConfig config,
            ReconnectBackoff backoff,
            BinlogStreamerMetrics metrics,
            LongSupplier clockMillis) {
        this(config, backoff, metrics, clockMillis, () -> ServerIdentity.read(config.connection()));
    }

    ReconnectSupervisor(
            BinlogStreamerConfig config,
            ReconnectBackoff backoff,
            BinlogStreamerMetrics metrics,
            LongSupplier clockMillis,
            IdentityProbe probe) {
        this.config = config;
        this.backoff = backoff;
        this.metrics = metrics;
        this.clockMillis = clockMillis;
        this.probe = probe;
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
            Exception cause;
            try {
                cause = checkServerThenStream(stream, position);
            } catch (CapstanHaltException halt) {
                stream.halt(halt);
                return;
            }
            if (stream.stopped()) {
                return;
            }
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
     * One connection attempt: the server check, then the binlog connection until it ends.
     *
     * @return why the attempt ended (null: the server closed the connection)
     * @throws CapstanHaltException when the server cannot serve the position exactly
     */
    private Exception checkServerThenStream(Stream stream, BinlogStartPosition position) {
        ServerIdentity server;
        try {
            server = probe.read();
        } catch (IOException e) {
            if (!firstAttempt) {
                return e; // not checked, not streamed: a failed attempt like a refused connection
            }
            server = null; // the first connection meets the server's own refusal instead
            LOG.debug("Could not read the server's identity before connecting: {}", describe(e));
        }
        if (server != null && !firstAttempt) {
            String previous = sourceUuid;
            if (ResumeCheck.checkReconnect(
                    position, previous, server, config.connection().address())) {
                LOG.info(
                        "The binlog source at {} changed from server_uuid {} to {} (server id {});"
                                + " it holds every processed transaction and still has every later"
                                + " one in its binlog, so streaming continues exactly after {}",
                        config.connection().address(),
                        previous,
                        server.serverUuid(),
                        server.serverId(),
                        position);
            }
        }
        if (firstAttempt && server != null) {
            sourceUuid = server.serverUuid();
        }
        firstAttempt = false;
        checked = server;
        BinaryLogClient c = stream.clientFrom(position);
        lastConnectionFailure = null;
        client = c;
        if (stream.stopped()) {
            return null;
        }
        try {
            c.connect(); // blocks while streaming; returns when the connection ends
        } catch (Exception e) {
            lastConnectionFailure = e;
        }
        metrics.connected(false);
        return lastConnectionFailure;
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
        CapstanHaltException undecodable = undecodableEvent.afterFailure(cause, position);
        if (undecodable != null) {
            return new Halt(undecodable);
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

    /**
     * The client's lifecycle: the connection is up; the next loss starts a fresh budget. A
     * connection to another server than the one checked (its {@code server_id} differs) is dropped
     * before any event is read: the next attempt checks the server it reaches.
     */
    void connected() {
        BinaryLogClient c = client;
        ServerIdentity s = checked;
        if (c != null && s != null && c.getMasterServerId() != s.serverId()) {
            lastConnectionFailure =
                    new IOException(
                            "the binlog connection reached server id "
                                    + c.getMasterServerId()
                                    + ", not the checked server "
                                    + s.serverUuid()
                                    + " (server id "
                                    + s.serverId()
                                    + ")");
            try {
                c.disconnect();
            } catch (IOException | RuntimeException e) {
                LOG.debug("Ignoring failure while disconnecting: {}", e.getClass().getName());
            }
            return;
        }
        if (s != null) {
            sourceUuid = s.serverUuid();
        }
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

    /** The server the current attempt was checked against, or null (not checked). */
    ServerIdentity checked() {
        return checked;
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

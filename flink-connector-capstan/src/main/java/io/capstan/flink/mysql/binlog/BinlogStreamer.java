package io.capstan.flink.mysql.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.error.RetryBudgetExhaustedException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams one MySQL server's binlog from a {@link BinlogStartPosition} as {@link BinlogRecord}s.
 *
 * <p>A reader thread runs the binlog connection and the {@link TransactionAssembler}, and puts
 * records into a bounded queue; when the queue is full the thread blocks, stops reading the socket,
 * and TCP pushes back on the server, so memory stays bounded by the queue whatever the transaction
 * size. {@link #poll} takes records out (from the Flink split reader). Records cross the queue in
 * batches (those of one binlog event, at most {@value #BATCH} at a time), handed over as soon as
 * the event is processed: a hand-off per record cost a thread wake-up per record, more CPU than
 * decoding it. At most {@code queueCapacity} records wait in the queue (the batch being taken
 * out included), plus one batch being filled.
 *
 * <p>Transient faults (dropped connection, KILL of the dump thread, server restart, silence beyond
 * the heartbeat) reconnect with capped, jittered exponential backoff, from the assembler's exact
 * position: the processed set plus the rows of the open transaction already queued, so nothing is
 * lost or queued twice. Conditions that would lose or duplicate data halt: {@link #poll} then
 * throws the {@link CapstanHaltException}. DDL statements go to the caller's {@link DdlObserver},
 * whose halts stop the stream the same way.
 */
public final class BinlogStreamer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogStreamer.class);
    private static final long OFFER_SLICE_MILLIS = 100;
    static final int BATCH = 256;

    private final BinlogStreamerConfig config;
    private final BinlogStartPosition start;
    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final BlockingQueue<BinlogRecord[]> queue = new LinkedBlockingQueue<>(); // bounded by space
    private final Semaphore space; // one permit per record the queue may still take
    private final int batchSize;
    private final AtomicInteger queuedRecords = new AtomicInteger();
    private BinlogRecord[] filling; // reader thread only
    private int filled; // reader thread only
    private BinlogRecord[] taking; // poll's thread only
    private int taken; // poll's thread only
    private final TableSchemaCache tables;
    private final TransactionAssembler assembler;
    private final ReconnectBackoff backoff;
    private final CountDownLatch firstConnect = new CountDownLatch(1);

    private volatile RuntimeException failure; // a halt, or an internal error of the reader thread
    private volatile boolean closed;
    private volatile boolean started;
    private volatile BinaryLogClient client;
    private volatile long lastActivityNanos;
    private volatile Exception lastConnectionFailure;
    private boolean reconnecting; // reader thread only
    private Thread reader;
    private Thread watchdog;

    public BinlogStreamer(BinlogStreamerConfig config, BinlogStartPosition start) {
        this(config, start, DdlObserver.NONE);
    }

    /**
     * @param ddlObserver sees each DDL statement on the reader thread before its transaction ends;
     *     a halt it throws halts the stream (see {@link DdlObserver})
     */
    public BinlogStreamer(BinlogStreamerConfig config, BinlogStartPosition start, DdlObserver ddlObserver) {
        this.config = config;
        this.start = start;
        this.batchSize = Math.min(BATCH, config.queueCapacity());
        this.space = new Semaphore(config.queueCapacity());
        this.filling = new BinlogRecord[batchSize];
        this.tables = new TableSchemaCache(config.tableFilter(), metrics);
        this.assembler = new TransactionAssembler(
                tables, start, config.startTimestampMillis(), metrics, this::enqueue,
                Objects.requireNonNull(ddlObserver, "ddlObserver"));
        this.backoff = new ReconnectBackoff(
                config.reconnectInitialBackoff(),
                config.reconnectMaxBackoff(),
                config.reconnectMaxAttempts(),
                config.reconnectMaxDuration(),
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * Validates the start position against the server (halts with {@code data_gap} or {@code
     * source_identity_mismatch}), then connects. Returns once the first connection is up (or its
     * connect timeout passed; the reader keeps trying within the reconnect budget).
     */
    public synchronized void start() {
        StartPositions.validate(config.connection(), start);
        connect();
    }

    /** Connects without the JDBC position check: lets tests reach the server's own refusals. */
    synchronized void connect() {
        if (started) {
            throw new IllegalStateException("BinlogStreamer already started");
        }
        started = true;
        reader = new Thread(this::readLoop, "capstan-binlog-reader-" + config.serverId());
        reader.setDaemon(true);
        reader.start();
        watchdog = new Thread(this::watchLoop, "capstan-binlog-watchdog-" + config.serverId());
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            firstConnect.await(config.connection().connectTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /**
     * The next record, or null if none arrived within the timeout.
     *
     * @throws CapstanHaltException when the stream halted (it stays halted)
     */
    public BinlogRecord poll(long timeout, TimeUnit unit) throws InterruptedException {
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
        if (taking == null || taken == taking.length) {
            if (taking != null) {
                space.release(taking.length); // one wake-up of a blocked reader per batch, not per record
            }
            taking = queue.poll(timeout, unit);
            taken = 0;
            if (taking == null) {
                if ((f = failure) != null) {
                    throw f;
                }
                return null;
            }
        }
        BinlogRecord record = taking[taken];
        taking[taken++] = null;
        queuedRecords.decrementAndGet();
        return record;
    }

    public BinlogStreamerMetrics metrics() {
        return metrics;
    }

    /** Records waiting in the queue. */
    public int queuedRecords() {
        return queuedRecords.get();
    }

    @Override
    public void close() {
        closed = true;
        disconnect(client);
        for (Thread t : new Thread[] {watchdog, reader}) {
            if (t != null) {
                t.interrupt();
                try {
                    t.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        queue.clear();
        taking = null;
    }

    // ---- reader thread -------------------------------------------------------------------------

    private void readLoop() {
        try {
            while (!closed && failure == null) {
                BinlogStartPosition position = assembler.resumePosition();
                assembler.restartFrom(position);
                BinaryLogClient c = BinlogClientFactory.create(config, position, tables, metrics);
                c.registerEventListener(this::onEvent);
                c.registerLifecycleListener(new Lifecycle());
                lastConnectionFailure = null;
                client = c;
                if (closed) {
                    break;
                }
                try {
                    c.connect(); // blocks while streaming; returns when the connection ends
                } catch (Exception e) {
                    lastConnectionFailure = e;
                }
                metrics.connected(false);
                if (closed || failure != null) {
                    break;
                }
                Exception cause = lastConnectionFailure;
                CapstanHaltException halt =
                        ServerFailures.haltFor(cause, position, config.serverId(), config.connection().address());
                if (halt != null) {
                    haltWith(halt);
                    break;
                }
                long delay = backoff.nextDelayMillis(System.currentTimeMillis());
                if (delay < 0) {
                    haltWith(new RetryBudgetExhaustedException(
                            HaltReason.RECONNECT_BUDGET_EXHAUSTED,
                            "the binlog connection to " + config.connection().address() + " could not be restored after "
                                    + backoff.attempts() + " attempts within " + config.reconnectMaxDuration()
                                    + " (last failure: " + describe(cause) + "). Remedy: bring the server back or"
                                    + " fix the network; Flink's restart strategy (if any) restarts from the last"
                                    + " checkpoint and tries again; raise the reconnect budget if outages this long"
                                    + " are expected."));
                    break;
                }
                LOG.warn("Binlog connection to {} (server id {}) ended ({}); reconnecting in {} ms from {}",
                        config.connection().address(), config.serverId(), describe(cause), delay,
                        assembler.resumePosition());
                reconnecting = true;
                Thread.sleep(delay);
            }
        } catch (InterruptedException e) {
            // closing
        } catch (RuntimeException | Error e) {
            if (!closed) {
                LOG.error("Binlog reader thread failed ({})", e.getClass().getName());
                failure = new IllegalStateException("binlog reader thread failed: " + e.getClass().getName(), e);
            }
        } finally {
            firstConnect.countDown();
        }
    }

    private void onEvent(Event event) {
        if (closed || failure != null) {
            return;
        }
        lastActivityNanos = System.nanoTime();
        try {
            assembler.onEvent(event);
            handOver(); // the event's records, at once
        } catch (InterruptedException e) {
            disconnect(client); // closing or halted while waiting for queue space
        } catch (CapstanHaltException e) {
            haltWith(e);
        } catch (TransactionAssembler.DdlObserverFailure e) {
            // The observer failed: only its exception class travels on (its message, and so the
            // cause that Flink would log whole, may quote the SQL, which may hold values).
            LOG.error("Binlog stream failed: {}", e.getMessage());
            failWith(new IllegalStateException(e.getMessage()));
        } catch (RuntimeException e) {
            // Never let the binlog client log the event (it would print row values).
            haltWith(new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "a " + event.getHeader().getEventType() + " event could not be processed ("
                            + e.getClass().getName() + "). Remedy: report this with the table's DDL; restart from"
                            + " the last checkpoint after a fix."));
        }
    }

    /**
     * The assembler's sink: adds to the batch being filled, handing it over when full (which may
     * block). A record accepted here is always handed over (at the end of its event at the latest)
     * unless the streamer closes or halts, so the assembler's resume position stays exact.
     */
    private void enqueue(BinlogRecord record) throws InterruptedException {
        filling[filled++] = record;
        if (filled == batchSize) {
            handOver();
        }
    }

    /** Puts the filled batch into the queue; blocks while it is full (TCP back-pressure), wakes up on close or halt. */
    private void handOver() throws InterruptedException {
        if (filled == 0) {
            return;
        }
        BinlogRecord[] batch = filled == batchSize ? filling : Arrays.copyOf(filling, filled);
        while (!space.tryAcquire(filled, OFFER_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
            lastActivityNanos = System.nanoTime(); // waiting for the consumer is not silence
            if (closed || failure != null) {
                throw new InterruptedException("binlog streamer closed");
            }
        }
        queuedRecords.addAndGet(filled);
        queue.add(batch);
        if (batch == filling) {
            filling = new BinlogRecord[batchSize];
        } else {
            Arrays.fill(filling, 0, filled, null);
        }
        filled = 0;
    }

    private void haltWith(CapstanHaltException halt) {
        if (failure == null && !closed) {
            LOG.error("Binlog stream halted: {}", halt.getMessage());
        }
        failWith(halt);
    }

    private void failWith(RuntimeException f) {
        if (failure == null && !closed) {
            failure = f;
        }
        firstConnect.countDown();
        disconnect(client);
    }

    private static void disconnect(BinaryLogClient c) {
        if (c != null) {
            try {
                c.disconnect();
            } catch (IOException | RuntimeException e) {
                LOG.debug("Ignoring failure while disconnecting the binlog client: {}", e.getClass().getName());
            }
        }
    }

    private static String describe(Exception e) {
        if (e == null) {
            return "closed by the server";
        }
        // Network and protocol messages carry addresses, error codes and binlog positions, no row values.
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** Reconnects when neither an event nor a heartbeat arrived for three heartbeat intervals. */
    private void watchLoop() {
        long silenceNanos = config.connection().heartbeatInterval().toNanos() * 3 + TimeUnit.SECONDS.toNanos(5);
        try {
            while (!closed && failure == null) {
                Thread.sleep(Math.max(1000, config.connection().heartbeatInterval().toMillis() / 2));
                BinaryLogClient c = client;
                if (c != null && c.isConnected() && System.nanoTime() - lastActivityNanos > silenceNanos) {
                    LOG.warn("No binlog event or heartbeat from {} for {} ms; reconnecting",
                            config.connection().address(), TimeUnit.NANOSECONDS.toMillis(silenceNanos));
                    lastConnectionFailure = new IOException("heartbeat timeout");
                    disconnect(c);
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    private final class Lifecycle implements BinaryLogClient.LifecycleListener {
        @Override
        public void onConnect(BinaryLogClient c) {
            lastActivityNanos = System.nanoTime();
            metrics.connected(true);
            if (reconnecting) {
                metrics.reconnected();
                reconnecting = false;
            }
            backoff.reset();
            LOG.info("Binlog connection to {} up (server id {}), streaming after {}",
                    config.connection().address(), config.serverId(), assembler.resumePosition());
            firstConnect.countDown();
        }

        @Override
        public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
            lastConnectionFailure = ex;
        }

        @Override
        public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
            CapstanHaltException halt = null;
            for (Throwable t = ex; t != null && halt == null; t = t.getCause()) {
                if (t instanceof CapstanHaltException) {
                    halt = (CapstanHaltException) t;
                }
            }
            if (halt == null) {
                halt = new CapstanHaltException(
                        HaltReason.UNDECODABLE_COLUMN,
                        "a binlog event after " + assembler.resumePosition() + " could not be decoded ("
                                + rootCauseClass(ex) + "). Remedy: report this with the captured tables' DDL;"
                                + " restart from the last checkpoint after a fix.",
                        null);
            }
            haltWith(halt);
        }

        @Override
        public void onDisconnect(BinaryLogClient c) {}
    }

    private static String rootCauseClass(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getName();
    }
}

package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Streams one MySQL server's binlog from a {@link BinlogStartPosition} as {@link BinlogRecord}s.
 *
 * <p>A reader thread runs the binlog connection ({@link ReconnectSupervisor}) and the {@link
 * TransactionAssembler}, and hands the records of each binlog event over to {@link #poll} (called
 * by the Flink split reader) through a bounded {@link BatchHandOver}: when it is full the reader
 * thread blocks, stops reading the socket, and TCP pushes back on the server, so memory stays
 * bounded by the queue capacity whatever the transaction size.
 *
 * <p>Transient faults (dropped connection, KILL of the dump thread, server restart, silence beyond
 * the heartbeat, noticed by the {@link SilenceWatchdog}) reconnect with capped, jittered
 * exponential backoff, from the assembler's exact position: the processed set plus the rows of the
 * open transaction already queued, so nothing is lost or queued twice. Conditions that would lose
 * or duplicate data halt: {@link #poll} then throws the {@link CapstanHaltException}. DDL
 * statements go to the caller's {@link DdlObserver}, whose halts stop the stream the same way.
 */
@Internal
public final class BinlogStreamer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogStreamer.class);

    private final BinlogStreamerConfig config;
    private final BinlogStartPosition start;
    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    private final BatchHandOver<BinlogRecord> handOver;
    private final TableSchemaCache tables;
    private final TransactionAssembler assembler;
    private final ReconnectSupervisor supervisor;
    private final SilenceWatchdog watchdog;
    private final CascadeGuard cascades; // null: not checked
    private final PositionModeEvents positions; // null: a server with GTIDs
    private final GtidModeEvents gtidEvents; // null: a server without GTIDs
    private final CountDownLatch firstConnect = new CountDownLatch(1);

    private volatile RuntimeException failure; // a halt, or an internal error of the reader thread
    private volatile boolean closed;
    private volatile boolean started;
    private volatile Thread reader; // set under connect(), read by close() on another thread

    public BinlogStreamer(BinlogStreamerConfig config, BinlogStartPosition start) {
        this(config, start, DdlObserver.NONE);
    }

    /**
     * @param ddlObserver sees each DDL statement on the reader thread before its transaction ends;
     *     a halt it throws halts the stream (see {@link DdlObserver})
     */
    public BinlogStreamer(
            BinlogStreamerConfig config, BinlogStartPosition start, DdlObserver ddlObserver) {
        this(config, start, ddlObserver, null);
    }

    /**
     * @param referentialFacts the server's foreign keys and triggers, read at {@link #start} and
     *     after each DDL that may change them: changes that foreign-key actions or triggers carry
     *     into captured tables unlogged halt ({@link CascadeGuard}); null only where no table has
     *     any (the streamer's own tests)
     */
    public BinlogStreamer(
            BinlogStreamerConfig config,
            BinlogStartPosition start,
            DdlObserver ddlObserver,
            ReferentialFacts.Source referentialFacts) {
        this.config = config;
        this.start = start;
        this.watchdog =
                new SilenceWatchdog(config.connection().heartbeatInterval(), System::nanoTime);
        this.handOver =
                new BatchHandOver<>(config.queueCapacity(), this::stopped, watchdog::activity);
        this.tables = new TableSchemaCache(config.tableFilter(), metrics, config.spatialForm());
        this.assembler =
                new TransactionAssembler(
                        tables,
                        start,
                        config.origin().dropsCommittedBeforeMillis(),
                        metrics,
                        handOver::add,
                        Objects.requireNonNull(ddlObserver, "ddlObserver"),
                        config.truncateHandling(),
                        config.xaMaxPendingRows(),
                        config.origin().snapshotHoldsPreparedBeforeStart());
        if (referentialFacts != null) {
            this.cascades = new CascadeGuard(referentialFacts, tables.filter(), ddlObserver);
            assembler.guardCascades(cascades);
            tables.decodeAlso(cascades::decodes);
        } else {
            this.cascades = null;
        }
        this.positions = PositionModeEvents.inFrontOf(assembler, start);
        this.gtidEvents = positions == null ? new GtidModeEvents(assembler) : null;
        if (config.onlineSchemaChanges()) {
            assembler.followOnlineSchemaChanges();
        }
        if (config.origin().known() && !config.origin().snapshotted()) {
            assembler.streamOnly();
        }
        if (config.schemaChangeColumns() != null) {
            assembler.emitSchemaChanges(new SchemaChangeEvents(config.schemaChangeColumns()));
        }
        if (config.createdTables() != null) {
            assembler.captureCreatedTables(
                    new CreatedTableCapture(
                            config.createdTables(), config.origin().tableRenamedInHalts()));
        }
        this.supervisor =
                new ReconnectSupervisor(
                        config,
                        new ReconnectBackoff(
                                config.reconnectInitialBackoff(),
                                config.reconnectMaxBackoff(),
                                config.reconnectMaxAttempts(),
                                config.reconnectMaxDuration(),
                                () -> ThreadLocalRandom.current().nextDouble()),
                        metrics,
                        System::currentTimeMillis);
    }

    /**
     * Validates the start position against the server (halts with {@code data_gap} or {@code
     * source_identity_mismatch}), then connects. Returns once the first connection is up (or its
     * connect timeout passed; the reader keeps trying within the reconnect budget).
     */
    public synchronized void start() {
        BinlogFiles files = StartPositions.validate(config.connection(), start).files();
        if (positions != null) {
            positions.listed(files);
        }
        if (cascades != null) {
            cascades.load(); // before the first event, on this thread: a halt is thrown to the
            // caller
        }
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
        watchdog.start(
                "capstan-binlog-watchdog-" + config.serverId(), () -> !stopped(), this::onSilence);
        try {
            firstConnect.await(
                    config.connection().connectTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
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
        BinlogRecord record = handOver.poll(timeout, unit);
        if (record == null && (f = failure) != null) {
            throw f;
        }
        return record;
    }

    public BinlogStreamerMetrics metrics() {
        return metrics;
    }

    /** Records waiting in the queue. */
    public int queuedRecords() {
        return handOver.queued();
    }

    @Override
    public void close() {
        closed = true;
        disconnect(supervisor.client());
        try {
            watchdog.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Thread r = reader;
        if (r != null) {
            r.interrupt();
            try {
                r.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        handOver.clear();
    }

    private boolean stopped() {
        return closed || failure != null;
    }

    // ---- reader thread -------------------------------------------------------------------------

    private void readLoop() {
        try {
            supervisor.run(
                    new ReconnectSupervisor.Stream() {
                        @Override
                        public BinlogStartPosition resumePosition() {
                            return assembler.resumePosition();
                        }

                        @Override
                        public BinaryLogClient clientFrom(BinlogStartPosition position) {
                            assembler.restartFrom(position);
                            BinaryLogClient c =
                                    BinlogClientFactory.create(config, position, tables, metrics);
                            if (positions != null) {
                                positions.connect(
                                        c, position, supervisor.checked(), config.connection());
                            } else {
                                gtidEvents.connect(position.processed());
                            }
                            c.registerEventListener(BinlogStreamer.this::onEvent);
                            c.registerLifecycleListener(new Lifecycle());
                            return c;
                        }

                        @Override
                        public boolean stopped() {
                            return BinlogStreamer.this.stopped();
                        }

                        @Override
                        public void halt(CapstanHaltException halt) {
                            haltWith(halt);
                        }
                    });
        } catch (InterruptedException e) {
            // closing
        } catch (RuntimeException | Error e) {
            if (!closed) {
                LOG.error("Binlog reader thread failed ({})", e.getClass().getName());
                failure =
                        new IllegalStateException(
                                "binlog reader thread failed: " + e.getClass().getName(), e);
            }
        } finally {
            firstConnect.countDown();
        }
    }

    private void onEvent(Event event) {
        if (stopped()) {
            return;
        }
        watchdog.activity();
        try {
            if (positions != null) {
                positions.onEvent(event);
            } else {
                gtidEvents.onEvent(event);
            }
            handOver.handOver(); // the event's records, at once
        } catch (InterruptedException e) {
            disconnect(supervisor.client()); // closing or halted while waiting for queue space
        } catch (CapstanHaltException e) {
            haltWith(e);
        } catch (CascadeGuard.FactsUnavailable | SchemaChangeEvents.ColumnsUnavailable e) {
            LOG.error("Binlog stream failed: {}", e.getMessage());
            failWith(new IllegalStateException(e.getMessage(), e.getCause()));
        } catch (TransactionAssembler.DdlObserverFailure e) {
            // The observer failed: only its exception class travels on (its message, and so the
            // cause that Flink would log whole, may quote the SQL, which may hold values).
            LOG.error("Binlog stream failed: {}", e.getMessage());
            failWith(new IllegalStateException(e.getMessage()));
        } catch (RuntimeException e) {
            // Never let the binlog client log the event (it would print row values).
            haltWith(ServerFailures.unprocessable(event.getHeader().getEventType(), e));
        }
    }

    /** The watchdog found the connection silent: drop it, the supervisor reconnects. */
    private void onSilence() {
        BinaryLogClient c = supervisor.client();
        if (c != null && c.isConnected()) {
            LOG.warn(
                    "No binlog event or heartbeat from {} for {} ms; reconnecting",
                    config.connection().address(),
                    watchdog.silenceMillis());
            supervisor.connectionFailed(new IOException("heartbeat timeout"));
            disconnect(c);
        }
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
        disconnect(supervisor.client());
    }

    private static void disconnect(BinaryLogClient c) {
        if (c != null) {
            try {
                c.disconnect();
            } catch (IOException | RuntimeException e) {
                LOG.debug(
                        "Ignoring failure while disconnecting the binlog client: {}",
                        e.getClass().getName());
            }
        }
    }

    private final class Lifecycle implements BinaryLogClient.LifecycleListener {
        @Override
        public void onConnect(BinaryLogClient c) {
            watchdog.activity();
            supervisor.connected();
            LOG.info(
                    "Binlog connection to {} up (server id {}), streaming after {}",
                    config.connection().address(),
                    config.serverId(),
                    assembler.resumePosition());
            firstConnect.countDown();
        }

        @Override
        public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
            supervisor.connectionFailed(ex);
        }

        @Override
        public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
            CapstanHaltException halt = null;
            for (Throwable t = ex; t != null && halt == null; t = t.getCause()) {
                if (t instanceof CapstanHaltException) {
                    halt = (CapstanHaltException) t;
                }
            }
            if (halt == null && ServerFailures.isLostConnection(ex)) {
                // The connection broke inside an event: reconnect from the resume position (an
                // event that breaks the same way every time is caught by RepeatedDecodeFailure).
                LOG.warn(
                        "Binlog connection to {} lost while reading an event ({}); reconnecting",
                        config.connection().address(),
                        ServerFailures.rootCauseClass(ex));
                supervisor.connectionFailed(ex);
                disconnect(c);
                return;
            }
            haltWith(
                    halt != null
                            ? halt
                            : ServerFailures.undecodable(assembler.resumePosition(), ex));
        }

        @Override
        public void onDisconnect(BinaryLogClient c) {}
    }
}

package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.binlog.BinlogStreamerMetrics;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.schema.TableId;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link BinlogStream} fed by the test: {@link #deliver} queues records, {@link #fail} makes every
 * later poll throw, as the server's streamer does once halted.
 */
public final class FakeBinlogStream implements BinlogStream {

    public final BinlogStartPosition start;
    public final Set<TableId> tables;
    public final DdlObserver ddlObserver;
    private final LinkedBlockingQueue<BinlogRecord> queue = new LinkedBlockingQueue<>();
    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
    @Nullable private volatile RuntimeException failure;
    @Nullable private volatile RuntimeException failureOnStart;
    private volatile boolean started;
    private volatile boolean closed;

    FakeBinlogStream(
            BinlogStartPosition start,
            Collection<TableId> tables,
            DdlObserver ddlObserver,
            List<BinlogRecord> backlog) {
        this.start = start;
        this.tables = Set.copyOf(tables);
        this.ddlObserver = ddlObserver;
        queue.addAll(backlog);
    }

    public void deliver(BinlogRecord... records) {
        queue.addAll(List.of(records));
    }

    /** The stream halts: every poll from now on throws {@code f}. */
    public void fail(RuntimeException f) {
        failure = f;
    }

    /** {@link #start} will throw {@code f} (a refused position or connection). */
    public void failOnStart(RuntimeException f) {
        failureOnStart = f;
    }

    public boolean started() {
        return started;
    }

    public boolean closed() {
        return closed;
    }

    @Override
    public void start() {
        if (failureOnStart != null) {
            throw failureOnStart;
        }
        started = true;
    }

    @Override
    public BinlogRecord poll(long timeout, TimeUnit unit) throws InterruptedException {
        if (!started) {
            throw new IllegalStateException("polled before start()");
        }
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
        return queue.poll(timeout, unit);
    }

    @Override
    public BinlogStreamerMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        closed = true;
    }
}

package io.capstan.flink.mysql.binlog;

import java.util.concurrent.TimeUnit;

/** API placeholder: the implementation follows in the next commit on this branch. */
public final class BinlogStreamer implements AutoCloseable {

    private final BinlogStreamerConfig config;
    private final BinlogStartPosition start;
    private final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();

    public BinlogStreamer(BinlogStreamerConfig config, BinlogStartPosition start) {
        this.config = config;
        this.start = start;
    }

    public void start() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public BinlogRecord poll(long timeout, TimeUnit unit) throws InterruptedException {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public BinlogStreamerMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {}
}

package io.capstan.flink.mysql.binlog;

import java.util.concurrent.TimeUnit;

/** TEMPORARY stand-in for branch binlog's BinlogStreamer (replaced on merge). */
public final class BinlogStreamer implements AutoCloseable {
    public BinlogStreamer(BinlogStreamerConfig config, BinlogStartPosition start) {}

    public void start() {
        throw new UnsupportedOperationException("stand-in: branch binlog not merged yet");
    }

    public BinlogRecord poll(long timeout, TimeUnit unit) throws InterruptedException {
        throw new UnsupportedOperationException("stand-in: branch binlog not merged yet");
    }

    @Override
    public void close() {}
}

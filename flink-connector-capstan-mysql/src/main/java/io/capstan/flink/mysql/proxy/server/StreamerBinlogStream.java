package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.binlog.BinlogStreamerMetrics;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.proxy.BinlogStream;

import java.util.concurrent.TimeUnit;

/** {@link BinlogStream} on the server: a {@link BinlogStreamer}. */
final class StreamerBinlogStream implements BinlogStream {

    private final BinlogStreamer streamer;

    StreamerBinlogStream(BinlogStreamer streamer) {
        this.streamer = streamer;
    }

    @Override
    public void start() {
        streamer.start();
    }

    @Override
    public BinlogRecord poll(long timeout, TimeUnit unit) throws InterruptedException {
        return streamer.poll(timeout, unit);
    }

    @Override
    public BinlogStreamerMetrics metrics() {
        return streamer.metrics();
    }

    @Override
    public void close() {
        streamer.close();
    }
}

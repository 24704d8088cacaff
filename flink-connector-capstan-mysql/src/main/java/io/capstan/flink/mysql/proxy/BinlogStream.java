package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.binlog.BinlogStreamerMetrics;
import io.capstan.flink.mysql.event.BinlogRecord;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * The binlog of one server from one position: row changes and transaction ends of the captured
 * tables, in commit order. The binlog counterpart of {@link JdbcProxy}; the server's implementation
 * wraps {@code binlog.BinlogStreamer}, tests use an in-memory fake.
 */
@Internal
public interface BinlogStream extends AutoCloseable {

    /**
     * Checks that the server can serve the start position, then connects.
     *
     * @throws io.capstan.flink.mysql.error.CapstanHaltException when it cannot ({@code data_gap},
     *     {@code source_identity_mismatch}) or the first connection is refused
     */
    void start();

    /**
     * The next record, or null if none arrived within the timeout.
     *
     * @throws io.capstan.flink.mysql.error.CapstanHaltException when the stream failed for good (it
     *     stays failed: every later poll throws it again)
     */
    @Nullable
    BinlogRecord poll(long timeout, TimeUnit unit) throws InterruptedException;

    /** The stream's counters, readable from any thread. */
    BinlogStreamerMetrics metrics();

    @Override
    void close();
}

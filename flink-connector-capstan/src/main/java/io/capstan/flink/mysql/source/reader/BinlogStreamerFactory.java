package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogStartPosition;
import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.binlog.BinlogStreamerConfig;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Builds the binlog streamer for a split from the source configuration. */
final class BinlogStreamerFactory {

    private BinlogStreamerFactory() {}

    static BinlogStreamer create(
            CapstanSourceConfig config, List<TableId> tables, BinlogStartPosition start) {
        Set<TableId> captured = new HashSet<>(tables);
        BinlogStreamerConfig streamerConfig =
                new BinlogStreamerConfig(
                        config.connection(),
                        config.serverId(),
                        captured::contains,
                        config.binlogQueueCapacity(),
                        config.reconnectBackoff(),
                        config.reconnectBudget(),
                        config.startupOptions().timestampMillis());
        return new BinlogStreamer(streamerConfig, start);
    }
}

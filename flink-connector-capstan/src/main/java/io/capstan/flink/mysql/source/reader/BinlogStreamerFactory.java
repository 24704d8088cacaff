package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.binlog.DdlObserver;
import io.capstan.flink.mysql.binlog.BinlogStreamerConfig;
import io.capstan.flink.mysql.binlog.TableFilter;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.SnapshotDdlGuard;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/** Builds the binlog streamer for a split from the source configuration. */
final class BinlogStreamerFactory {

    /** The longest wait between two reconnect attempts. */
    static final Duration MAX_RECONNECT_BACKOFF = Duration.ofSeconds(30);

    private BinlogStreamerFactory() {}

    static BinlogStreamer create(CapstanSourceConfig config, BinlogSplit split) {
        BinlogStreamerConfig streamerConfig =
                BinlogStreamerConfig.builder()
                        .connection(config.connection())
                        .serverId(config.serverId())
                        .tableFilter(TableFilter.of(new HashSet<>(split.tables())))
                        .queueCapacity(config.binlogQueueCapacity())
                        .reconnectBackoff(
                                config.reconnectBackoff(),
                                config.reconnectBackoff().compareTo(MAX_RECONNECT_BACKOFF) > 0
                                        ? config.reconnectBackoff()
                                        : MAX_RECONNECT_BACKOFF)
                        .reconnectMaxDuration(config.reconnectBudget())
                        // Timestamp mode starts at the earliest position and drops older
                        // transactions; they still join the processed set, also after a restore.
                        .startTimestampMillis(config.startupOptions().timestampMillis())
                        .build();
        return new BinlogStreamer(streamerConfig, split.start(), ddlObserver(split.gate()));
    }

    /**
     * Halts with {@code snapshot_schema_drifted} on a DDL, in a transaction some but not all of
     * whose chunks of a table hold, that touches that table: its chunks were read under two
     * schemas. The split's gate as assigned or restored is enough: a table that retired later has
     * every G in the processed set, so no later transaction can fall between its chunks.
     */
    static DdlObserver ddlObserver(CursorGate gate) {
        if (gate.chunkCount() == 0) {
            return DdlObserver.NONE;
        }
        return (database, sql, gtid) -> {
            Set<TableId> inProgress = gate.tablesInProgressAt(gtid);
            if (!inProgress.isEmpty()) {
                SnapshotDdlGuard.check(database, sql, inProgress);
            }
        };
    }
}

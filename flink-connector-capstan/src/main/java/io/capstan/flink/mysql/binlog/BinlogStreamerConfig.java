package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import java.io.Serializable;
import java.time.Duration;
import java.util.function.Predicate;

/** TEMPORARY stand-in for branch binlog's BinlogStreamerConfig (replaced on merge). */
public record BinlogStreamerConfig(
        MySqlConnectionConfig connection,
        long serverId,
        Predicate<TableId> tableFilter,
        int queueCapacity,
        Duration reconnectBackoff,
        Duration reconnectBudget,
        Long startTimestampMillis)
        implements Serializable {}

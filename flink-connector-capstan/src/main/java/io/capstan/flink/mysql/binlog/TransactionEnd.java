package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.gtid.Gtid;

/** TEMPORARY stand-in for branch binlog's TransactionEnd (replaced on merge). */
public record TransactionEnd(Gtid gtid, long commitTimestampMicros) implements BinlogRecord {}

package io.capstan.flink.mysql.binlog;

/** TEMPORARY stand-in for branch binlog's BinlogRecord (replaced on merge). */
public sealed interface BinlogRecord permits RowChange, TransactionEnd {}
